// --format=pmcstat: the text FreeBSD's `pmcstat -R FILE -o OUT` prints (format.md §13),
// byte for byte for the generation: "%-9s " keywords ("%-8s " in L1), %p as 0x-hex,
// `unknown event (type N).` for types the era's pmcstat does not print.
//
// Deliberate differences, all on damaged or unusual input:
//  - On a parse error pmcstat prints `pmcstat: ERROR: event parsing failed (record N,
//    offset 0x…).` on stderr and exits 65 (EX_DATAERR). We print the same line on stderr,
//    then our own line naming the file, offset and reason, and exit 1 like every other mode.
//  - Strings holding control characters or invalid UTF-8 are escaped (pmclog/text.h), where
//    pmcstat would write the raw bytes; other strings are printed exactly.
//  - An event code missing from our table (pmclog/event_names.h) is printed as EVENT_0x<code>
//    with a note on stderr, where libpmc would know the name or fail the parse (format.md §12.1).
#include <fmt/format.h>

#include <set>

#include "fast_num.h"
#include "diagnostics.h"
#include "formatter.h"
#include "pmclog/event_names.h"
#include "pmclog/names.h"
#include "pmclog/text.h"

namespace dump {

namespace {

using pmclog::Field;
using pmclog::Kind;

// Printed as is, quotes and backslashes too (as pmcstat does), when there is nothing a
// terminal would act on: no control character, no invalid UTF-8, no C1 or bidi control.
bool plain(std::string_view s) {
  bool ascii = true;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7F) return false;
    ascii = ascii && c < 0x80;
  }
  return ascii || pmclog::terminal_safe(s) == s;  // non-ASCII text is rare in logs
}

void append_str(std::string& b, std::string_view s) {
  b += '"';
  if (plain(s)) b += s;
  else pmclog::append_escaped(b, s);
  b += '"';
}

// libpmc of the modern era reads PMCALLOCATEDYN's name at offset 32, where the writer put the
// rate; the name itself starts at 40 (format.md §11, §12.1). Up to 64 bytes (PMC_NAME_MAX), to NUL.
std::string_view modern_dyn_name(const pmclog::Record& r) {
  constexpr size_t kAt = 32, kMax = 64;
  if (r.raw.size() <= kAt) return {};
  const auto* p = reinterpret_cast<const char*>(r.raw.data()) + kAt;
  const size_t n = std::min(kMax, r.raw.size() - kAt);
  size_t len = 0;
  while (len < n && p[len] != '\0') ++len;
  return {p, len};
}

