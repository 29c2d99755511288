// Multipart callchains (AMD IBS; format.md §17): when CALLCHAIN cpuflags carry
// PMC_CC_F_MULTIPART, the address slots begin with a part header of four {u8 type, u8 len}
// entries and the parts' payloads follow it. The decoder keeps the slots as they are
// (Record::pcs); parts() reads them on demand, so plain callchains pay nothing for this.
//
// The header is a C struct of bytes stored into the slot array, so its bytes are in the
// producer's memory order, while the codec reads a slot as an EMITADDR value (on 64-bit
// big-endian producers, two 32-bit words low word first). The translation between the two,
// and between a 64-bit payload value and the two slots it takes on 32-bit producers, lives
// in header_bytes / header_slots / join_u64 / split_u64 below and nowhere else.
//
// Memory: the parts returned view the Record's slots: they live as long as the Record's
// bytes. Errors: a damaged part header is Errc::multipart_damaged for that record only; the
// parts before the damage are still returned.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/error.h"
#include "pmclog/names.h"  // kCallchainMultipart, PMC_CC_F_MULTIPART
#include "pmclog/record.h"

namespace pmclog {

// Part types (the header's u8 type).
enum class PartType : uint8_t { none = 0, callchain = 1, ibs_fetch = 2, ibs_op = 3, lbr = 4 };
inline constexpr int kPartHeaderEntries = 4;
inline constexpr uint32_t kPartHeaderBytes = 8;

// "none" "callchain" "ibs_fetch" "ibs_op" "lbr"; empty for a type this codec does not know.
std::string_view part_type_name(uint8_t type);
// From a name above, or a decimal number 0..255.
bool parse_part_type(std::string_view s, uint8_t& type);

// Address slots per 64-bit value, and slots the 8-byte header takes: 1 on 64-bit producers,
// 2 on 32-bit ones.
constexpr uint32_t slots_per_u64(uint8_t width) { return width == 8 ? 1u : 2u; }

// --- The one place where slot values and the header's / payload's memory bytes meet ---
// The 8 header bytes (type0, len0, type1, len1, ...) from the first slots_per_u64 slots:
// each slot's value in the producer's memory order (inline: every multipart record needs it).
inline std::array<uint8_t, kPartHeaderBytes> header_bytes(ByteOrder o, uint8_t width,
                                                          const uint64_t* slots) {
  std::array<uint8_t, kPartHeaderBytes> b{};
  if (width == 8) {
    for (uint32_t k = 0; k < 8; ++k)
      b[k] = static_cast<uint8_t>(slots[0] >> (o == ByteOrder::little ? 8 * k : 56 - 8 * k));
  } else {
    for (uint32_t k = 0; k < 8; ++k)
      b[k] = static_cast<uint8_t>(slots[k / 4] >> (o == ByteOrder::little ? 8 * (k % 4) : 24 - 8 * (k % 4)));
  }
  return b;
}
// The inverse: the slot values that hold these header bytes.
void header_slots(ByteOrder o, uint8_t width, const std::array<uint8_t, kPartHeaderBytes>& bytes,
                  uint64_t* slots);
// A 64-bit payload value (an IBS MSR, an LBR address) from its slot(s): a native 64-bit
// store into the slot array, so on 32-bit producers the first slot is the low half on
// little-endian and the high half on big-endian.
inline uint64_t join_u64(ByteOrder o, uint8_t width, const uint64_t* slots) {
  if (width == 8) return slots[0];
  const uint64_t first = slots[0] & 0xFFFFFFFFu, second = slots[1] & 0xFFFFFFFFu;
  return o == ByteOrder::little ? first | second << 32 : first << 32 | second;
}
void split_u64(ByteOrder o, uint8_t width, uint64_t v, uint64_t* slots);

// IBS payload field names, in slot order (format.md §17): fetch CTL EXTCTL LINADDR
// PHYSADDR; op CTL RIP DATA DATA2 DATA3 DC_LINADDR DC_PHYSADDR and TGT_RIP (never written).
inline constexpr std::array<std::string_view, 4> kIbsFetchFields{"ctl", "extctl", "linaddr",
                                                                 "physaddr"};
inline constexpr std::array<std::string_view, 8> kIbsOpFields{
    "ctl", "rip", "data", "data2", "data3", "dc_linaddr", "dc_physaddr", "tgt_rip"};
inline constexpr uint32_t kIbsOpRip = 1;  // index of RIP among the op values
// Name of 64-bit value k of an IBS part ("ctl", ...), empty beyond the named fields or for
// another type.
std::string_view ibs_field_name(uint8_t type, uint32_t k);

// One part: its header entry and where its payload sits among the record's slots.
struct Part {
  uint8_t type = 0;
  uint8_t len = 0;     // in address slots, as in the header
  uint32_t first = 0;  // index of its first payload slot in Record::pcs
  PartType kind() const { return static_cast<PartType>(type); }
  bool known() const { return type >= 1 && type <= 4; }
};

// The parts of one CALLCHAIN, a view over its slots. Decoding is inline and allocates
// nothing: a consumer calls it for every multipart record.
class Parts {
 public:
  // The record's slots, or owned values (RecordValue::pcs).
  Parts(AddrView pcs, ByteOrder o, uint8_t width, uint64_t offset)
      : view_(pcs), n_(pcs.size()), order_(o), width_(width), offset_(offset) {
    decode();
  }
  Parts(std::span<const uint64_t> pcs, ByteOrder o, uint8_t width, uint64_t offset)
      : vals_(pcs.data()), n_(static_cast<uint32_t>(pcs.size())), order_(o), width_(width),
        offset_(offset) {
    decode();
  }

