// The ABI of a log: which generation wrote it, how wide its addresses are, and its byte order.
// format.md §2 (generations), §4 (byte and word order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pmclog {

// L1/L2/L3: legacy 12-byte header. M9/M10: modern 16-byte header; M10 (PMC_VERSION major
// >= 0x0A) has the two-address PROCEXEC and pmc-id layout III, M9 the one-address PROCEXEC
// and layout II (format.md §2, §8, §9.3).
enum class Generation : uint8_t { L1, L2, L3, M9, M10 };
inline constexpr int kGenerationCount = 5;

enum class ByteOrder : uint8_t { little, big };

struct Abi {
  Generation generation = Generation::L3;
  uint8_t address_width = 8;  // 4 or 8 bytes per address (EMITADDR)
  ByteOrder byte_order = ByteOrder::little;
  // Width of time_t in the modern INITIALIZE timespec: 4 on i386 (104-byte record),
  // 8 everywhere else (112 bytes). tv_nsec is a `long`, as wide as an address, so 32-bit
  // producers with an 8-byte time_t have 4 bytes of stale padding after it. format.md §8.1.
  // Ignored by legacy generations.
  uint8_t time_width = 8;
  // Bytes each address takes in record lengths and field offsets (the kernel's uintfptr_t),
  // 0 meaning address_width. Only 8 with 4-byte addresses differs: powerpc64 kernels up to
  // at least 2018, and mips n64 in 9.x, size records for 8-byte addresses but write the low
  // 32 bits of each as one word, so the fields after it follow it directly and the record
  // ends with 4 bytes the kernel never writes per address (format.md §19).
  uint8_t address_slot = 0;

  // An ABI with the usual time_t for that address width (i386 for 4, LP64 for 8).
  static Abi make(Generation g, uint8_t width, ByteOrder order) {
    return Abi{g, width, order, width};
  }
  // 4-byte addresses in 8-byte slots on an LP64 producer (64-bit time_t and long).
  static Abi make_narrow(Generation g, ByteOrder order) { return Abi{g, 4, order, 8, 8}; }
  uint8_t slot_width() const { return address_slot ? address_slot : address_width; }
  // Addresses narrower than their slots (the powerpc64 writer/struct mismatch).
  bool narrow() const { return slot_width() > address_width; }
  // The producer's `long` (LP64 or ILP32): as wide as an address slot.
  uint8_t long_width() const { return slot_width(); }
  bool legacy() const { return generation <= Generation::L3; }
  size_t header_size() const { return legacy() ? 12 : 16; }
  // PMC_CALLCHAIN_DEPTH_MAX accepted for the generation (format.md §10, §15): L1 has no
  // callchains, L2 32, L3 128 (32 before 10.2, indistinguishable in the bytes), M 512.
  uint32_t callchain_depth_max() const;
  bool operator==(const Abi& o) const {
    return generation == o.generation && address_width == o.address_width &&
           byte_order == o.byte_order && time_width == o.time_width &&
           slot_width() == o.slot_width();
  }
};

std::string_view generation_name(Generation g);  // "L1" ... "M10"
// Accepts L1 L2 L3 M9 M10 (case-insensitive). "M" is not accepted here: callers that let
// the INITIALIZE version choose between M9 and M10 handle it themselves (see AbiHint).
std::optional<Generation> parse_generation(std::string_view s);
std::string_view byte_order_name(ByteOrder o);  // "little" / "big"
std::optional<ByteOrder> parse_byte_order(std::string_view s);  // little|le|big|be
// "L3, 64-bit addresses, little-endian"; "L3, 32-bit addresses in 64-bit slots, big-endian"
std::string describe(const Abi& abi);
// Whether the address value and slot widths are a combination some kernel writes:
// 4/4, 8/8 or 4 in 8.
bool valid_address_form(const Abi& abi);

// PMC_VERSION packing: major<<24 | minor<<16 | patch (format.md §2).
inline constexpr uint32_t version_major(uint32_t v) { return v >> 24; }

}  // namespace pmclog
