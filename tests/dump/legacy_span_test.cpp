// --stats' time span of a legacy log whose header nanoseconds wrap every 0.268 s
// (docs/format.md §3.5): from INITIALIZE's true time to the last record's, in text and JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>

#include "../common/wrapping_log.h"
#include "run_tool.h"

namespace dumptest {
namespace {

std::string seconds_text(uint64_t ns) {
  char b[64];
  std::snprintf(b, sizeof b, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000),
                static_cast<unsigned long long>(ns % 1000000000));
  return b;
}

class LegacySpan : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = wrapping_log::make();
    path_ = temp_dir() + "/wrapping.pmclog";
    write_file(path_, log_.bytes);
  }
  // The "time: A .. B (S s)" line, as it should read for the span [first, last].
  static std::string time_line(uint64_t first, uint64_t last) {
    char span[64];
    std::snprintf(span, sizeof span, "%.9f", static_cast<double>(last - first) / 1e9);
    return "time: " + seconds_text(first) + " .. " + seconds_text(last) + " (" + span + " s)\n";
  }
  wrapping_log::Log log_;
  std::string path_;
};

TEST_F(LegacySpan, TextSpanRunsFromInitializeToTheLastRecord) {
  const Ran r = run_dump({"--stats", path_});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(time_line(log_.start_ns, log_.sample_ns.back())), std::string::npos)
      << "want " << time_line(log_.start_ns, log_.sample_ns.back()) << r.out;
}

TEST_F(LegacySpan, JsonSpanRunsFromInitializeToTheLastRecord) {
  const Ran r = run_dump({"--stats", "--format=json", path_});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["time"]["first_ns"].get<uint64_t>(), log_.start_ns) << r.out;
  EXPECT_EQ(j["time"]["last_ns"].get<uint64_t>(), log_.sample_ns.back()) << r.out;
}

// The selected records' span, with every record's header still read to unwrap the clock.
TEST_F(LegacySpan, SelectedRecordsKeepTheirTrueTimes) {
  const Ran r = run_dump({"--stats", "--type", "callchain", path_});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(time_line(log_.sample_ns.front(), log_.sample_ns.back())),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace dumptest
