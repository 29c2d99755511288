// Reading one JSON Lines record (docs/jsonl.md) back into a RecordValue plus the patches that
// restore stale bytes. Uses nlohmann's SAX interface: no DOM is built, so a line costs one
// pass over its characters (the write tool's jsonl speed target is 100 MB/s).
#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "pmclog/json.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"

namespace pmclog {

namespace {

using json = nlohmann::json;

// Members the parser knows. Field values first (indexed by Field), then their _hex twins,
// then the record-level members.
enum Slot : int {
  kHexBase = kFieldCount,
  kType = 2 * kFieldCount,
  kTypeCode, kLength, kOffset, kGeneration, kTsSec, kTsNsec, kTsc, kTscHex, kCpu,
  kUnwritten, kPayloadHex, kAddressWidth, kByteOrder, kTimeWidth,
  kSlotCount,
  kIgnored = -1,
};

// Member name -> slot, as a small open-addressing table: a line has a dozen members, and a
// general hash map's hashing and bucket division showed in profiles.
class SlotTable {
 public:
  SlotTable() {
    names_.reserve(128);  // owns the strings the views point into: never reallocated
    for (int f = 0; f < kFieldCount; ++f) {
      add(std::string(field_name(static_cast<Field>(f))), f);
      add(std::string(field_name(static_cast<Field>(f))) + "_hex", kHexBase + f);
    }
    const std::pair<const char*, int> extra[] = {
        {"type", kType},         {"type_code", kTypeCode},     {"length", kLength},
        {"offset", kOffset},     {"generation", kGeneration},  {"ts_sec", kTsSec},
        {"ts_nsec", kTsNsec},    {"tsc", kTsc},                {"tsc_hex", kTscHex},
        {"cpu", kCpu},           {"unwritten", kUnwritten},    {"payload_hex", kPayloadHex},
        {"address_width", kAddressWidth}, {"byte_order", kByteOrder},
        {"time_width", kTimeWidth}};
    for (const auto& [n, slot] : extra) add(n, slot);
  }
  int find(std::string_view k) const {
    for (uint32_t i = hash(k);; i = (i + 1) & kMask) {
      if (entries_[i].slot == kIgnored) return kIgnored;
      if (entries_[i].name == k) return entries_[i].slot;
    }
  }

