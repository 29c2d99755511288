// The records of the committed fixture logs fixtures/<gen>-<32|64>-<le|be>.pmclog.
#pragma once

#include <vector>

#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace codec_test {

// INITIALIZE first, at least one record of every kind the generation's writer emits
// (format.md §6, §2.1: PCSAMPLE only in L1, MAPPINGCHANGE only in L1), CLOSELOG last.
// Values are realistic for the ABI (addresses fit its width). Deterministic.
std::vector<pmclog::RecordValue> fixture_records(const pmclog::Abi& abi);

}  // namespace codec_test
