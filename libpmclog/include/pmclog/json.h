// The JSON Lines form of a record (the dump tool's `jsonl` output, the write tool's input).
// Schema: docs/jsonl.md. Lossless: to_json() of a decoded record carries everything needed
// for from_json() + encode() + apply_patches() to give back the record's exact bytes.
//
// Threads: every function here may be called from several threads (parsers keep a
// per-thread state). Errors: parse_json_record() returns an Error naming the member at
// fault; append_json() never fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/encode.h"
#include "pmclog/error.h"
#include "pmclog/record.h"

namespace pmclog {

// Appends one JSON object (no newline) for the record to `out`. Always valid JSON, whatever
// bytes the record's strings hold. (libpmclog/src/json_emit.cpp)
void append_json(const Record& r, const Abi& abi, std::string& out);

// A record read back from one JSON line, with the patches that restore stale bytes.
struct JsonRecord {
  RecordValue value;
  std::vector<BytePatch> patches;
  uint64_t offset = 0;   // "offset" when given, else 0
  bool has_offset = false;
};

// What a line gave, beyond the record: which header times and fields were present (so that a
// writer can derive the missing ones, e.g. increasing timestamps) and the ABI members an
// INITIALIZE line carries.
struct JsonLineInfo {
  bool has_ts_sec = false, has_ts_nsec = false, has_tsc = false, has_length = false;
  bool has_offset = false;
  uint64_t present_scalars = 0;  // bit f set when scalar Field f was given (or derived)
  std::string generation;        // "generation" member, as written
  uint64_t address_width = 0;    // "address_width" member (0: absent)
  std::string byte_order;        // "byte_order" member
  uint64_t time_width = 0;       // "time_width" member (0: absent)
  uint64_t address_slot = 0;     // "address_slot" member (0: absent, as wide as an address)
  bool has_file = false;
  std::string file;              // "file" member (multi-file dumps), as written
};

// The parser (simdjson) reads up to this many bytes past the end of a line; a caller whose
// buffer has them readable (e.g. a line reader's) passes a PaddedLine and saves a copy.
inline constexpr size_t kJsonPadding = 64;
struct PaddedLine {
  std::string_view text;  // kJsonPadding readable bytes must follow text.end()
};

// Parses one line strictly: an unknown member, a member given twice, a member that the
// record type does not have, a missing required member, a value that does not fit its field
// and an explicit `length` that does not match the contents are errors. `abi` gives the
// widths used to range-check values; fields that can be derived may be missing (length, type
// code, timestamps, cpu/flags defaults, other numbers: 0). The message names the member and
// the reason ("field 'pid': 4294967296 does not fit in 32 bits"); `offset` in the Error is
// unused (callers add the line number). (libpmclog/src/json_parse.cpp)
Result<JsonRecord> parse_json_record(std::string_view line, const Abi& abi);
Result<JsonRecord> parse_json_record_info(std::string_view line, const Abi& abi,
                                          JsonLineInfo& info);
Result<JsonRecord> parse_json_record_info(PaddedLine line, const Abi& abi, JsonLineInfo& info);

// The members of a line that settle the ABI or select a file, read without knowing the ABI
// (so without interpreting the record). Absent members stay empty / 0.
struct JsonLineHead {
  std::string type, generation, byte_order, file;
  bool has_file = false, has_version = false, has_length = false;
  uint64_t version = 0, address_width = 0, time_width = 0, length = 0;
  uint64_t address_slot = 0;
};
Result<JsonLineHead> peek_json_line(std::string_view line);
Result<JsonLineHead> peek_json_line(PaddedLine line);

}  // namespace pmclog
