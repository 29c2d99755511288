// Error messages of the decoder: each names the record's offset, the value and the bound.
// Kept out of line so that the decode loop stays small.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pmclog/abi.h"
#include "pmclog/error.h"
#include "pmclog/kind.h"

namespace pmclog::detail {

void fail_truncated_header(Error& e, uint64_t off, size_t avail);
void fail_bad_magic(Error& e, uint64_t off, uint32_t word);
void fail_length_below_header(Error& e, uint64_t off, uint16_t len, size_t header);
void fail_length_not_multiple(Error& e, uint64_t off, uint16_t len);
void fail_truncated(Error& e, uint64_t off, uint16_t len, size_t avail);
void fail_unknown_type(Error& e, uint64_t off, uint8_t type, Generation g);
void fail_fixed_size(Error& e, uint64_t off, uint16_t len, uint16_t size, Kind k);
void fail_below_minimum(Error& e, uint64_t off, uint16_t len, uint16_t min, Kind k);
void fail_unterminated(Error& e, uint64_t off, Kind k, uint16_t field_off, uint16_t len,
                       uint16_t spare = 0);
void fail_callchain_misaligned(Error& e, uint64_t off, size_t payload, int width, int value);
void fail_callchain_depth(Error& e, uint64_t off, uint32_t n, const Abi& abi);

std::string hex32(uint32_t v);  // "0x..." lowercase

}  // namespace pmclog::detail
