// --explain: each record as its 32-bit words: the bytes in file order, the word's value in
// the log's byte order, and the field the word belongs to, from the record's Layout
// (format.md §3-§8). For learning the format and debugging a writer.
#include <fmt/format.h>

#include <functional>
#include <span>

#include "formatter.h"
#include "pmclog/container.h"
#include "pmclog/endian_io.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/parts.h"

namespace dump {

namespace {

using pmclog::FieldType;

// "low word"/"high word" of a 64-bit value stored as two 32-bit words: EMIT64 puts the low
// word first in every byte order; a native 64-bit store (header TSC, timespec) puts the high
// word first on big-endian (format.md §4).
const char* half(bool first_word, bool native64, pmclog::ByteOrder order) {
  const bool low_first = !native64 || order == pmclog::ByteOrder::little;
  return first_word == low_first ? "low word" : "high word";
}

std::string chars_of(const uint8_t* p) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += (p[i] >= 0x20 && p[i] < 0x7F) ? static_cast<char>(p[i]) : '.';
  return s;
}

std::string header_label(const pmclog::Record& r, const pmclog::Abi& abi, uint32_t o) {
  if (o == 0)
    return fmt::format("header: magic 0xee, type {}, length {}", r.header.type, r.header.length);
  if (abi.legacy()) return o == 4 ? "ts_sec" : "ts_nsec (28 bits)";
  if (o == 4) return "spare (unwritten by the kernel)";
  return fmt::format("tsc ({}, native 64-bit)", half(o == 8, true, abi.byte_order));
}

std::string field_label(const pmclog::Record& r, const pmclog::Abi& abi, uint32_t o) {
  if (o < abi.header_size()) return header_label(r, abi, o);
  if (!r.layout) return "payload";
  for (const auto& f : *r.layout) {
    const bool to_end = f.type == FieldType::path || f.type == FieldType::addrs;
    const uint32_t end = to_end ? static_cast<uint32_t>(r.raw.size()) : f.offset + f.size;
    if (o < f.offset || o >= end) continue;
    const auto name = pmclog::field_name(f.id);
    const bool first = o == f.offset;
    switch (f.type) {
      case FieldType::pad: return "pad (written as 0)";
      case FieldType::u8: return std::string(name) + " (its first byte; 3 pad bytes, written as 0)";
      case FieldType::unwritten: return "unwritten (stale buffer bytes)";
      case FieldType::u64_words: return fmt::format("{} ({})", name, half(first, false, abi.byte_order));
      case FieldType::native:
        return f.size == 4 ? std::string(name)
                           : fmt::format("{} ({})", name, half(first, true, abi.byte_order));
      case FieldType::addr:
        return f.size == 4 ? std::string(name)
                           : fmt::format("{} ({})", name, half(first, false, abi.byte_order));
      case FieldType::chars:
      case FieldType::path:
        return fmt::format("{}[{}..{}] \"{}\"", name, o - f.offset, o - f.offset + 3,
                           chars_of(r.raw.data() + o));
      case FieldType::addrs: {
        const uint32_t i = (o - f.offset) / f.size;
        // Narrow addresses (format.md §19): packed values, then the rest of their slots.
        if (i >= r.pcs.size()) return "unwritten (the rest of the frames' address slots, stale)";
        if (pmclog::is_multipart(r)) {  // format.md §17: header, then each part's slots
          const std::string what = pmclog::parts(r, abi).slot_label(i);
          if (f.size == 4) return fmt::format("{}[{}] {}", name, i, what);
          return fmt::format("{}[{}] {} ({})", name, i, what,
                             half((o - f.offset) % 8 == 0, false, abi.byte_order));
        }
        if (f.size == 4) return fmt::format("{}[{}]", name, i);
        return fmt::format("{}[{}] ({})", name, i, half((o - f.offset) % 8 == 0, false, abi.byte_order));
      }
      default: return std::string(name);
    }
  }
  return "beyond the layout's fields";
}

// The container's words (format.md §18): native structs, so values in its byte order; a
// u16 pair shares a word, and so do an info header's type, reserved byte and length.
void explain_words(std::string& b, std::span<const uint8_t> bytes, uint64_t base,
                   pmclog::ByteOrder o, const std::function<std::string(uint32_t)>& label) {
  auto it = std::back_inserter(b);
  for (uint32_t at = 0; at < bytes.size(); at += 4) {
    const uint8_t* p = bytes.data() + at;
    const size_t n = std::min<size_t>(4, bytes.size() - at);
    std::string hex;
    for (size_t i = 0; i < 4; ++i) hex += i < n ? fmt::format("{:02x} ", p[i]) : "   ";
    const std::string value = n == 4 ? fmt::format("0x{:08x}", pmclog::detail::load32(o, p))
                                     : std::string(10, ' ');
    fmt::format_to(it, "  +{:<5} {} {}  {}\n", at, hex.substr(0, 11), value, label(at));
    (void)base;
  }
}

std::string u16_pair(std::span<const uint8_t> b, uint32_t at, pmclog::ByteOrder o,
                     const char* first, const char* second) {
  return fmt::format("{} {}, {} {}", first, pmclog::detail::load16(o, b.data() + at), second,
                     pmclog::detail::load16(o, b.data() + at + 2));
}

class ExplainFormatter : public Formatter {
 public:
  void container(const pmclog::Container& c, const LogState&, Output& out) override {
    std::vector<uint8_t> bytes;
    pmclog::encode_container(c, bytes);  // the exact bytes parse_container read
    const pmclog::ByteOrder o = c.byte_order;
    std::string& b = out.buf;
    auto it = std::back_inserter(b);
    fmt::format_to(it, "@0 PMCL file header (8 bytes)\n");
    const std::span<const uint8_t> all(bytes);
    explain_words(b, all.first(8), 0, o, [&](uint32_t at) {
      return at == 0 ? std::string("magic 0x504d434c \"PMCL\" (native u32: sets the byte order)")
                     : u16_pair(all, 4, o, "version", "arch");
    });
    for (const auto& info : c.infos) {
      const auto name = pmclog::info_type_name(info.type);
      fmt::format_to(it, "@{} PMCL info {} (type {}, {} + {} bytes)\n", info.offset,
                     name ? *name : "unknown", info.type, pmclog::kInfoHeaderSize, info.payload.size());
      const auto part = all.subspan(info.offset, pmclog::kInfoHeaderSize + info.payload.size());
      explain_words(b, part, info.offset, o, [&](uint32_t at) -> std::string {
        if (at == 0)
          return fmt::format("type {}, reserved 0x{:02x}, length {} (u8, u8, u16)", part[0],
                             part[1], pmclog::detail::load16(o, part.data() + 2));
        if (at == 4) return "reserved (u32, uninitialised in the recorder)";
        const uint32_t p = at - 8;
        switch (static_cast<pmclog::InfoType>(info.type)) {
          case pmclog::InfoType::sysinfo:
            if (info.payload.size() == pmclog::kSysinfoSize)
              return fmt::format("{}[{}..{}]", pmclog::kSysinfoNames[p / 64], p % 64, p % 64 + 3);
            break;
          case pmclog::InfoType::pmcinfo:
            if (p < 8) return p == 0 ? "rate (native u64, first word)" : "rate (native u64, second word)";
            return fmt::format("event[{}..{}]", p - 8, p - 5);
          case pmclog::InfoType::cpuid: {
            static constexpr const char* kReg[] = {"eax", "ebx", "ecx", "edx"};
            return fmt::format("leaf[{}].{}", p / 16, kReg[(p % 16) / 4]);
          }
          default: break;
        }
        return "payload";
      });
    }
    out.maybe_flush();
  }

  void record(const pmclog::Record& r, const LogState& st, Output& out) override {
    std::string& b = out.buf;
    auto it = std::back_inserter(b);
    fmt::format_to(it, "@{} {} (type {}, {} bytes)\n", r.offset, pmclog::kind_name(r.kind),
                   r.header.type, r.raw.size());
    for (uint32_t o = 0; o + 4 <= r.raw.size(); o += 4) {
      const uint8_t* p = r.raw.data() + o;
      const uint32_t v = pmclog::detail::load32(st.abi.byte_order, p);
      fmt::format_to(it, "  +{:<5} {:02x} {:02x} {:02x} {:02x}  0x{:08x}  {}\n", o, p[0], p[1],
                     p[2], p[3], v, field_label(r, st.abi, o));
    }
    out.maybe_flush();
  }
};

}  // namespace

std::unique_ptr<Formatter> make_explain_formatter() { return std::make_unique<ExplainFormatter>(); }

}  // namespace dump
