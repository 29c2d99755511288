// --format=text: one line per record: byte offset, type name, header time, then every field
// of the record's layout as name=value; CALLCHAIN frames indented below, marked user/kernel.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "fast_num.h"
#include "field_text.h"
#include "formatter.h"
#include "pmclog/kind.h"
#include "pmclog/parts.h"

namespace dump {

namespace {

// A multipart callchain (format.md §17): one line per part, IBS values by name, LBR from/to
// pairs, the raw slots of an unknown type; the CALLCHAIN part's frames as ordinary frames.
template <class Frame>
void multipart_lines(std::string& b, const pmclog::Parts& ps, Frame&& frame) {
  using pmclog::PartType;
  for (const pmclog::Part& p : ps.parts()) {
    b.append(13, ' ');
    const auto name = pmclog::part_type_name(p.type);
    if (name.empty()) {
      b += "part type=";
      append_dec(b, p.type);
    } else {
      b += "part ";
      b += name;
    }
    b += " len=";
    append_dec(b, p.len);
    const uint32_t nv = ps.values(p);
    if (p.kind() == PartType::ibs_fetch || p.kind() == PartType::ibs_op) {
      for (uint32_t k = 0; k < nv; ++k) {
        b += ' ';
        const auto f = pmclog::ibs_field_name(p.type, k);
        if (f.empty()) {
          b += "value";
          append_dec(b, k);
        } else {
          b += f;
        }
        b += '=';
        append_0x(b, ps.value(p, k));
      }
      b += '\n';
    } else if (p.kind() == PartType::lbr) {
      for (uint32_t k = 0; k + 1 < nv; k += 2) {
        b += ' ';
        append_0x(b, ps.value(p, k));
        b += "->";
        append_0x(b, ps.value(p, k + 1));
      }
      b += '\n';
    } else if (p.kind() == PartType::callchain) {
      b += '\n';
      for (uint32_t k = 0; k < p.len; ++k) frame(k, ps.slot(p.first + k));
    } else {
      b += " raw";
      for (uint32_t k = 0; k < p.len; ++k) {
        b += ' ';
        append_0x(b, ps.slot(p.first + k));
      }
      b += '\n';
    }
  }
  if (ps.end() < ps.size()) {  // slots no header entry covers (or inside the damaged part)
    b.append(13, ' ');
    b += ps.error() ? "slots from the damaged part on:" : "slots after the parts:";
    for (uint32_t i = ps.end(); i < ps.size(); ++i) {
      b += ' ';
      append_0x(b, ps.slot(i));
    }
    b += '\n';
  }
  if (ps.error()) {
    b.append(13, ' ');
    b += "parts damaged: ";
    b += ps.error().message;
    b += '\n';
  }
}

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
      // seconds only when INITIALIZE gave a frequency (0 on non-x86, format.md §8)
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
      // "             [i] 0xPC user\n", built in one buffer and appended once.
      auto frame = [&](uint32_t i, uint64_t pc) {
        const bool user = user_record || (by_address && (pc >> 63) == 0);
        char line[64];
        std::memcpy(line, "             [", 14);  // 13 spaces
        char* p = put_dec(line + 14, i);
        std::memcpy(p, "] 0x", 4);
        p = put_hex(p + 4, pc);
        const size_t n = user ? 6 : 8;
        std::memcpy(p, user ? " user\n" : " kernel\n", n);
        p += n;
        b.append(line, static_cast<size_t>(p - line));
      };
      if (pmclog::is_multipart(r)) {
        multipart_lines(b, pmclog::parts(r, st.abi), frame);
      } else {
        uint32_t i = 0;
        for (uint64_t pc : r.pcs) frame(i++, pc);
      }
    }
    out.maybe_flush();
  }
};

}  // namespace

std::unique_ptr<Formatter> make_text_formatter() { return std::make_unique<TextFormatter>(); }

}  // namespace dump
