// pmclog::append_json: the JSON Lines form of one record (docs/jsonl.md). Members come from
// the record's Layout, so every record type is covered by one loop (no per-type code).
#include <charconv>
#include <string>

#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/layout.h"
#include "pmclog/parts.h"
#include "pmclog/text.h"

namespace pmclog {

namespace {

// Doubles hold integers exactly up to 2^53; above it the schema adds a "<name>_hex" member.
constexpr uint64_t kExactInDouble = uint64_t{1} << 53;

void append_u64(std::string& out, uint64_t v) {
  char b[24];
  const auto r = std::to_chars(b, b + sizeof b, v);
  out.append(b, r.ptr);
}

// "0x…" as a JSON string
void append_hex(std::string& out, uint64_t v) {
  char b[24] = {'"', '0', 'x'};
  auto r = std::to_chars(b + 3, b + sizeof b - 1, v, 16);
  *r.ptr++ = '"';
  out.append(b, r.ptr);
}

void key(std::string& out, std::string_view name, std::string_view suffix = {}) {
  out += ",\"";
  out += name;
  out += suffix;
  out += "\":";
}

// A 64-bit value: the number, and its hex form when a double would round it.
void wide_member(std::string& out, std::string_view name, uint64_t v) {
  key(out, name);
  append_u64(out, v);
  if (v > kExactInDouble) {
    key(out, name, "_hex");
    append_hex(out, v);
  }
}

void text_member(std::string& out, std::string_view name, std::string_view s) {
  key(out, name);
  append_json_string(out, s);
  if (!is_valid_utf8(s)) {  // the string above has U+FFFD; keep the exact bytes too
    key(out, name, "_hex");
    out += '"';
    out += hex_bytes(s);
    out += '"';
  }
}

void pcs_members(std::string& out, const Record& r) {
  key(out, "pcs");
  out += '[';
  for (uint32_t i = 0; i < r.pcs.size(); ++i) {
    if (i) out += ',';
    append_u64(out, r.pcs[i]);
  }
  out += ']';
  key(out, "pcs_hex");
  out += '[';
  for (uint32_t i = 0; i < r.pcs.size(); ++i) {
    if (i) out += ',';
    append_hex(out, r.pcs[i]);
  }
  out += ']';
  // derived from cpuflags (format.md §9.1), informational
  key(out, "cpu");
  append_u64(out, r.cpu());
  key(out, "usermode");
  append_u64(out, r.user_callchain() ? 1 : 0);
}

// Multipart callchains (format.md §17): "parts", derived from pcs and informational (the
// reader ignores it): each part's type, len (slots) and first slot, with IBS values by
// name, LBR from/to pairs, or the raw slots of an unknown type; a damaged header ends the
// list with {"error":MESSAGE}.
void parts_member(std::string& out, const Record& r, const Abi& abi) {
  const Parts ps = parts(r, abi);
  key(out, "parts");
  out += '[';
  bool first_part = true;
  for (const Part& p : ps.parts()) {
    if (!first_part) out += ',';
    first_part = false;
    out += "{\"type\":";
    const auto name = part_type_name(p.type);
    if (name.empty()) {
      append_u64(out, p.type);
    } else {
      out += '"';
      out += name;
      out += '"';
    }
    out += ",\"len\":";
    append_u64(out, p.len);
    out += ",\"first\":";
    append_u64(out, p.first);
    const uint32_t nv = ps.values(p);
    if (p.kind() == PartType::ibs_fetch || p.kind() == PartType::ibs_op) {
      for (uint32_t k = 0; k < nv; ++k) {
        const auto f = ibs_field_name(p.type, k);
        key(out, f.empty() ? "value" + std::to_string(k) : std::string(f));
        append_hex(out, ps.value(p, k));
      }
    } else if (p.kind() == PartType::lbr) {
      out += ",\"pairs\":[";
      for (uint32_t k = 0; k + 1 < nv; k += 2) {
        if (k) out += ',';
        out += '[';
        append_hex(out, ps.value(p, k));
        out += ',';
        append_hex(out, ps.value(p, k + 1));
        out += ']';
      }
      out += ']';
    } else if (!p.known()) {
      out += ",\"slots\":[";
      for (uint32_t k = 0; k < p.len; ++k) {
        if (k) out += ',';
        append_hex(out, ps.slot(p.first + k));
      }
      out += ']';
    }
    out += '}';
  }
  if (ps.error()) {
    if (!first_part) out += ',';
    out += "{\"error\":";
    append_json_string(out, ps.error().message);
    out += '}';
  }
  out += ']';
}

}  // namespace

void append_json(const Record& r, const Abi& abi, std::string& out) {
  out += "{\"offset\":";
  append_u64(out, r.offset);
  out += ",\"generation\":\"";
  out += generation_name(abi.generation);
  out += "\",\"type\":\"";
  out += kind_id(r.kind);
  out += '"';
  if (r.kind == Kind::initialize) {
    // The rest of the ABI, which the records cannot always show (byte order never), so that
    // the JSON Lines alone give the log back byte for byte.
    out += ",\"byte_order\":\"";
    out += byte_order_name(abi.byte_order);
    out += '"';
    key(out, "address_width");
    append_u64(out, abi.address_width);
    if (abi.narrow()) {  // only then: other logs' lines stay as they were
      key(out, "address_slot");
      append_u64(out, abi.slot_width());
    }
    if (!abi.legacy()) {
      key(out, "time_width");
      append_u64(out, abi.time_width);
    }
  }
  key(out, "type_code");
  append_u64(out, r.header.type);
  key(out, "length");
  append_u64(out, r.header.length);
  if (abi.legacy()) {
    key(out, "ts_sec");
    append_u64(out, r.header.ts_sec);
    key(out, "ts_nsec");
    append_u64(out, r.header.ts_nsec);
  } else {
    wide_member(out, "tsc", r.header.tsc);
  }

  if (!r.layout) {
    // Kind::unknown: the bytes after the header, as they are
    const size_t hs = abi.header_size();
    const auto* p = reinterpret_cast<const char*>(r.raw.data());
    key(out, "payload_hex");
    out += '"';
    if (r.raw.size() > hs) out += hex_bytes(std::string_view(p + hs, r.raw.size() - hs));
    out += '"';
  } else {
    for (const FieldSpec& f : *r.layout) {
      const std::string_view name = field_name(f.id);
      switch (f.type) {
        case FieldType::pad:
        case FieldType::unwritten:
          break;  // nonzero bytes there go to "unwritten" below
        case FieldType::u32:
        case FieldType::u8:
          key(out, name);
          append_u64(out, r[f.id]);
          break;
        case FieldType::u64_words:
        case FieldType::native:
        case FieldType::addr:
          wide_member(out, name, r[f.id]);
          break;
        case FieldType::chars:
        case FieldType::path:
          text_member(out, name, r.text);
          break;
        case FieldType::addrs:
          pcs_members(out, r);
          if (is_multipart(r)) parts_member(out, r, abi);
          break;
      }
    }
  }

  const auto patches = unwritten_bytes(r, abi);
  if (!patches.empty()) {
    key(out, "unwritten");
    out += '[';
    bool first = true;
    for (const auto& [at, bytes] : patches) {
      if (!first) out += ',';
      first = false;
      out += "{\"at\":";
      append_u64(out, at);
      out += ",\"hex\":\"";
      out += hex_bytes(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      out += "\"}";
    }
    out += ']';
  }
  out += '}';
}

}  // namespace pmclog
