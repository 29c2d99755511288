// Writes a fixture's readable listing in the format of fixtures/golden/*.expected.txt.
#pragma once

#include <cstdint>
#include <string>

#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace codec_test {

// One `rec=N off= len= type=NAME(CODE) ...` line (with its newline), built from the value
// that was encoded, the type code and length docs/format.md gives it (format_rules.h) and the
// offset: nothing here comes from decoding.
std::string listing_line(const pmclog::Abi& abi, const pmclog::RecordValue& r, int rec_no,
                         uint64_t offset, uint32_t length);

}  // namespace codec_test
