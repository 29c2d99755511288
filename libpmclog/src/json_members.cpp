// The schema's member names and value helpers (json_members.h).
#include "json_members.h"

#include <algorithm>
#include <charconv>

namespace pmclog::json_detail {

SlotTable::SlotTable() : names_(kSlotCount) {
  for (int f = 0; f < kFieldCount; ++f) {
    add(std::string(field_name(static_cast<Field>(f))), f);
    add(std::string(field_name(static_cast<Field>(f))) + "_hex", kHexBase + f);
  }
  const std::pair<const char*, int> extra[] = {
      {"type", kType},          {"type_code", kTypeCode},      {"length", kLength},
      {"offset", kOffset},      {"generation", kGeneration},   {"ts_sec", kTsSec},
      {"ts_nsec", kTsNsec},     {"tsc", kTsc},                 {"tsc_hex", kTscHex},
      {"cpu", kCpu},            {"unwritten", kUnwritten},     {"payload_hex", kPayloadHex},
      {"address_width", kAddressWidth}, {"byte_order", kByteOrder},
      {"time_width", kTimeWidth}, {"file", kFile}, {"parts", kParts},
      {"address_slot", kAddressSlot}, {"event_name", kEventName}};
  for (const auto& [n, slot] : extra) add(n, slot);
}

void SlotTable::add(std::string name, int slot) {
  names_[static_cast<size_t>(slot)] = std::move(name);
  const std::string_view n = names_[static_cast<size_t>(slot)];
  uint32_t i = hash(n);
  while (entries_[i].slot != kNoSlot) i = (i + 1) & kMask;
  entries_[i] = {n, slot};
}

namespace {

// Levenshtein distance, stopping early: names are short and the table small.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view SlotTable::nearest(std::string_view k) const {
  std::string_view best;
  size_t best_d = 3;  // more than two edits is no longer a likely typo
  for (const std::string& n : names_) {
    const size_t d = edit_distance(k, n);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

const SlotTable& slot_table() {
  static const SlotTable table;
  return table;
}

NumText parse_num_string(std::string_view s, Num& out) {
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
  if (s.empty()) return NumText::not_a_number;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (p != s.data() + s.size()) return NumText::not_a_number;
  if (ec == std::errc::result_out_of_range) return NumText::too_wide;
  if (ec != std::errc()) return NumText::not_a_number;
  out.present = true;
  out.negative = neg && v != 0;
  out.v = v;
  return NumText::ok;
}

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

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

}  // namespace pmclog::json_detail
