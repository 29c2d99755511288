// Reads the `.expected.txt` listings (fixtures/golden/README.md describes the format) and
// compares a decoded record with one listed record.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/record.h"
#include "support/files.h"

namespace codec_test {

using pmclog_test::slurp;  // the fixtures and their listings are read whole
using pmclog_test::slurp_bytes;

struct ListedRecord {
  int line = 0;  // 1-based line in the listing, for messages
  int rec = -1;
  uint64_t off = 0;
  uint32_t len = 0;
  std::string type_name;
  int type_code = -1;
  std::optional<uint32_t> ts_sec, ts_nsec;
  std::optional<uint64_t> tsc;
  std::vector<std::pair<std::string, std::string>> fields;  // name, raw value (quotes removed)
};

struct Listing {
  std::vector<ListedRecord> records;
  std::optional<uint64_t> total_records, total_bytes;
  std::string error;  // non-empty when the listing could not be parsed
};

Listing parse_listing(const std::string& text);

// Every listed value against the record: offset, length, type name and code, header time
// and each field. The PMCALLOCATE evname (libpmc's table name, not in the record) is skipped.
::testing::AssertionResult matches_listing(const ListedRecord& want, const pmclog::Record& got,
                                           const pmclog::Abi& abi);

}  // namespace codec_test
