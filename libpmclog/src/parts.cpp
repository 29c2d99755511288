// Multipart callchains (parts.h, format.md §17).
#include "pmclog/parts.h"

#include <charconv>

namespace pmclog {

std::string_view part_type_name(uint8_t type) {
  switch (type) {
    case 0: return "none";
    case 1: return "callchain";
    case 2: return "ibs_fetch";
    case 3: return "ibs_op";
    case 4: return "lbr";
    default: return {};
  }
}

bool parse_part_type(std::string_view s, uint8_t& type) {
  for (unsigned t = 0; t <= 4; ++t) {
    if (s == part_type_name(static_cast<uint8_t>(t))) {
      type = static_cast<uint8_t>(t);
      return true;
    }
  }
  unsigned v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v > 255 || s.empty()) return false;
  type = static_cast<uint8_t>(v);
  return true;
}

// Slot value <-> bytes in memory order. A slot is what EMITADDR stored: a native value as
// wide as the address, so its memory bytes are the value's bytes in the producer's order.
void header_slots(ByteOrder o, uint8_t width, const std::array<uint8_t, kPartHeaderBytes>& bytes,
                  uint64_t* slots) {
  const uint32_t per = width == 8 ? 8 : 4;
  for (uint32_t s = 0; s < kPartHeaderBytes / per; ++s) slots[s] = 0;
  for (uint32_t i = 0; i < kPartHeaderBytes; ++i) {
    const uint32_t k = i % per;
    const uint32_t shift = o == ByteOrder::little ? 8 * k : 8 * (per - 1 - k);
    slots[i / per] |= uint64_t{bytes[i]} << shift;
  }
}

void split_u64(ByteOrder o, uint8_t width, uint64_t v, uint64_t* slots) {
  if (width == 8) {
    slots[0] = v;
    return;
  }
  const uint64_t lo = v & 0xFFFFFFFFu, hi = v >> 32;
  slots[0] = o == ByteOrder::little ? lo : hi;
  slots[1] = o == ByteOrder::little ? hi : lo;
}

std::string_view ibs_field_name(uint8_t type, uint32_t k) {
  if (type == static_cast<uint8_t>(PartType::ibs_fetch) && k < kIbsFetchFields.size())
    return kIbsFetchFields[k];
  if (type == static_cast<uint8_t>(PartType::ibs_op) && k < kIbsOpFields.size())
    return kIbsOpFields[k];
  return {};
}

namespace {
std::string type_text(uint8_t t) {
  const auto n = part_type_name(t);
  return n.empty() ? "type " + std::to_string(t) : std::string(n);
}
}  // namespace

Error Parts::error() const {
  Error e;
  if (damage_ == Damage::none) return e;
  e.code = Errc::multipart_damaged;
  e.offset = offset_;
  std::string what;
  if (damage_ == Damage::header) {
    what = "the part header needs " + std::to_string(slots_per_u64(width_)) + " address slot" +
           (width_ == 8 ? "" : "s") + ", the record has " + std::to_string(n_);
  } else {
    const uint8_t type = header_[2 * bad_entry_], len = header_[2 * bad_entry_ + 1];
    what = "part " + std::to_string(bad_entry_) + " (" + type_text(type) + ", " +
           std::to_string(len) + " slots from slot " + std::to_string(end_) +
           ") runs past the record's " + std::to_string(n_) + " slots";
  }
  e.message = "record at offset " + std::to_string(offset_) + ": multipart CALLCHAIN: " + what;
  return e;
}

std::string Parts::slot_label(uint32_t i) const {
  const bool two = width_ != 8;
  if (i < header_slots_) {
    // The entries this slot holds, as {type len} (the bytes in the producer's memory order).
    const int from = two ? 2 * static_cast<int>(i) : 0, to = two ? from + 2 : kPartHeaderEntries;
    std::string s = "part header";
    for (int e = from; e < to; ++e) {
      s += ' ';
      s += type_text(header_[2 * e]);
      s += '/';
      s += std::to_string(header_[2 * e + 1]);
    }
    return s;
  }
  for (uint32_t n = 0; n < count_; ++n) {
    const Part& p = parts_[n];
    if (i < p.first || i >= p.first + p.len) continue;
    const uint32_t k = i - p.first;
    const std::string name = type_text(p.type);
    if (p.kind() == PartType::callchain) return "callchain part, frame " + std::to_string(k);
    if (!p.known()) return "part " + name + ", raw slot " + std::to_string(k);
    const uint32_t per = slots_per_u64(width_);
    const uint32_t v = k / per;
    std::string half;
    if (two) {
      // The first slot of a native 64-bit value is its low half on little-endian.
      const bool first = k % 2 == 0;
      half = (first == (order_ == ByteOrder::little)) ? " (low half)" : " (high half)";
    }
    if (v >= values(p)) return name + " part, leftover slot " + std::to_string(k);
    if (p.kind() == PartType::lbr)
      return "lbr pair " + std::to_string(v / 2) + (v % 2 ? " to" : " from") + half;
    const auto f = ibs_field_name(p.type, v);
    return name + " " + (f.empty() ? "value " + std::to_string(v) : std::string(f)) + half;
  }
  if (damaged() && i >= end_) return "inside the damaged part";
  return "after the parts (not covered by the header)";
}

std::vector<uint64_t> build_multipart(ByteOrder o, uint8_t width, std::span<const PartSpec> parts) {
  const uint32_t hs = slots_per_u64(width);
  std::vector<uint64_t> out(hs);
  std::array<uint8_t, kPartHeaderBytes> h{};
  for (size_t n = 0; n < parts.size() && n < kPartHeaderEntries; ++n) {
    h[2 * n] = parts[n].type;
    h[2 * n + 1] = static_cast<uint8_t>(parts[n].slots.size());
    out.insert(out.end(), parts[n].slots.begin(), parts[n].slots.end());
  }
  header_slots(o, width, h, out.data());
  return out;
}

}  // namespace pmclog