 private:
  static constexpr uint32_t kMask = 255;  // 256 entries for about 75 names
  static uint32_t hash(std::string_view k) {
    uint32_t h = 2166136261u;
    for (char ch : k) h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
    return (h ^ (h >> 16)) & kMask;
  }
  void add(std::string name, int slot) {
    names_.push_back(std::move(name));
    const std::string_view n = names_.back();
    uint32_t i = hash(n);
    while (entries_[i].slot != kIgnored) i = (i + 1) & kMask;
    entries_[i] = {n, slot};
  }
  struct Entry {
    std::string_view name;
    int slot = kIgnored;
  };
  std::vector<std::string> names_;
  std::array<Entry, kMask + 1> entries_{};
};

const SlotTable& slot_table() {
  static const SlotTable table;
  return table;
}

// A number as written: JSON integer (signed or not) or a "0x…"/decimal string.
struct Num {
  bool present = false;
  bool negative = false;  // v holds the magnitude
  uint64_t v = 0;
};

bool parse_num_string(std::string_view s, Num& out) {
  bool neg = false;
  if (!s.empty() && s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return false;
  out.present = true;
  out.negative = neg && v != 0;
  out.v = v;
  return true;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool decode_hex(std::string_view s, std::string& out) {
  if (s.size() % 2) return false;
  out.clear();
  out.reserve(s.size() / 2);
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

Error fail(Errc code, std::string msg) { return Error{code, 0, 0, std::move(msg)}; }

std::string field_label(std::string_view name) { return "field '" + std::string(name) + "'"; }

// Everything the SAX pass collects; interpreted once the record's layout is known.
struct Collected {
  std::array<Num, kSlotCount> num{};
  std::array<bool, kFieldCount> text_present{};
  std::array<std::string, kFieldCount> text{};      // plain strings
  std::array<std::string, kFieldCount> text_hex{};  // _hex strings (exact bytes)
  std::array<bool, kFieldCount> text_hex_present{};
  std::string type, generation, byte_order, payload_hex;
  bool has_type = false, has_payload = false;
  std::vector<Num> pcs, pcs_hex;
  bool has_pcs = false, has_pcs_hex = false;
  struct Patch { Num at; std::string hex; bool has_hex = false; };
  std::vector<Patch> unwritten;
};

// The SAX handler. Depth 1 is the record object; arrays of pcs and the unwritten list are
// the only nesting the schema has; anything else nested is skipped.
class Sax {
 public:
  explicit Sax(Collected& c) : c_(c) {}
  std::string error;

  bool null() { return scalar_type_error("null"); }
  bool boolean(bool b) {
    // Informational "usermode": true/false is accepted as 1/0.
    Num n;
    n.present = true;
    n.v = b ? 1 : 0;
    return put_num(n, "a boolean");
  }
  bool number_integer(json::number_integer_t x) {
    Num n;
    n.present = true;
    n.negative = x < 0;
    n.v = x < 0 ? static_cast<uint64_t>(-(x + 1)) + 1 : static_cast<uint64_t>(x);
    return put_num(n, nullptr);
  }
  bool number_unsigned(json::number_unsigned_t x) {
    Num n;
    n.present = true;
    n.v = x;
    return put_num(n, nullptr);
  }
  bool number_float(json::number_float_t, const std::string& s) {
    if (skipping()) return true;
    if (slot_ == kIgnored && depth_ == 1) return true;
    return set_error(where() + ": " + s + " is not an integer (or is beyond 64 bits)");
  }
  bool string(std::string& s) {
    if (skipping()) return true;
    if (depth_ == 1) return top_string(s);
    if (depth_ == 2 && in_array_) {
      Num n;
      if (!parse_num_string(s, n))
        return set_error(where() + ": element \"" + s + "\" is not a number");
      return put_num(n, nullptr);
    }
    if (depth_ == 3 && in_patch_) {
      if (patch_key_ == "hex") {
        c_.unwritten.back().hex = std::move(s);
        c_.unwritten.back().has_hex = true;
        return true;
      }
      if (patch_key_ == "at") {
        Num n;
        if (!parse_num_string(s, n)) return set_error("field 'unwritten': bad 'at' value");
        c_.unwritten.back().at = n;
      }
      return true;
    }
    return true;
  }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) {
    ++depth_;
    if (depth_ == 1) return true;
    if (skipping()) return true;
    if (depth_ == 2 && slot_ == kIgnored) return begin_skip();
    if (depth_ == 3 && in_array_ && slot_ == kUnwritten) {
      c_.unwritten.emplace_back();
      in_patch_ = true;
      patch_key_.clear();
      return true;
    }
    if (depth_ == 2) return set_error(where() + ": an object is not allowed here");
    return begin_skip();
  }
  bool key(std::string& k) {
    if (skipping()) return true;
    if (depth_ == 1) {
      slot_ = slot_table().find(k);
      key_ = std::move(k);
    } else if (in_patch_) {
      patch_key_ = std::move(k);
    }
    return true;
  }
  bool end_object() {
    if (depth_ == skip_from_) skip_from_ = 0;
    if (depth_ == 3 && in_patch_) in_patch_ = false;
    --depth_;
    return true;
  }
  bool start_array(std::size_t) {
    ++depth_;
    if (skipping()) return true;
    if (depth_ == 1) return set_error("the line is an array, not a JSON object");
    if (depth_ == 2) {
      if (slot_ == static_cast<int>(Field::pcs)) {
        c_.has_pcs = true;
        c_.pcs.clear();
      } else if (slot_ == kHexBase + static_cast<int>(Field::pcs)) {
        c_.has_pcs_hex = true;
        c_.pcs_hex.clear();
      } else if (slot_ == kUnwritten) {
        c_.unwritten.clear();
      } else if (slot_ == kIgnored) {
        return begin_skip();
      } else {
        return set_error(where() + ": an array is not allowed here");
      }
      in_array_ = true;
      return true;
    }
    return begin_skip();
  }
  bool end_array() {
    if (depth_ == skip_from_) skip_from_ = 0;
    if (depth_ == 2) in_array_ = false;
    --depth_;
    return true;
  }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex) {
    if (error.empty()) {
      // nlohmann's message starts with "[json.exception.parse_error.101] parse error at…".
      std::string what = ex.what();
      const auto colon = what.find("error: ");
      what = colon == std::string::npos ? what : what.substr(colon + 7);
      error = "invalid JSON at column " + std::to_string(pos) + ": " + what;
    }
    return false;
  }

 private:
  bool skipping() const { return skip_from_ != 0 && depth_ >= skip_from_; }
  bool begin_skip() {
    skip_from_ = depth_;
    return true;
  }
  bool set_error(std::string e) {
    if (error.empty()) error = std::move(e);
    return false;
  }
  std::string where() const { return field_label(key_); }
  bool scalar_type_error(const char* what) {
    if (skipping() || (depth_ == 1 && slot_ == kIgnored)) return true;
    return set_error(where() + ": " + what + " is not allowed here");
  }

  bool put_num(const Num& n, const char* what) {
    if (skipping()) return true;
    if (depth_ == 1) {
      if (slot_ == kIgnored) return true;
      if (slot_ < kSlotCount && hex_seen_[slot_]) return true;  // the _hex twin wins
      if (slot_ < kScalarFieldCount || slot_ == kTypeCode || slot_ == kLength ||
          slot_ == kOffset || slot_ == kTsSec || slot_ == kTsNsec || slot_ == kTsc ||
          slot_ == kCpu || slot_ == kAddressWidth || slot_ == kTimeWidth) {
        c_.num[slot_] = n;
        return true;
      }
      if (what) return set_error(where() + ": " + what + " is not allowed here");
      return set_error(where() + ": a number is not allowed here");
    }
    if (depth_ == 2 && in_array_) {
      if (slot_ == static_cast<int>(Field::pcs)) {
        c_.pcs.push_back(n);
        return true;
      }
      if (slot_ == kHexBase + static_cast<int>(Field::pcs)) {
        c_.pcs_hex.push_back(n);
        return true;
      }
      return set_error(where() + ": a number is not allowed here");
    }
    if (depth_ == 3 && in_patch_ && patch_key_ == "at") c_.unwritten.back().at = n;
    return true;
  }

  bool top_string(std::string& s) {
    if (slot_ == kIgnored) return true;
    if (slot_ < kScalarFieldCount || slot_ == kTypeCode || slot_ == kLength ||
        slot_ == kOffset || slot_ == kTsSec || slot_ == kTsNsec || slot_ == kTsc ||
        slot_ == kCpu || slot_ == kAddressWidth || slot_ == kTimeWidth ||
        (slot_ >= kHexBase && slot_ < kHexBase + kScalarFieldCount) || slot_ == kTscHex) {
      Num n;
      if (!parse_num_string(s, n))
        return set_error(where() + ": \"" + s + "\" is not a number");
      // <name>_hex lands in the same place as <name>, and wins over it (docs/jsonl.md).
      int target = slot_;
      if (slot_ >= kHexBase && slot_ < kHexBase + kScalarFieldCount) target = slot_ - kHexBase;
      if (slot_ == kTscHex) target = kTsc;
      const bool hex = target != slot_;
      if (hex || !hex_seen_[target]) c_.num[target] = n;
      if (hex) hex_seen_[target] = true;
      return true;
    }
    if (slot_ < kFieldCount && is_text(static_cast<Field>(slot_))) {
      c_.text[slot_] = std::move(s);
      c_.text_present[slot_] = true;
      return true;
    }
    if (slot_ >= kHexBase && slot_ < kHexBase + kFieldCount) {
      const int f = slot_ - kHexBase;
      if (is_text(static_cast<Field>(f))) {
        c_.text_hex[f] = std::move(s);
        c_.text_hex_present[f] = true;
        return true;
      }
    }
    switch (slot_) {
      case kType: c_.type = std::move(s); c_.has_type = true; return true;
      case kGeneration: c_.generation = std::move(s); return true;
      case kByteOrder: c_.byte_order = std::move(s); return true;
      case kPayloadHex: c_.payload_hex = std::move(s); c_.has_payload = true; return true;
      default: break;
    }
    return set_error(where() + ": a string is not allowed here");
  }

  Collected& c_;
  int depth_ = 0;
  int skip_from_ = 0;  // depth at which an ignored nested value began (0: none)
  int slot_ = kIgnored;
  std::string key_;
  bool in_array_ = false, in_patch_ = false;
  std::string patch_key_;
  std::array<bool, kSlotCount> hex_seen_{};
};

// A lexer for the common shape of these lines (what pmclog-dump writes): plain strings
// without escapes or non-ASCII bytes, integers, arrays and small objects. It drives the same
// Sax handler as nlohmann's parser, so the meaning of a line cannot differ; anything else
// (escapes, floats, odd bytes, any syntax error) returns `unsupported`, and the line is then
// parsed by nlohmann (which also words the syntax errors). It exists for speed: nlohmann's
// lexer builds every token byte by byte and converts numbers with strtoull.
class FastLexer {
 public:
  enum Result { done, rejected, unsupported };
  FastLexer(std::string_view s, Sax& sax) : p_(s.data()), end_(s.data() + s.size()), sax_(sax) {}

  Result run() {
    ws();
    if (p_ == end_ || *p_ != '{') return unsupported;
    const Result r = object(0);
    if (r != done) return r;
    ws();
    return p_ == end_ ? done : unsupported;
  }

 private:
  void ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == '\n')) ++p_;
  }
  // A string without escapes or bytes outside printable ASCII, into tmp_.
  bool str() {
    ++p_;  // opening quote
    const char* b = p_;
    while (p_ != end_) {
      const unsigned char ch = static_cast<unsigned char>(*p_);
      if (ch == '"') break;
      if (ch == '\\' || ch < 0x20 || ch >= 0x80) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    tmp_.assign(b, p_);
    ++p_;
    return true;
  }
  Result value(int depth) {
    if (p_ == end_) return unsupported;
    const char ch = *p_;
    if (ch == '"') {
      if (!str()) return unsupported;
      return sax_.string(tmp_) ? done : rejected;
    }
    if (ch == '{') return object(depth + 1);
    if (ch == '[') return array(depth + 1);
    if (ch == '-' || (ch >= '0' && ch <= '9')) return number();
    return unsupported;  // true, false, null and the rest: nlohmann's turn
  }
  Result number() {
    const bool neg = *p_ == '-';
    if (neg) ++p_;
    const char* b = p_;
    uint64_t v = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      const uint64_t d = static_cast<uint64_t>(*p_ - '0');
      if (v > (UINT64_MAX - d) / 10) return unsupported;  // beyond 64 bits
      v = v * 10 + d;
      ++p_;
    }
    if (p_ == b || (p_ - b > 1 && *b == '0')) return unsupported;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return unsupported;
    if (!neg) return sax_.number_unsigned(v) ? done : rejected;
    if (v > (uint64_t{1} << 63)) return unsupported;
    const auto x = v == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(v);
    return sax_.number_integer(x) ? done : rejected;
  }
  // The members of an array or an object, after its opening bracket: item() reads one
  // (for an object, its key and value), a comma goes on, `close` ends them and end() tells
  // the handler.
  template <class Item, class End>
  Result members(char close, Item&& item, End&& end) {
    ws();
    if (p_ != end_ && *p_ == close) {
      ++p_;
      return end() ? done : rejected;
    }
    for (;;) {
      ws();
      const Result r = item();
      if (r != done) return r;
      ws();
      if (p_ == end_) return unsupported;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != close) return unsupported;
      ++p_;
      return end() ? done : rejected;
    }
  }
  Result array(int depth) {
    if (depth > 8) return unsupported;
    ++p_;
    if (!sax_.start_array(static_cast<std::size_t>(-1))) return rejected;
    return members(']', [&] { return value(depth); }, [&] { return sax_.end_array(); });
  }
  Result object(int depth) {
    if (depth > 8) return unsupported;
    ++p_;
    if (!sax_.start_object(static_cast<std::size_t>(-1))) return rejected;
    const auto member = [&]() -> Result {
      if (p_ == end_ || *p_ != '"' || !str()) return unsupported;
      if (!sax_.key(tmp_)) return rejected;
      ws();
      if (p_ == end_ || *p_ != ':') return unsupported;
      ++p_;
      ws();
      return value(depth);
    };
    return members('}', member, [&] { return sax_.end_object(); });
  }

  const char* p_;
  const char* end_;
  Sax& sax_;
  std::string tmp_;
};

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

