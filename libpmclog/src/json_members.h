// The member names of the JSON Lines schema (docs/jsonl.md) and the small value helpers the
// reader needs: numbers written as JSON integers or "0x…"/decimal strings, hex byte strings.
// Internal to libpmclog (json_parse.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/layout.h"

namespace pmclog::json_detail {

// Members the reader knows: field values first (indexed by Field), then their _hex twins,
// then the record-level members.
enum Slot : int {
  kHexBase = kFieldCount,
  kType = 2 * kFieldCount,
  kTypeCode, kLength, kOffset, kGeneration, kTsSec, kTsNsec, kTsc, kTscHex, kCpu,
  kUnwritten, kPayloadHex, kAddressWidth, kByteOrder, kTimeWidth, kFile, kParts,
  kAddressSlot, kEventName,
  kSlotCount,
  kNoSlot = -1,
};
static_assert(kSlotCount <= 128, "SlotSet holds 128 bits");

// Member name -> slot, as a small open-addressing table: a line has a dozen members, and a
// general hash map's hashing and bucket division showed in profiles.
class SlotTable {
 public:
  SlotTable();
  int find(std::string_view k) const {
    for (uint32_t i = hash(k);; i = (i + 1) & kMask) {
      if (entries_[i].slot == kNoSlot) return kNoSlot;
      if (entries_[i].name == k) return entries_[i].slot;
    }
  }
  std::string_view name(int slot) const { return names_[static_cast<size_t>(slot)]; }
  // The known name closest to `k` (at most two edits away), or empty: for "did you mean".
  std::string_view nearest(std::string_view k) const;

 private:
  static constexpr uint32_t kMask = 255;  // 256 entries for about 75 names
  static uint32_t hash(std::string_view k) {
    uint32_t h = 2166136261u;
    for (char ch : k) h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
    return (h ^ (h >> 16)) & kMask;
  }
  void add(std::string name, int slot);
  struct Entry {
    std::string_view name;
    int slot = kNoSlot;
  };
  std::vector<std::string> names_;  // by slot; sized once, so the views stay valid
  std::array<Entry, kMask + 1> entries_{};
};
const SlotTable& slot_table();

// A number as written: JSON integer (signed or not) or a "0x…"/decimal string.
struct Num {
  bool present = false;
  bool negative = false;  // v holds the magnitude
  uint64_t v = 0;
};

enum class NumText { ok, not_a_number, too_wide };
NumText parse_num_string(std::string_view s, Num& out);

bool decode_hex(std::string_view s, std::string& out);

}  // namespace pmclog::json_detail
