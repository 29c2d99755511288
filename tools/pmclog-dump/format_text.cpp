// --format=text: one line per record: byte offset, type name, header time, then every field
// of the record's layout as name=value; CALLCHAIN frames indented below, marked user/kernel.
#include <fmt/format.h>

#include <algorithm>

#include "fast_num.h"
#include "field_text.h"
#include "formatter.h"
#include "pmclog/kind.h"

namespace dump {

namespace {

class TextFormatter : public Formatter {
 public:
  // The container's parts as lines before the records, marked by their "@OFFSET".
  void container(const pmclog::Container& c, const LogState&, Output& out) override {
    out.buf += pmclog::describe_container_header(c);
    out.buf += '\n';
    for (const auto& i : c.infos) {
      out.buf += pmclog::describe_container_info(i, c.byte_order);
      out.buf += '\n';
    }
  }
  void record(const pmclog::Record& r, const LogState& st, Output& out) override {
    std::string& b = out.buf;
    append_dec_right(b, r.offset, 10);
    b += ' ';
    const auto name = pmclog::kind_name(r.kind);
    b += name;
    if (name.size() < 14) b.append(14 - name.size(), ' ');
    if (st.abi.legacy()) {
      b += " ts=";
      append_dec(b, r.header.ts_sec);
      b += '.';
      append_dec_right(b, r.header.ts_nsec, 9);
      std::replace(b.end() - 9, b.end(), ' ', '0');  // nanoseconds zero-padded
    } else {
      b += " tsc=";
      append_dec(b, r.header.tsc);
      // seconds only when INITIALIZE gave a frequency (0 on non-x86, FORMAT.md §5)
      if (st.tsc_freq != 0) fmt::format_to(std::back_inserter(b), " ({}s)", tsc_seconds(r.header.tsc, st.tsc_freq));
    }
    if (r.layout) {
      for (const auto& f : *r.layout) {
        b += ' ';
        if (!append_field(b, r, f, st)) b.pop_back();
      }
    }
    b += '\n';
    if (r.kind == pmclog::Kind::callchain) {
      // A kernel-flagged record may hold user frames after the kernel ones (hwpmc's
      // PMC_F_USERCALLCHAIN), so each frame is labelled by its own address where addresses
      // tell: every 64-bit FreeBSD port keeps the kernel in the upper half. 32-bit splits
      // differ by port (i386's 4/4 split overlaps them), so there the record's flag decides.
      const bool user_record = r.user_callchain();
      const bool by_address = !user_record && st.abi.address_width == 8;
      uint32_t i = 0;
      for (uint64_t pc : r.pcs) {
        const bool user = user_record || (by_address && (pc >> 63) == 0);
        b.append(13, ' ');
        b += '[';
        append_dec(b, i++);
        b += "] ";
        append_0x(b, pc);
        b += ' ';
        b += user ? "user" : "kernel";
        b += '\n';
      }
    }
    out.maybe_flush();
  }
};

}  // namespace

std::unique_ptr<Formatter> make_text_formatter() { return std::make_unique<TextFormatter>(); }

}  // namespace dump