// Two's complement of a negative value within `bits`, or an error message.
std::optional<std::string> fit(const Num& n, unsigned bits, uint64_t& out) {
  const uint64_t max = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  if (n.negative) {
    const uint64_t lim = uint64_t{1} << (bits - 1);  // magnitude of the most negative value
    if (n.v > lim)
      return "value -" + std::to_string(n.v) + " does not fit in " + std::to_string(bits) +
             " bits";
    out = (~n.v + 1) & max;
    return std::nullopt;
  }
  if (n.v > max)
    return "value " + std::to_string(n.v) + " does not fit in " + std::to_string(bits) +
           " bits";
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
  if (auto e = fit(n, bits, out)) return fail(Errc::value_out_of_range, field_label(name) + ": " + *e);
  return std::nullopt;
}

}  // namespace

Result<JsonRecord> parse_json_record(std::string_view line, const Abi& abi) {
  JsonLineInfo info;
  return parse_json_record_info(line, abi, info);
}

Result<JsonRecord> parse_json_record_info(std::string_view line, const Abi& abi,
                                          JsonLineInfo& info) {
  thread_local Collected c;  // reused: its strings and vectors keep their capacity
  auto reset = [] {
    c.num.fill(Num{});
    c.text_present.fill(false);
    c.text_hex_present.fill(false);
    c.has_type = c.has_payload = c.has_pcs = c.has_pcs_hex = false;
    c.generation.clear();
    c.byte_order.clear();
    c.unwritten.clear();
    c.pcs.clear();
    c.pcs_hex.clear();
  };
  reset();
  std::string sax_error;
  {
    Sax fast_sax(c);
    const auto r = FastLexer(line, fast_sax).run();
    if (r == FastLexer::rejected) sax_error = fast_sax.error;
    if (r == FastLexer::unsupported) {
      reset();
      Sax sax(c);
      const bool ok = json::sax_parse(line.begin(), line.end(), &sax,
                                      json::input_format_t::json, /*strict=*/true);
      if (!ok || !sax.error.empty()) sax_error = sax.error.empty() ? "invalid JSON" : sax.error;
    }
  }
  if (!sax_error.empty()) return fail(Errc::value_out_of_range, sax_error);

  info = JsonLineInfo{};
  info.has_ts_sec = c.num[kTsSec].present;
  info.has_ts_nsec = c.num[kTsNsec].present;
  info.has_tsc = c.num[kTsc].present;
  info.has_length = c.num[kLength].present;
  info.generation = c.generation;
  info.address_width = c.num[kAddressWidth].present ? c.num[kAddressWidth].v : 0;
  info.time_width = c.num[kTimeWidth].present ? c.num[kTimeWidth].v : 0;
  info.byte_order = c.byte_order;
  info.has_offset = c.num[kOffset].present;
  for (int f = 0; f < kScalarFieldCount; ++f) {
    if (c.num[f].present) info.present_scalars |= uint64_t{1} << f;
  }

  JsonRecord out;
  RecordValue& r = out.value;

  // The kind: "type" names it; a bare "type_code" is read in the log's generation.
  uint64_t code = 0;
  if (auto e = take(c.num[kTypeCode], 8, "type_code", code)) return *e;
  const Layout* layout = nullptr;
  if (c.has_type) {
    if (c.type == "unknown") {
      r.kind = Kind::unknown;
    } else if (auto k = kind_by_id(c.type)) {
      r.kind = *k;
    } else {
      return fail(Errc::unknown_type, "field 'type': unknown type \"" + c.type + "\"");
    }
  } else if (c.num[kTypeCode].present) {
    auto k = kind_of_type(abi.generation, static_cast<uint8_t>(code));
    r.kind = k ? *k : Kind::unknown;
  } else {
    return fail(Errc::unknown_type, "field 'type': missing");
  }
  if (r.kind == Kind::unknown) {
    if (!c.num[kTypeCode].present)
      return fail(Errc::unknown_type, "field 'type_code': missing (an unknown record needs it)");
    r.type = static_cast<uint8_t>(code);
    if (c.has_payload) {
      std::string bytes;
      if (!decode_hex(c.payload_hex, bytes))
        return fail(Errc::value_out_of_range, "field 'payload_hex': not an even run of hex digits");
      r.payload.assign(bytes.begin(), bytes.end());
    }
  } else {
    layout = layout_for(abi, r.kind);
    if (!layout)
      return fail(Errc::unknown_type, "field 'type': " + std::string(kind_id(r.kind)) +
                                          " does not exist in generation " +
                                          std::string(generation_name(abi.generation)));
    if (c.num[kTypeCode].present && code != layout->type)
      return fail(Errc::unknown_type,
                  "field 'type_code': " + std::to_string(code) + " is not the code of " +
                      std::string(kind_id(r.kind)) + " in generation " +
                      std::string(generation_name(abi.generation)) + " (" +
                      std::to_string(layout->type) + ")");
  }

  uint64_t v = 0;
  if (c.num[kLength].present) {
    if (auto e = take(c.num[kLength], 16, "length", v)) return *e;
    if (v < abi.header_size() || v % 4 != 0 || v > kMaxRecordLength)
      return fail(Errc::value_out_of_range,
                  "field 'length': " + std::to_string(v) +
                      " is not a record length (a multiple of 4 from " +
                      std::to_string(abi.header_size()) + " to " +
                      std::to_string(kMaxRecordLength) + ")");
    r.length = static_cast<uint16_t>(v);
  }
  if (abi.legacy()) {
    if (auto e = take(c.num[kTsSec], 32, "ts_sec", v)) return *e;
    r.ts_sec = static_cast<uint32_t>(v);
    if (auto e = take(c.num[kTsNsec], 32, "ts_nsec", v)) return *e;
    r.ts_nsec = static_cast<uint32_t>(v);
  } else {
    if (auto e = take(c.num[kTsc], 64, "tsc", r.tsc)) return *e;
  }
  if (c.num[kOffset].present) {
    if (auto e = take(c.num[kOffset], 64, "offset", out.offset)) return *e;
    out.has_offset = true;
  }

  if (layout) {
    for (const FieldSpec& fs : *layout) {
      const std::string_view name = field_name(fs.id);
      const int f = static_cast<int>(fs.id);
      switch (fs.type) {
        case FieldType::pad:
        case FieldType::unwritten:
          break;
        case FieldType::u32:
          if (fs.id == Field::cpuflags && !c.num[f].present) {
            // CALLCHAIN: cpuflags = cpu << 16 | flags (FORMAT.md §7.1).
            uint64_t cpu = 0, user = 0;
            if (auto e = take(c.num[kCpu], 16, "cpu", cpu)) return *e;
            if (auto e = take(c.num[static_cast<int>(Field::usermode)], 1, "usermode", user))
              return *e;
            r[fs.id] = cpu << 16 | (user ? kCallchainUserspace : 0);
            break;
          }
          if (auto e = take(c.num[f], 32, name, r.v[f])) return *e;
          break;
        case FieldType::u64_words:
          if (auto e = take(c.num[f], 64, name, r.v[f])) return *e;
          break;
        case FieldType::native:
          if (auto e = take(c.num[f], fs.size * 8u, name, r.v[f])) return *e;
          break;
        case FieldType::addr:
          if (auto e = take(c.num[f], abi.address_width * 8u, name, r.v[f])) return *e;
          break;
        case FieldType::chars:
        case FieldType::path: {
          std::string& text = r.text;
          if (c.text_hex_present[f]) {
            if (!decode_hex(c.text_hex[f], text))
              return fail(Errc::value_out_of_range,
                          field_label(std::string(name) + "_hex") + ": not an even run of hex digits");
          } else if (c.text_present[f]) {
            text = c.text[f];
          } else if (fs.type == FieldType::path) {
            return fail(Errc::value_out_of_range, field_label(name) + ": missing");
          }
          if (text.find('\0') != std::string::npos)
            return fail(Errc::value_out_of_range, field_label(name) + ": contains a NUL byte");
          const size_t cap = fs.type == FieldType::path ? kPathMax - 1 : fs.size;  // path: with its NUL
          if (text.size() > cap)
            return fail(Errc::string_too_long,
                        field_label(name) + ": " + std::to_string(text.size()) +
                            " bytes, more than the " + std::to_string(cap) + " the field holds" +
                            (fs.type == FieldType::path ? " (PATH_MAX)" : ""));
          break;
        }
        case FieldType::addrs: {
          const auto& src = c.has_pcs_hex ? c.pcs_hex : c.pcs;
          if (!c.has_pcs_hex && !c.has_pcs)
            return fail(Errc::value_out_of_range, "field 'pcs': missing");
          if (src.size() > abi.callchain_depth_max())
            return fail(Errc::callchain_too_deep,
                        "field 'pcs': " + std::to_string(src.size()) + " frames, more than the " +
                            std::to_string(abi.callchain_depth_max()) + " that generation " +
                            std::string(generation_name(abi.generation)) + " allows");
          r.pcs.resize(src.size());
          for (size_t i = 0; i < src.size(); ++i) {
            if (auto e = fit(src[i], abi.address_width * 8u, r.pcs[i]))
              return fail(Errc::value_out_of_range,
                          "field 'pcs': frame " + std::to_string(i) + ": " + *e);
          }
          break;
        }
      }
    }
  }

  out.patches.reserve(c.unwritten.size());
  for (const auto& p : c.unwritten) {
    uint64_t at = 0;
    if (!p.at.present || !p.has_hex)
      return fail(Errc::value_out_of_range, "field 'unwritten': an entry lacks 'at' or 'hex'");
    if (auto e = take(p.at, 16, "unwritten", at)) return *e;
    std::string bytes;
    if (!decode_hex(p.hex, bytes))
      return fail(Errc::value_out_of_range, "field 'unwritten': 'hex' is not an even run of hex digits");
    if (at + bytes.size() > kMaxRecordLength)
      return fail(Errc::value_out_of_range, "field 'unwritten': bytes at " + std::to_string(at) +
                                                " run past the largest record");
    out.patches.emplace_back(static_cast<uint16_t>(at),
                             std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  return out;
}

}  // namespace pmclog
