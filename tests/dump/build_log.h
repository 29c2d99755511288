// Building small logs with the library's encoder for tests that need records the fixtures
// do not have (format.md §13 examples, hostile strings).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmclog/encode.h"

namespace dumptest {

struct LogBuilder {
  pmclog::Abi abi;
  std::vector<uint8_t> bytes;
  uint32_t t = 0;

  explicit LogBuilder(pmclog::Abi a) : abi(a) {}

  pmclog::RecordValue& add(pmclog::Kind k) {
    values.emplace_back();
    values.back().kind = k;
    values.back().ts_sec = 1700000000 + t;
    values.back().ts_nsec = t;
    values.back().tsc = 1000 + t;
    ++t;
    return values.back();
  }
  // Encodes every added record; fails the test on an encoder error.
  std::string finish() {
    for (const auto& v : values) {
      auto r = pmclog::encode(v, abi, bytes);
      EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    }
    return std::string(bytes.begin(), bytes.end());
  }

 private:
  std::vector<pmclog::RecordValue> values;
};

}  // namespace dumptest
