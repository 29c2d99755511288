// Reading one JSON Lines record (docs/jsonl.md) back into a RecordValue plus the patches that
// restore stale bytes. simdjson's DOM parses the line (its parser picks the machine's SIMD
// kernels at run time; On-Demand in simdjson 3.0 is compiled for the build's baseline only,
// and measured slower here), one walk over the members fills a `Collected` (strings stay in
// the parser's buffer), and the record's layout then says which members it may have and how
// wide each value is. Strict: a member the schema does not know, or that the record does not
// have, is an error rather than a silent 0. On-Demand is used on the error path only, to give
// the column of a syntax error.
#include <bitset>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include "json_members.h"
#include "json_syntax.h"
#include "pmclog/json.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"

namespace pmclog {

namespace {

using namespace json_detail;

Error fail(Errc code, std::string msg) { return Error{code, 0, 0, std::move(msg)}; }
Error bad(std::string msg) { return fail(Errc::value_out_of_range, std::move(msg)); }

std::string label(std::string_view name) { return "field '" + std::string(name) + "'"; }

// Everything the pass collects; interpreted once the record's layout is known. Views point
// into the parser's string buffer, valid for this line.
struct Collected {
  std::bitset<kSlotCount> seen;
  std::array<Num, kSlotCount> num{};
  std::array<std::string_view, kSlotCount> str{};  // string members (text, _hex, type, ...)
  std::vector<Num> pcs, pcs_hex;
  struct Patch {
    Num at;
    std::string_view hex;
    bool has_hex = false;
  };
  std::vector<Patch> unwritten;
  void reset() {
    seen.reset();
    pcs.clear();
    pcs_hex.clear();
    unwritten.clear();
  }
};

bool is_numeric_slot(int s) {
  return s < kScalarFieldCount || (s >= kHexBase && s < kHexBase + kScalarFieldCount) ||
         s == kTypeCode || s == kLength || s == kOffset || s == kTsSec || s == kTsNsec ||
         s == kTsc || s == kTscHex || s == kCpu || s == kAddressWidth || s == kTimeWidth ||
         s == kAddressSlot;
}

std::string unknown_member(std::string_view k) {
  std::string msg = "unknown member '" + std::string(k) + "'";
  const std::string_view near = slot_table().nearest(k);
  if (!near.empty()) msg += " (did you mean '" + std::string(near) + "'?)";
  return msg + "; docs/jsonl.md lists the members";
}

// The same pass over simdjson's DOM: the parser dispatches at run time to the machine's SIMD
// kernels (On-Demand in simdjson 3.0 is compiled for the build's baseline only).
namespace dom = simdjson::dom;

const char* type_name(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY: return "an array";
    case dom::element_type::OBJECT: return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
    case dom::element_type::DOUBLE: return "a number";
    case dom::element_type::STRING: return "a string";
    case dom::element_type::BOOL: return "a boolean";
    case dom::element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

std::optional<Error> read_num(dom::element v, std::string_view name, Num& n) {
  switch (v.type()) {
    case dom::element_type::UINT64:
      n = Num{true, false, v.get_uint64().value_unsafe()};
      return std::nullopt;
    case dom::element_type::INT64: {
      const int64_t x = v.get_int64().value_unsafe();
      n = Num{true, x < 0, x < 0 ? static_cast<uint64_t>(-(x + 1)) + 1 : static_cast<uint64_t>(x)};
      return std::nullopt;
    }
    case dom::element_type::DOUBLE: {
      // The DOM keeps no token text: a whole number here was too wide for 64 bits.
      const double d = v.get_double().value_unsafe();
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      if (d == std::floor(d) && (d >= 0x1p64 || d < -0x1p63))
        return bad(label(name) + ": " + buf + " exceeds 64 bits");
      return bad(label(name) + ": " + buf + " is not an integer");
    }
    case dom::element_type::STRING: {
      const std::string_view s = v.get_string().value_unsafe();
      switch (parse_num_string(s, n)) {
        case NumText::ok: return std::nullopt;
        case NumText::too_wide: return bad(label(name) + ": \"" + std::string(s) + "\" exceeds 64 bits");
        case NumText::not_a_number: break;
      }
      return bad(label(name) + ": \"" + std::string(s) + "\" is not a number");
    }
    case dom::element_type::BOOL:
      // As null is: a typo or a value from another schema, never taken for 1 or 0.
      return bad(label(name) + ": " + (v.get_bool().value_unsafe() ? "true" : "false") +
                 " is not allowed here (a number is expected)");
    default: break;
  }
  return bad(label(name) + ": " + type_name(v.type()) + " is not allowed here (a number is expected)");
}

std::optional<Error> read_str(dom::element v, std::string_view name, std::string_view& s) {
  if (v.type() != dom::element_type::STRING)
    return bad(label(name) + ": " + type_name(v.type()) + " is not allowed here (a string is expected)");
  s = v.get_string().value_unsafe();
  return std::nullopt;
}

std::optional<Error> read_num_array(dom::element v, std::string_view name, std::vector<Num>& out) {
  if (v.type() != dom::element_type::ARRAY)
    return bad(label(name) + ": " + type_name(v.type()) + " is not allowed here (an array is expected)");
  const dom::array arr = v.get_array().value_unsafe();
  for (dom::element item : arr) {
    Num n;
    if (auto err = read_num(item, name, n)) {
      err->message.insert(label(name).size(), ": frame " + std::to_string(out.size()));
      return err;
    }
    out.push_back(n);
  }
  return std::nullopt;
}

std::optional<Error> read_unwritten(dom::element v, std::vector<Collected::Patch>& out) {
  if (v.type() != dom::element_type::ARRAY)
    return bad("field 'unwritten': not an array of {\"at\":N,\"hex\":\"…\"}");
  const dom::array arr = v.get_array().value_unsafe();
  for (dom::element item : arr) {
    if (item.type() != dom::element_type::OBJECT)
      return bad("field 'unwritten': an entry is not an object {\"at\":N,\"hex\":\"…\"}");
    Collected::Patch& p = out.emplace_back();
    const dom::object obj = item.get_object().value_unsafe();
    for (const dom::key_value_pair kv : obj) {
      if (kv.key == "at") {
        if (auto e = read_num(kv.value, "unwritten", p.at)) return e;
      } else if (kv.key == "hex") {
        if (auto e = read_str(kv.value, "unwritten", p.hex)) return e;
        p.has_hex = true;
      } else {
        return bad("field 'unwritten': unknown member '" + std::string(kv.key) +
                   "' in an entry (only \"at\" and \"hex\")");
      }
    }
  }
  return std::nullopt;
}

std::optional<Error> read_member(int slot, std::string_view key, dom::element v, Collected& c) {
  if (slot == static_cast<int>(Field::pcs)) return read_num_array(v, key, c.pcs);
  if (slot == kHexBase + static_cast<int>(Field::pcs)) return read_num_array(v, key, c.pcs_hex);
  if (slot == kUnwritten) return read_unwritten(v, c.unwritten);
  if (slot == kEventName) {  // informational (the pmu-events name pmclog-dump found): not read
    if (v.type() != dom::element_type::STRING && v.type() != dom::element_type::NULL_VALUE)
      return bad(label(key) + ": " + type_name(v.type()) + " is not allowed here (a string or null)");
    return std::nullopt;
  }
  if (slot == kParts) {  // informational (derived from pcs, docs/jsonl.md): not read
    if (v.type() != dom::element_type::ARRAY)
      return bad(label(key) + ": " + type_name(v.type()) + " is not allowed here (an array is expected)");
    return std::nullopt;
  }
  if (is_numeric_slot(slot)) return read_num(v, key, c.num[static_cast<size_t>(slot)]);
  return read_str(v, key, c.str[static_cast<size_t>(slot)]);
}

std::optional<Error> collect_dom(const simdjson::padded_string_view& text, Collected& c) {
  thread_local dom::parser parser;
  c.reset();
  dom::element doc;
  if (auto err = parser.parse(text.data(), text.length(), false).get(doc))
    return locate_json_error(err, text);
  if (doc.type() != dom::element_type::OBJECT)
    return bad(std::string("the line is not a JSON object (it holds ") + type_name(doc.type()) + ")");
  const SlotTable& table = slot_table();
  const dom::object obj = doc.get_object().value_unsafe();
  for (const dom::key_value_pair kv : obj) {
    const int slot = table.find(kv.key);
    if (slot == kNoSlot) return bad(unknown_member(kv.key));
    if (c.seen[static_cast<size_t>(slot)]) return bad(label(kv.key) + ": given twice");
    c.seen[static_cast<size_t>(slot)] = true;
    if (auto e = read_member(slot, kv.key, kv.value, c)) return e;
  }
  return std::nullopt;
}

// The padded view of `line`: as it is when the caller vouches for the padding, else a copy.
static_assert(kJsonPadding >= simdjson::SIMDJSON_PADDING);
simdjson::padded_string_view padded(std::string_view line, bool has_padding) {
  if (has_padding) return simdjson::padded_string_view(line.data(), line.size(), line.size() + kJsonPadding);
  thread_local std::string copy;
  copy.assign(line);
  copy.append(simdjson::SIMDJSON_PADDING, ' ');
  return simdjson::padded_string_view(copy.data(), line.size(), copy.size());
}

// The kind of a "type" member: the exact ids first (what the dump writes), then every
// spelling parse_kind() accepts.
std::optional<Kind> kind_by_id(std::string_view s) {
  static const auto ids = [] {
    std::unordered_map<std::string_view, Kind> m;
    for (int k = 0; k < kKindCount; ++k) m.emplace(kind_id(static_cast<Kind>(k)), static_cast<Kind>(k));
    return m;
  }();
  if (const auto it = ids.find(s); it != ids.end()) return it->second;
  return parse_kind(s);
}

// Two's complement of a negative value within `bits`, or the reason it does not fit.
std::optional<std::string> fit(const Num& n, unsigned bits, uint64_t& out) {
  const uint64_t max = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  if (n.negative) {
    const uint64_t lim = uint64_t{1} << (bits - 1);  // magnitude of the most negative value
    if (n.v > lim) return "-" + std::to_string(n.v) + " does not fit in " + std::to_string(bits) + " bits";
    out = (~n.v + 1) & max;
    return std::nullopt;
  }
  if (n.v > max) return std::to_string(n.v) + " does not fit in " + std::to_string(bits) + " bits";
  out = n.v;
  return std::nullopt;
}

// The value of a numeric member within `bits`; absent members give `dflt`.
std::optional<Error> take(const Num& n, unsigned bits, std::string_view name, uint64_t& out,
                          uint64_t dflt = 0) {
  if (!n.present) {
    out = dflt;
    return std::nullopt;
  }
  if (auto e = fit(n, bits, out)) return bad(label(name) + ": " + *e);
  return std::nullopt;
}

std::string record_name(const RecordValue& r) {
  if (r.kind == Kind::unknown) return "an unknown record";
  const std::string id(kind_id(r.kind));
  return (std::string("aeiou").find(id[0]) != std::string::npos ? "an " : "a ") + id + " record";
}

// Members that belong to some records only: each must be one the record has.
std::optional<Error> check_members(const Collected& c, const RecordValue& r, const Layout* layout,
                                   const Abi& abi) {
  std::bitset<kSlotCount> allowed;
  for (int s : {kType, kTypeCode, kLength, kOffset, kGeneration, kUnwritten, kAddressWidth,
                kByteOrder, kTimeWidth, kFile, kAddressSlot})
    allowed[static_cast<size_t>(s)] = true;
  if (abi.legacy()) {
    allowed[kTsSec] = allowed[kTsNsec] = true;
  } else {
    allowed[kTsc] = allowed[kTscHex] = true;
  }
  if (!layout) allowed[kPayloadHex] = true;
  if (layout) {
    for (const FieldSpec& fs : *layout) {
      if (fs.type == FieldType::pad || fs.type == FieldType::unwritten) continue;
      allowed[static_cast<size_t>(fs.id)] = true;
      allowed[static_cast<size_t>(kHexBase + static_cast<int>(fs.id))] = true;
    }
    if (r.kind == Kind::callchain) {  // informational members derived from cpuflags (format.md §9.1)
      allowed[kCpu] = true;
      allowed[static_cast<size_t>(Field::usermode)] = true;
      allowed[kParts] = true;  // multipart callchains (format.md §17), informational
    }
    if (r.kind == Kind::pmcallocate) allowed[kEventName] = true;  // informational
  }
  const std::bitset<kSlotCount> extra = c.seen & ~allowed;
  if (extra.none()) return std::nullopt;
  int s = 0;
  while (!extra[static_cast<size_t>(s)]) ++s;
  const std::string_view name = slot_table().name(s);
  if (s == kTsSec || s == kTsNsec || s == kTsc || s == kTscHex)
    return bad(label(name) + ": not a header member in generation " +
               std::string(generation_name(abi.generation)) +
               (abi.legacy() ? " (legacy headers have ts_sec and ts_nsec)" : " (modern headers have tsc)"));
  return bad(label(name) + ": " + record_name(r) + " has no such member in generation " +
             std::string(generation_name(abi.generation)));
}

// The length the kernel gives these contents (what encode() derives).
size_t natural_length(const RecordValue& r, const Layout* l, const Abi& abi) {
  if (!l) return abi.header_size() + r.payload.size();
  if (!l->variable) return l->fixed_size;
  if (l->ends_with_path())
    return (l->fixed_size + r.text.size() + 1 + 3) & ~size_t{3};
  return l->fixed_size + r.pcs.size() * l->addr_slot;
}

thread_local Collected t_collected;  // reused: its vectors keep their capacity

Result<JsonRecord> interpret(const Collected& c, const Abi& abi, JsonLineInfo& info);

Result<JsonRecord> parse(std::string_view line, bool has_padding, const Abi& abi,
                         JsonLineInfo& info) {
  Collected& c = t_collected;
  if (auto e = collect_dom(padded(line, has_padding), c)) return *e;
  return interpret(c, abi, info);
}

Result<JsonRecord> interpret(const Collected& c, const Abi& abi, JsonLineInfo& info) {
  const auto has = [&](int s) { return c.seen[static_cast<size_t>(s)]; };
  const auto num = [&](int s) -> const Num& { return c.num[static_cast<size_t>(s)]; };
  const auto str = [&](int s) { return c.str[static_cast<size_t>(s)]; };
  // <name>_hex holds the exact value and wins over <name> (docs/jsonl.md).
  const auto value_of = [&](int f) -> const Num& { return has(kHexBase + f) ? num(kHexBase + f) : num(f); };

  info = JsonLineInfo{};
  info.has_ts_sec = has(kTsSec);
  info.has_ts_nsec = has(kTsNsec);
  info.has_tsc = has(kTsc) || has(kTscHex);
  info.has_length = has(kLength);
  info.has_offset = has(kOffset);
  if (has(kGeneration)) info.generation = str(kGeneration);
  if (has(kByteOrder)) info.byte_order = str(kByteOrder);
  info.address_width = has(kAddressWidth) ? num(kAddressWidth).v : 0;
  info.time_width = has(kTimeWidth) ? num(kTimeWidth).v : 0;
  info.address_slot = has(kAddressSlot) ? num(kAddressSlot).v : 0;
  if (has(kFile)) {
    info.has_file = true;
    info.file = str(kFile);
  }
  for (int f = 0; f < kScalarFieldCount; ++f) {
    if (has(f) || has(kHexBase + f)) info.present_scalars |= uint64_t{1} << f;
  }

  JsonRecord out;
  RecordValue& r = out.value;

  // The kind: "type" names it; a bare "type_code" is read in the log's generation.
  uint64_t code = 0;
  if (auto e = take(num(kTypeCode), 8, "type_code", code)) return *e;
  const Layout* layout = nullptr;
  if (has(kType)) {
    const std::string_view type = str(kType);
    if (type == "unknown") {
      r.kind = Kind::unknown;
    } else if (auto k = kind_by_id(type)) {
      r.kind = *k;
    } else {
      return fail(Errc::unknown_type, "field 'type': unknown type \"" + std::string(type) + "\"");
    }
  } else if (has(kTypeCode)) {
    auto k = kind_of_type(abi.generation, static_cast<uint8_t>(code));
    r.kind = k ? *k : Kind::unknown;
  } else {
    return fail(Errc::unknown_type, "field 'type': missing (every record needs \"type\" or \"type_code\")");
  }
  if (r.kind == Kind::unknown) {
    if (!has(kTypeCode))
      return fail(Errc::unknown_type, "field 'type_code': missing (an unknown record needs it)");
    r.type = static_cast<uint8_t>(code);
    if (has(kPayloadHex)) {
      std::string bytes;
      if (!decode_hex(str(kPayloadHex), bytes))
        return bad("field 'payload_hex': not an even run of hex digits");
      r.payload.assign(bytes.begin(), bytes.end());
    }
  } else {
    layout = layout_for(abi, r.kind);
    if (!layout)
      return fail(Errc::unknown_type, "field 'type': " + std::string(kind_id(r.kind)) +
                                          " does not exist in generation " +
                                          std::string(generation_name(abi.generation)));
    if (has(kTypeCode) && code != layout->type)
      return fail(Errc::unknown_type,
                  "field 'type_code': " + std::to_string(code) + " is not the code of " +
                      std::string(kind_id(r.kind)) + " in generation " +
                      std::string(generation_name(abi.generation)) + " (" +
                      std::to_string(layout->type) + ")");
  }
  if (auto e = check_members(c, r, layout, abi)) return *e;

  uint64_t v = 0;
  if (abi.legacy()) {
    if (auto e = take(num(kTsSec), 32, "ts_sec", v)) return *e;
    r.ts_sec = static_cast<uint32_t>(v);
    if (auto e = take(num(kTsNsec), 32, "ts_nsec", v)) return *e;
    r.ts_nsec = static_cast<uint32_t>(v);
  } else {
    if (auto e = take(has(kTscHex) ? num(kTscHex) : num(kTsc), 64, has(kTscHex) ? "tsc_hex" : "tsc", r.tsc))
      return *e;
  }
  if (has(kOffset)) {
    if (auto e = take(num(kOffset), 64, "offset", out.offset)) return *e;
    out.has_offset = true;
  }

  if (layout) {
    for (const FieldSpec& fs : *layout) {
      const int f = static_cast<int>(fs.id);
      const std::string_view name = slot_table().name(has(kHexBase + f) ? kHexBase + f : f);
      switch (fs.type) {
        case FieldType::pad:
        case FieldType::unwritten:
          break;
        case FieldType::u32:
          if (fs.id == Field::cpuflags && !has(f) && !has(kHexBase + f)) {
            // CALLCHAIN: cpuflags = cpu << 16 | flags (format.md §9.1).
            uint64_t cpu = 0, user = 0;
            if (auto e = take(num(kCpu), 16, "cpu", cpu)) return *e;
            if (auto e = take(value_of(static_cast<int>(Field::usermode)), 1, "usermode", user))
              return *e;
            r[fs.id] = cpu << 16 | (user ? kCallchainUserspace : 0);
            break;
          }
          if (auto e = take(value_of(f), 32, name, r.v[static_cast<size_t>(f)])) return *e;
          break;
        case FieldType::u64_words:
          if (auto e = take(value_of(f), 64, name, r.v[static_cast<size_t>(f)])) return *e;
          break;
        case FieldType::u8:
          if (auto e = take(value_of(f), 8, name, r.v[static_cast<size_t>(f)])) return *e;
          break;
        case FieldType::native:
          if (auto e = take(value_of(f), fs.size * 8u, name, r.v[static_cast<size_t>(f)])) return *e;
          break;
        case FieldType::addr:
          if (auto e = take(value_of(f), abi.address_width * 8u, name, r.v[static_cast<size_t>(f)]))
            return *e;
          break;
        case FieldType::chars:
        case FieldType::path: {
          const std::string_view plain = field_name(fs.id);
          std::string& text = r.text;
          if (has(kHexBase + f)) {
            if (!decode_hex(str(kHexBase + f), text))
              return bad(label(name) + ": not an even run of hex digits");
          } else if (has(f)) {
            text.assign(str(f));
          } else if (fs.type == FieldType::path) {
            return bad(label(plain) + ": missing (" + record_name(r) + " needs it)");
          }
          if (text.find('\0') != std::string::npos)
            return bad(label(plain) + ": contains a NUL byte");
          const size_t cap = fs.type == FieldType::path ? kPathMax - 1 : fs.size;  // path: with its NUL
          if (text.size() > cap)
            return fail(Errc::string_too_long,
                        label(plain) + ": " + std::to_string(text.size()) + " bytes, more than the " +
                            std::to_string(cap) + " the field holds" +
                            (fs.type == FieldType::path ? " (PATH_MAX)" : ""));
          break;
        }
        case FieldType::addrs: {
          const bool hex = has(kHexBase + f);
          const auto& src = hex ? c.pcs_hex : c.pcs;
          if (!hex && !has(f)) return bad("field 'pcs': missing (" + record_name(r) + " needs it)");
          if (src.size() > abi.callchain_depth_max())
            return fail(Errc::callchain_too_deep,
                        "field 'pcs': " + std::to_string(src.size()) + " frames, more than the " +
                            std::to_string(abi.callchain_depth_max()) + " that generation " +
                            std::string(generation_name(abi.generation)) + " allows");
          r.pcs.resize(src.size());
          for (size_t i = 0; i < src.size(); ++i) {
            if (auto e = fit(src[i], abi.address_width * 8u, r.pcs[i]))
              return bad(label(hex ? "pcs_hex" : "pcs") + ": frame " + std::to_string(i) + ": " + *e);
          }
          break;
        }
      }
    }
  }

  // An explicit length is kept when the contents fit it (a longer path record keeps its
  // slack, so that odd logs come back exact); otherwise the line contradicts itself,
  // typically after a path or the frames were edited, and the message says how to fix it.
  // A CALLCHAIN has no slack: every slot after its header is a frame, so a longer length
  // would add zero frames or leave a part of a slot that no reader accepts.
  if (has(kLength)) {
    if (auto e = take(num(kLength), 16, "length", v)) return *e;
    if (v < abi.header_size() || v % 4 != 0 || v > kMaxRecordLength)
      return bad("field 'length': " + std::to_string(v) +
                 " is not a record length (a multiple of 4 from " + std::to_string(abi.header_size()) +
                 " to " + std::to_string(kMaxRecordLength) + ")");
    const size_t natural = natural_length(r, layout, abi);
    const bool slack_ok = !layout || layout->ends_with_path();
    if (v < natural || (v != natural && !slack_ok))
      return fail(Errc::length_wrong_size,
                  "field 'length': length " + std::to_string(v) + " does not match the contents (" +
                      std::to_string(natural) + " bytes); remove \"length\" to derive it");
    r.length = static_cast<uint16_t>(v);
  }

  out.patches.reserve(c.unwritten.size());
  std::string bytes;
  for (const auto& p : c.unwritten) {
    uint64_t at = 0;
    if (!p.at.present || !p.has_hex)
      return bad("field 'unwritten': an entry lacks 'at' or 'hex'");
    if (auto e = take(p.at, 16, "unwritten", at)) return *e;
    if (!decode_hex(p.hex, bytes))
      return bad("field 'unwritten': 'hex' is not an even run of hex digits");
    if (at + bytes.size() > kMaxRecordLength)
      return bad("field 'unwritten': bytes at " + std::to_string(at) + " run past the largest record");
    out.patches.emplace_back(static_cast<uint16_t>(at), std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  return out;
}

// The ABI members only; the record is not interpreted.
Result<JsonLineHead> peek(std::string_view line, bool has_padding) {
  Collected& c = t_collected;
  if (auto e = collect_dom(padded(line, has_padding), c)) return *e;
  const auto has = [&](int s) { return c.seen[static_cast<size_t>(s)]; };
  const auto num = [&](int s) { return c.num[static_cast<size_t>(s)].v; };
  JsonLineHead h;
  if (has(kType)) h.type = c.str[kType];
  if (has(kGeneration)) h.generation = c.str[kGeneration];
  if (has(kByteOrder)) h.byte_order = c.str[kByteOrder];
  if (has(kFile)) {
    h.has_file = true;
    h.file = c.str[kFile];
  }
  const int version = static_cast<int>(Field::version);
  if (has(version) || has(kHexBase + version)) {
    h.has_version = true;
    h.version = has(kHexBase + version) ? num(kHexBase + version) : num(version);
  }
  h.address_width = has(kAddressWidth) ? num(kAddressWidth) : 0;
  h.time_width = has(kTimeWidth) ? num(kTimeWidth) : 0;
  h.address_slot = has(kAddressSlot) ? num(kAddressSlot) : 0;
  h.has_length = has(kLength);
  h.length = has(kLength) ? num(kLength) : 0;
  return h;
}

}  // namespace

Result<JsonRecord> parse_json_record(std::string_view line, const Abi& abi) {
  JsonLineInfo info;
  return parse(line, false, abi, info);
}

Result<JsonRecord> parse_json_record_info(std::string_view line, const Abi& abi,
                                          JsonLineInfo& info) {
  return parse(line, false, abi, info);
}

Result<JsonRecord> parse_json_record_info(PaddedLine line, const Abi& abi, JsonLineInfo& info) {
  return parse(line.text, true, abi, info);
}

Result<JsonLineHead> peek_json_line(std::string_view line) { return peek(line, false); }
Result<JsonLineHead> peek_json_line(PaddedLine line) { return peek(line.text, true); }

}  // namespace pmclog