class PmcstatFormatter : public Formatter {
 public:
  void record(const pmclog::Record& r, const LogState& st, Output& out) override {
    std::string& b = out.buf;
    const auto g = st.abi.generation;
    auto it = std::back_inserter(b);
    auto u32 = [&](Field f) { return static_cast<uint32_t>(r[f]); };
    auto i32 = [&](Field f) { return static_cast<int32_t>(static_cast<uint32_t>(r[f])); };
    auto i64 = [&](Field f) { return static_cast<int64_t>(r[f]); };
    auto kw = [&](std::string_view k) {
      if (g == pmclog::Generation::L1) fmt::format_to(it, "{:<8} ", k);
      else fmt::format_to(it, "{:<9} ", k);
    };
    switch (r.kind) {
      case Kind::callchain: {
        kw("callchain");
        fmt::format_to(it, "{} 0x{:x} {} {} {}\n", i32(Field::pid), u32(Field::pmcid), r.cpu(),
                       r.pcs.size(), r.user_callchain() ? 'u' : 's');
        const char* dots = g == pmclog::Generation::L1 ? "...      " : "...       ";
        for (uint64_t pc : r.pcs) {
          b += dots;
          append_0x(b, pc);
          b += '\n';
        }
        break;
      }
      case Kind::closelog: kw("closelog"); b += '\n'; break;
      case Kind::dropnotify: kw("drop"); b += '\n'; break;
      case Kind::initialize: {
        kw("initlog");
        fmt::format_to(it, "0x{:x} ", u32(Field::version));
        const auto n = pmclog::cputype_name(u32(Field::arch), g);
        if (n.empty()) b += "\"(null)\"";  // printf("%s", NULL) on FreeBSD
        else append_str(b, n);
        b += '\n';
        break;
      }
      case Kind::mappingchange:
        kw("mapping");
        fmt::format_to(it, "{} {} 0x{:x} 0x{:x} ", u32(Field::maptype) == 1 ? "insert" : "delete",
                       i32(Field::pid), r[Field::start], r[Field::end]);
        append_str(b, r.text);
        b += '\n';
        break;
      case Kind::map_in:
        kw("map-in");
        fmt::format_to(it, "{} 0x{:x} ", i32(Field::pid), r[Field::start]);
        append_str(b, r.text);
        b += '\n';
        break;
      case Kind::map_out:
        kw("map-out");
        fmt::format_to(it, "{} 0x{:x} 0x{:x}\n", i32(Field::pid), r[Field::start], r[Field::end]);
        break;
      case Kind::pcsample:
        kw("sample");
        fmt::format_to(it, "0x{:x} {} 0x{:x} {}\n", u32(Field::pmcid), i32(Field::pid),
                       r[Field::pc], r[Field::usermode] ? 'u' : 's');
        break;
      case Kind::pmcallocate: {
        kw("allocate");
        const uint32_t ev = u32(Field::event);
        fmt::format_to(it, "0x{:x} ", u32(Field::pmcid));
        const pmclog::AllocationEvent e = st.allocation(r);
        if (!e.name.empty()) {
          append_str(b, e.name);
        } else if (e.pmu_index) {  // the note says what the number is
          append_str(b, e.label);
        } else {
          fmt::format_to(it, "\"EVENT_0x{:x}\"", ev);
          note_unknown(ev, st);
        }
        fmt::format_to(it, " 0x{:x}\n", u32(Field::flags));
        break;
      }
      case Kind::pmcallocatedyn:
        kw("allocatedyn");
        fmt::format_to(it, "0x{:x} ", u32(Field::pmcid));
        append_str(b, st.abi.legacy() ? r.text : modern_dyn_name(r));
        fmt::format_to(it, " 0x{:x}\n", u32(Field::flags));
        break;
      case Kind::pmcattach:
        kw("attach");
        fmt::format_to(it, "0x{:x} {} ", u32(Field::pmcid), i32(Field::pid));
        append_str(b, r.text);
        b += '\n';
        break;
      case Kind::pmcdetach:
        kw("detach");
        fmt::format_to(it, "0x{:x} {}\n", u32(Field::pmcid), i32(Field::pid));
        break;
      case Kind::proccsw:
        kw("cswval");
        fmt::format_to(it, "0x{:x} {} {}\n", u32(Field::pmcid), i32(Field::pid), i64(Field::value));
        break;
      case Kind::procexec:
        kw("exec");
        fmt::format_to(it, "0x{:x} {} 0x{:x} ", u32(Field::pmcid), i32(Field::pid),
                       r[Field::entryaddr]);
        if (r.has(Field::dynaddr)) fmt::format_to(it, "0x{:x} ", r[Field::dynaddr]);
        append_str(b, r.text);
        b += '\n';
        break;
      case Kind::procexit:
        kw("exitval");
        fmt::format_to(it, "0x{:x} {} {}\n", u32(Field::pmcid), i32(Field::pid), i64(Field::value));
        break;
      case Kind::procfork:
        kw("fork");
        fmt::format_to(it, "{} {}\n", i32(Field::oldpid), i32(Field::newpid));
        break;
      case Kind::sysexit:
        kw("exit");
        fmt::format_to(it, "{}\n", i32(Field::pid));
        break;
      case Kind::userdata:
        kw("userdata");
        fmt::format_to(it, "0x{:x}\n", u32(Field::userdata));
        break;
      case Kind::proc_create:
      case Kind::thr_create:
      case Kind::thr_exit:
        if (g == pmclog::Generation::M10) {
          print_thread_record(r, b);
          break;
        }
        [[fallthrough]];
      default:
        // L1's pmcstat printed "unknown %d" with no newline (format.md §13)
        if (g == pmclog::Generation::L1) fmt::format_to(it, "unknown {}", r.header.type);
        else fmt::format_to(it, "unknown event (type {}).\n", r.header.type);
        break;
    }
    out.maybe_flush();
  }

  void data_error(const pmclog::Error&, const LogState& st, Output&) override {
    if (reported_) return;  // pmcstat stops at the first error; --keep-going goes on
    reported_ = true;
    // N is the 1-based number of the failing record, the offset the end of the last good one.
    // pmcstat's own line, so without this tool's name.
    pmclog::tools::diag().line(fmt::format("pmcstat: ERROR: event parsing failed (record {}, offset 0x{:x}).",
                                           st.records_read + 1, st.end_of_last));
  }

  void begin(const LogState&, Output&) override {
    reported_ = false;
    noted_.clear();
  }

 private:
  static void print_thread_record(const pmclog::Record& r, std::string& b) {
    auto it = std::back_inserter(b);
    auto i32 = [&](Field f) { return static_cast<int32_t>(static_cast<uint32_t>(r[f])); };
    // p_flag is printed with %x, no 0x (format.md §13)
    if (r.kind == Kind::proc_create) {
      fmt::format_to(it, "{:<9} {} {:x} ", "create", i32(Field::pid), static_cast<uint32_t>(r[Field::flags]));
      append_str(b, r.text);
      b += '\n';
    } else if (r.kind == Kind::thr_create) {
      fmt::format_to(it, "{:<9} {} {} {:x} ", "thr-create", i32(Field::tid), i32(Field::pid),
                     static_cast<uint32_t>(r[Field::flags]));
      append_str(b, r.text);
      b += '\n';
    } else {
      fmt::format_to(it, "{:<9} {}\n", "thr-exit", i32(Field::tid));
    }
  }

  void note_unknown(uint32_t ev, const LogState& st) {
    if (!noted_.insert(ev).second) return;
    st.pending_notes.push_back(fmt::format(
        "{}: event code 0x{:x} (cputype 0x{:x}) is not in pmclog-dump's "
        "event table; printed as EVENT_0x{:x} (libpmc would name it or stop with an error)",
        pmclog::display_path(st.file), ev, st.cputype, ev));
  }

  bool reported_ = false;
  std::set<uint32_t> noted_;
};

}  // namespace

std::unique_ptr<Formatter> make_pmcstat_formatter() { return std::make_unique<PmcstatFormatter>(); }

}  // namespace dump
