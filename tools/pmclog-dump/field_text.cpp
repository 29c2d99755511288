#include "field_text.h"

#include <fmt/format.h>

#include "fast_num.h"
#include "pmclog/event_names.h"
#include "pmclog/names.h"
#include "pmclog/text.h"

namespace dump {

using pmclog::Field;
using pmclog::FieldType;

void append_pmcid_parts(std::string& out, uint32_t id, pmclog::Generation g) {
  const auto p = pmclog::split_pmcid(id, g);
  out += "cpu=";
  if (p.any_cpu) out += "any";
  else append_dec(out, p.cpu);
  out += " mode=";
  out += pmclog::pmc_mode_name(p.mode);
  out += " class=";
  append_dec(out, p.klass);
  out += " row=";
  append_dec(out, p.row);
}

std::string pmcid_parts(uint32_t id, pmclog::Generation g) {
  std::string s;
  append_pmcid_parts(s, id, g);
  return s;
}

namespace {

auto out_it(std::string& s) { return std::back_inserter(s); }

void version_text(std::string& out, uint32_t v) {
  fmt::format_to(out_it(out), "0x{:08x} ({}.{}.{})", v, v >> 24, (v >> 16) & 0xFF, v & 0xFFFF);
}

}  // namespace

bool append_field(std::string& out, const pmclog::Record& r, const pmclog::FieldSpec& f,
                  const LogState& st) {
  if (f.type == FieldType::pad || f.type == FieldType::unwritten) return false;
  const auto g = st.abi.generation;
  const auto name = pmclog::field_name(f.id);
  if (f.id == Field::pcs) {
    fmt::format_to(out_it(out), "npc={}", r.pcs.size());
    return true;
  }
  if (pmclog::is_text(f.id)) {
    out += name;
    out += "=\"";
    pmclog::append_escaped(out, r.text);
    out += '"';
    return true;
  }
  const uint64_t v = r[f.id];
  const uint32_t v32 = static_cast<uint32_t>(v);
  out += name;
  out += '=';
  switch (f.id) {
    case Field::pid:
    case Field::tid:
    case Field::oldpid:
    case Field::newpid:
      // pids are signed (-1 is the kernel in MAP_IN, format.md §7)
      append_sdec(out, static_cast<int32_t>(v32));
      break;
    case Field::pmcid:
      append_0x_padded(out, v32, 8);
      out += " (";
      append_pmcid_parts(out, v32, g);
      out += ')';
      break;
    case Field::cpuflags:
      // cpu << 16 | flags (format.md §9.1)
      append_0x_padded(out, v32, 8);
      out += " (cpu=";
      append_dec(out, v32 >> 16);
      out += (v32 & pmclog::kCallchainUserspace) ? " user" : " kernel";
      if (v32 & pmclog::kCallchainMultipart) out += " multipart";
      out += ')';
      break;
    case Field::flags:
      if (v32 != 0 &&
          (r.kind == pmclog::Kind::pmcallocate || r.kind == pmclog::Kind::pmcallocatedyn)) {
        const auto names = pmclog::pmc_flags_names(v32, g);
        fmt::format_to(out_it(out), "0x{:x} ({})", v32, names.empty() ? "none" : names);
      } else {
        fmt::format_to(out_it(out), "0x{:x}", v32);  // p_flag of THR_CREATE/PROC_CREATE
      }
      break;
    case Field::event: {
      fmt::format_to(out_it(out), "0x{:x}", v32);
      const pmclog::AllocationEvent e = st.allocation(r);
      if (!e.name.empty() || !e.label.empty()) {
        out += " (";
        pmclog::append_escaped(out, e.name.empty() ? std::string_view(e.label) : e.name);
        out += ')';
      }
      break;
    }
    case Field::version:
      version_text(out, v32);
      break;
    case Field::arch: {
      const auto n = pmclog::cputype_name(v32, g);
      if (n.empty()) fmt::format_to(out_it(out), "0x{:x}", v32);
      else fmt::format_to(out_it(out), "0x{:x} ({})", v32, n);
      break;
    }
    case Field::maptype:
      fmt::format_to(out_it(out), "{} ({})", v32,
                     v32 == 1 ? "insert" : v32 == 2 ? "delete" : "?");
      break;
    case Field::userdata:
      fmt::format_to(out_it(out), "0x{:x}", v32);
      break;
    case Field::start:
    case Field::end:
    case Field::entryaddr:
    case Field::dynaddr:
    case Field::pc:
      fmt::format_to(out_it(out), "0x{:x}", v);
      break;
    default:
      // counts and values: tsc_freq, init_ts_*, rate, value, usermode
      fmt::format_to(out_it(out), "{}", v);
      break;
  }
  return true;
}

}  // namespace dump
