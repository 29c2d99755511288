// Decoding one record from bytes. The readers (reader.h) build on this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pmclog/abi.h"
#include "pmclog/error.h"
#include "pmclog/record.h"

namespace pmclog {

enum class Step : uint8_t { record, end, error };

// Decodes the record starting at p, with `avail` bytes readable from p. `offset` is p's byte
// offset in the file (for the record and for error messages). On Step::error, `err` says why;
// a record whose type the generation does not define is an error (Errc::unknown_type) but
// `out.header` is filled and the record can be skipped by its length. Never reads outside
// [p, p + avail).
Step decode_record(const Abi& abi, const uint8_t* p, size_t avail, uint64_t offset,
                   Record& out, Error& err);

// Reads only the header word: the length a reader must have to decode the record, or 0 when
// fewer than 4 bytes are available.
uint16_t peek_length(const Abi& abi, const uint8_t* p, size_t avail);

// True when p looks like the start of a valid record of the ABI (magic, a type the
// generation defines, a length valid for that type that fits in avail, and a decodable
// body). Used to resynchronize after damage.
bool plausible_record(const Abi& abi, const uint8_t* p, size_t avail);

}  // namespace pmclog