  std::span<const Part> parts() const { return {parts_.data(), count_}; }
  const Part* find(PartType t) const {
    for (uint32_t i = 0; i < count_; ++i)
      if (parts_[i].kind() == t) return &parts_[i];
    return nullptr;
  }
  const std::array<uint8_t, kPartHeaderBytes>& header() const { return header_; }
  uint32_t header_slots() const { return header_slots_; }
  // First slot after the last good part (slots up to size() after it are left over).
  uint32_t end() const { return end_; }
  uint32_t size() const { return n_; }
  // Header entries after the first NONE that are not all zero (a validator's concern).
  bool nonzero_after_none() const { return nonzero_after_none_; }
  // The header does not fit: fewer slots than the header, or a part running past the record.
  // The parts before the damaged one are still given.
  bool damaged() const { return damage_ != Damage::none; }
  // Errc::multipart_damaged with the record's offset and what does not fit (built on demand);
  // Errc::none when the header fits.
  Error error() const;

  uint64_t slot(uint32_t i) const { return vals_ ? vals_[i] : view_[i]; }
  // A part's slots as an AddrView (for_each / copy_to at the plain callchain's speed): for
  // parts of a decoded Record; empty for parts over owned values (use slot() there).
  AddrView slots(const Part& p) const { return vals_ ? AddrView() : view_.sub(p.first, p.len); }
  // 64-bit values of an IBS/LBR part (a trailing half value on 32-bit is not counted).
  uint32_t values(const Part& p) const { return p.len / slots_per_u64(width_); }
  uint64_t value(const Part& p, uint32_t k) const {
    const uint32_t per = slots_per_u64(width_);
    const uint64_t s[2] = {slot(p.first + k * per), per > 1 ? slot(p.first + k * per + 1) : 0};
    return join_u64(order_, width_, s);
  }
  uint8_t width() const { return width_; }
  ByteOrder byte_order() const { return order_; }

  // What slot i holds, for --explain: "part header ...", "ibs_op rip (low half)",
  // "callchain part, frame 2", "lbr pair 1 to", "part type 9, raw slot 0", "after the parts".
  std::string slot_label(uint32_t i) const;

 private:
  enum class Damage : uint8_t { none, header, part };
  void decode() {
    header_slots_ = slots_per_u64(width_);
    if (n_ < header_slots_) {
      header_slots_ = 0;
      damage_ = Damage::header;
      return;
    }
    const uint64_t hs[2] = {slot(0), header_slots_ > 1 ? slot(1) : 0};
    header_ = header_bytes(order_, width_, hs);
    uint32_t pos = header_slots_;
    int e = 0;
    for (; e < kPartHeaderEntries; ++e) {
      const uint8_t type = header_[2 * e], len = header_[2 * e + 1];
      if (type == 0) break;
      if (len > n_ - pos) {
        damage_ = Damage::part;
        bad_entry_ = static_cast<uint8_t>(e);
        break;
      }
      parts_[count_++] = Part{type, len, pos};
      pos += len;
    }
    end_ = pos;
    if (e < kPartHeaderEntries && header_[2 * e] == 0) {
      for (int k = 2 * e + 1; k < 2 * kPartHeaderEntries; ++k)
        if (header_[static_cast<size_t>(k)] != 0) nonzero_after_none_ = true;
    }
  }

  AddrView view_;
  const uint64_t* vals_ = nullptr;
  uint32_t n_ = 0;
  ByteOrder order_ = ByteOrder::little;
  uint8_t width_ = 8;
  Damage damage_ = Damage::none;
  uint8_t bad_entry_ = 0;
  bool nonzero_after_none_ = false;
  uint64_t offset_ = 0;
  std::array<uint8_t, kPartHeaderBytes> header_{};
  uint32_t header_slots_ = 0;
  uint32_t count_ = 0;
  uint32_t end_ = 0;
  std::array<Part, kPartHeaderEntries> parts_{};
};

// True for a CALLCHAIN whose cpuflags carry PMC_CC_F_MULTIPART.
inline bool is_multipart(const Record& r) {
  return r.kind == Kind::callchain && (r[Field::cpuflags] & kCallchainMultipart) != 0;
}
inline bool is_multipart(const RecordValue& r) {
  return r.kind == Kind::callchain && (r[Field::cpuflags] & kCallchainMultipart) != 0;
}
// The parts of a multipart CALLCHAIN (call only when is_multipart()).
inline Parts parts(const Record& r, const Abi& abi) {
  return Parts(r.pcs, abi.byte_order, abi.address_width, r.offset);
}
inline Parts parts(const RecordValue& r, const Abi& abi, uint64_t offset = 0) {
  return Parts(std::span<const uint64_t>(r.pcs), abi.byte_order, abi.address_width, offset);
}

// Builds the slots of a multipart callchain (for writers and tests): the header from the
// parts' types and lengths (at most 4 parts), then each part's slots. A part's `slots` are
// slot values: 64-bit values already split with split_u64 on 32-bit producers.
struct PartSpec {
  uint8_t type = 0;
  std::vector<uint64_t> slots;
};
std::vector<uint64_t> build_multipart(ByteOrder o, uint8_t width, std::span<const PartSpec> parts);

}  // namespace pmclog
