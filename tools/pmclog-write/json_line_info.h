// Facts about one JSON line that pmclog::JsonRecord does not carry: which header times and
// fields were given (so that missing ones can be derived) and the ABI members a line may
// hold. Implemented in libpmclog/src/json_parse.cpp next to parse_json_record(); not in the
// public header yet (API gap reported in issue 5), so the definition is repeated there and
// must stay identical.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pmclog/json.h"

namespace pmclog {

struct JsonLineInfo {
  bool has_ts_sec = false, has_ts_nsec = false, has_tsc = false, has_length = false;
  bool has_offset = false;
  uint64_t present_scalars = 0;  // bit f set when scalar Field f was given (or derived)
  std::string generation;        // "generation" member, as written
  uint64_t address_width = 0;    // "address_width" member (0: absent)
  std::string byte_order;        // "byte_order" member
};
Result<JsonRecord> parse_json_record_info(std::string_view line, const Abi& abi,
                                          JsonLineInfo& info);

}  // namespace pmclog
