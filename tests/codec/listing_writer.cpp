#include "listing_writer.h"

#include <cinttypes>
#include <cstdio>

#include "format_rules.h"
#include "pmclog/layout.h"

namespace codec_test {

using pmclog::Field;

namespace {

enum class Fmt { h32, h64, addr, dec, str };

struct Listed {
  const char* name;
  Field field;
  Fmt fmt;
};

// Field order of the golden listings (fixtures/golden/*.expected.txt).
std::vector<Listed> listed_fields(const Abi& abi, Kind k) {
  const bool legacy = is_legacy(abi.generation);
  switch (k) {
    case Kind::initialize:
      if (legacy) return {{"version", Field::version, Fmt::h32}, {"arch", Field::arch, Fmt::h32}};
      return {{"version", Field::version, Fmt::h32},     {"arch", Field::arch, Fmt::h32},
              {"tsc_freq", Field::tsc_freq, Fmt::h64},   {"init_ts_sec", Field::init_ts_sec, Fmt::dec},
              {"init_ts_nsec", Field::init_ts_nsec, Fmt::dec}, {"cpuid", Field::cpuid, Fmt::str}};
    case Kind::mappingchange:
      return {{"maptype", Field::maptype, Fmt::h32}, {"start", Field::start, Fmt::addr},
              {"end", Field::end, Fmt::addr},        {"pid", Field::pid, Fmt::h32},
              {"path", Field::path, Fmt::str}};
    case Kind::pcsample:
      return {{"pid", Field::pid, Fmt::h32}, {"pc", Field::pc, Fmt::addr},
              {"pmcid", Field::pmcid, Fmt::h32}, {"usermode", Field::usermode, Fmt::dec}};
    case Kind::pmcallocate:
      if (legacy)
        return {{"pmcid", Field::pmcid, Fmt::h32}, {"event", Field::event, Fmt::h32},
                {"flags", Field::flags, Fmt::h32}};
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"event", Field::event, Fmt::h32},
              {"flags", Field::flags, Fmt::h32}, {"rate", Field::rate, Fmt::h64}};
    case Kind::pmcallocatedyn:
      if (legacy)
        return {{"pmcid", Field::pmcid, Fmt::h32}, {"event", Field::event, Fmt::h32},
                {"flags", Field::flags, Fmt::h32}, {"evname", Field::evname, Fmt::str}};
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"event", Field::event, Fmt::h32},
              {"flags", Field::flags, Fmt::h32}, {"rate", Field::rate, Fmt::h64},
              {"evname", Field::evname, Fmt::str}};
    case Kind::pmcattach:
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"pid", Field::pid, Fmt::h32},
              {"path", Field::path, Fmt::str}};
    case Kind::pmcdetach:
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"pid", Field::pid, Fmt::h32}};
    case Kind::proccsw:
      if (legacy)
        return {{"pmcid", Field::pmcid, Fmt::h32}, {"value", Field::value, Fmt::h64},
                {"pid", Field::pid, Fmt::h32}};
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"value", Field::value, Fmt::h64},
              {"pid", Field::pid, Fmt::h32}, {"tid", Field::tid, Fmt::h32}};
    case Kind::procexec:
      if (legacy)
        return {{"pid", Field::pid, Fmt::h32}, {"entryaddr", Field::entryaddr, Fmt::addr},
                {"pmcid", Field::pmcid, Fmt::h32}, {"path", Field::path, Fmt::str}};
      if (abi.generation == pmclog::Generation::M10)
        return {{"pid", Field::pid, Fmt::h32}, {"pmcid", Field::pmcid, Fmt::h32},
                {"entryaddr", Field::entryaddr, Fmt::addr}, {"dynaddr", Field::dynaddr, Fmt::addr},
                {"path", Field::path, Fmt::str}};
      return {{"pid", Field::pid, Fmt::h32}, {"pmcid", Field::pmcid, Fmt::h32},
              {"entryaddr", Field::entryaddr, Fmt::addr}, {"path", Field::path, Fmt::str}};
    case Kind::procexit:
      return {{"pmcid", Field::pmcid, Fmt::h32}, {"value", Field::value, Fmt::h64},
              {"pid", Field::pid, Fmt::h32}};
    case Kind::procfork:
      return {{"oldpid", Field::oldpid, Fmt::h32}, {"newpid", Field::newpid, Fmt::h32}};
    case Kind::sysexit: return {{"pid", Field::pid, Fmt::h32}};
    case Kind::userdata: return {{"userdata", Field::userdata, Fmt::h32}};
    case Kind::map_in:
      return {{"pid", Field::pid, Fmt::h32}, {"start", Field::start, Fmt::addr},
              {"path", Field::path, Fmt::str}};
    case Kind::map_out:
      return {{"pid", Field::pid, Fmt::h32}, {"start", Field::start, Fmt::addr},
              {"end", Field::end, Fmt::addr}};
    case Kind::thr_create:
      return {{"tid", Field::tid, Fmt::h32}, {"pid", Field::pid, Fmt::h32},
              {"flags", Field::flags, Fmt::h32}, {"tdname", Field::tdname, Fmt::str}};
    case Kind::thr_exit: return {{"tid", Field::tid, Fmt::h32}};
    case Kind::proc_create:
      return {{"pid", Field::pid, Fmt::h32}, {"flags", Field::flags, Fmt::h32},
              {"pcomm", Field::pcomm, Fmt::str}};
    default: return {};
  }
}

void appendf(std::string& out, const char* fmt, auto... args) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, args...);
  out += buf;
}

}  // namespace

std::string listing_line(const Abi& abi, const pmclog::RecordValue& r, int rec_no,
                         uint64_t offset, uint32_t length) {
  std::string s;
  appendf(s, "rec=%d off=%" PRIu64 " len=%u type=%s(%d)", rec_no, offset, length,
          format_name(r.kind), type_code(abi.generation, r.kind).value_or(-1));
  if (is_legacy(abi.generation))
    appendf(s, " ts_sec=%u ts_nsec=%u", r.ts_sec, r.ts_nsec);
  else
    appendf(s, " tsc=0x%016" PRIx64, r.tsc);

  if (r.kind == Kind::callchain) {
    appendf(s, " pid=0x%08x", static_cast<uint32_t>(r[Field::pid]));
    if (!is_legacy(abi.generation)) appendf(s, " tid=0x%08x", static_cast<uint32_t>(r[Field::tid]));
    const uint32_t cf = static_cast<uint32_t>(r[Field::cpuflags]);
    appendf(s, " pmcid=0x%08x cpuflags=0x%08x cpu=%u usermode=%u npc=%zu pc=[",
            static_cast<uint32_t>(r[Field::pmcid]), cf, cf >> 16, cf & 1u, r.pcs.size());
    for (size_t i = 0; i < r.pcs.size(); ++i) appendf(s, "%s0x%" PRIx64, i ? "," : "", r.pcs[i]);
    s += "]\n";
    return s;
  }
  for (const Listed& f : listed_fields(abi, r.kind)) {
    s += ' ';
    s += f.name;
    s += '=';
    if (f.fmt == Fmt::str) {
      s += '"' + r.text + '"';
      continue;
    }
    const uint64_t v = r[f.field];
    switch (f.fmt) {
      case Fmt::h32: appendf(s, "0x%08x", static_cast<uint32_t>(v)); break;
      case Fmt::h64: appendf(s, "0x%016" PRIx64, v); break;
      case Fmt::addr: appendf(s, "0x%" PRIx64, v); break;
      default: appendf(s, "%" PRIu64, v); break;
    }
  }
  s += '\n';
  return s;
}

}  // namespace codec_test
