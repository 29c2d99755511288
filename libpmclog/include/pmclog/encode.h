// Encoding records to exactly the bytes the FreeBSD kernel writer produces (format.md §3-§8):
// lengths rounded to 4, zeros where the kernel leaves stale bytes.
//
// Memory: encode() appends to a vector the caller owns and leaves it unchanged on error.
// Threads: every function here is reentrant (no shared state). Errors: a value that does
// not fit its field, a path above PATH_MAX or a chain deeper than the generation allows is
// an Error (value_out_of_range, string_too_long, callchain_too_deep), never a truncation.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/error.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/record.h"

namespace pmclog {

struct EncodeOptions {
  // Refuse callchains deeper than the generation allows and paths longer than PATH_MAX.
  // Off only for tools that make damaged logs on purpose.
  bool check_limits = true;
};

// The length the kernel would give the record (header included), or an error when a value
// does not fit.
Result<uint16_t> encoded_length(const RecordValue& r, const Abi& abi,
                                const EncodeOptions& opt = {});

// Appends the record's bytes to `out`; returns the record length. On error `out` is unchanged.
Result<uint16_t> encode(const RecordValue& r, const Abi& abi, std::vector<uint8_t>& out,
                        const EncodeOptions& opt = {});

// Bytes of a decoded record that re-encoding would not reproduce: stale bytes the kernel
// never wrote (padding after a path's NUL, the modern spare word, pad words) or anything else
// that differs. Each entry is (offset within the record, the record's bytes there). Applying
// them to encode(to_value(r)) gives r.raw back exactly.
using BytePatch = std::pair<uint16_t, std::vector<uint8_t>>;
std::vector<BytePatch> unwritten_bytes(const Record& r, const Abi& abi);
// Overwrites `record` (one encoded record) with the patches; false if one falls outside it.
bool apply_patches(std::span<uint8_t> record, const std::vector<BytePatch>& patches);

// The legacy header time as the kernel stores it: seconds truncated to 32 bits and
// nanoseconds masked to 28 bits (format.md §3.2).
inline std::pair<uint32_t, uint32_t> legacy_timestamp(uint64_t sec, uint64_t nsec) {
  return {static_cast<uint32_t>(sec), static_cast<uint32_t>(nsec & kLegacyNsecMask)};
}

}  // namespace pmclog
