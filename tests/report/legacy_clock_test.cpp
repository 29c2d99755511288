// Legacy logs' times (docs/format.md §3.5): the headers keep nanoseconds modulo 2^28, so they
// wrap every 0.268 s. The report's time window, its sample times and perf-script's times
// follow the true clock of a log spanning many wraps.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>

#include "../common/wrapping_log.h"
#include "pmcprofile/session.h"
#include "report_support.h"

namespace {

class LegacyClock : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = wrapping_log::make();
    path_ = dir_.file("wrapping.pmclog");
    reptest::write_file(path_, log_.bytes);
  }
  // Sample times as the library gives them, with an optional window.
  std::vector<double> times(std::optional<double> from = {}, std::optional<double> to = {}) {
    pmcprofile::Options opt;
    opt.filter.from = from;
    opt.filter.to = to;
    pmcprofile::Session s(opt);
    std::vector<double> out;
    const auto rep = s.for_each_sample(path_, [&](const pmcprofile::Sample& smp) {
      out.push_back(smp.time);
    });
    EXPECT_TRUE(rep.error.empty()) << rep.error;
    return out;
  }

  reptest::ScratchDir dir_;
  wrapping_log::Log log_;
  std::string path_;
};

TEST_F(LegacyClock, SampleTimesAreTheTrueTimesAfterInitialize) {
  const std::vector<double> got = times();
  ASSERT_EQ(got.size(), log_.sample_ns.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], log_.seconds(i), 1e-9) << "sample " << i;
    if (i > 0) {
      ASSERT_GT(got[i], got[i - 1]) << "sample " << i;
    }
  }
}

TEST_F(LegacyClock, TimeWindowKeepsExactlyTheSamplesInside) {
  for (const auto& [from, to] : {std::pair{5.3, 5.9}, std::pair{0.2, 0.9}, std::pair{1.0, 3.0}}) {
    const size_t want = log_.between(from, to);
    ASSERT_GT(want, 0u);
    EXPECT_EQ(times(from, to).size(), want) << from << ".." << to;
    // The same through the command line.
    const auto r = reptest::run({REPORT_EXE, "--format", "folded", "--from", std::to_string(from),
                                 "--to", std::to_string(to), path_});
    ASSERT_EQ(r.status, 0) << r.err;
    uint64_t kept = 0;
    for (const auto& [stack, n] : reptest::parse_folded(r.out)) kept += n;
    EXPECT_EQ(kept, want) << from << ".." << to << "\n" << r.out;
  }
}

// "COMM PID/TID [CPU] SECS.USECS: EVENT: ": every sample's time, in order, to the microsecond.
TEST_F(LegacyClock, PerfScriptPrintsTheTrueTimes) {
  const auto r = reptest::run({REPORT_EXE, "--format", "perf-script", path_});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::vector<double> got;
  for (std::string line; std::getline(in, line);) {
    const size_t cpu = line.find("] ");
    if (line.empty() || line[0] == '\t' || cpu == std::string::npos) continue;
    got.push_back(std::strtod(line.c_str() + cpu + 2, nullptr));
  }
  ASSERT_EQ(got.size(), log_.sample_ns.size()) << r.out.substr(0, 2000);
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = std::floor(log_.seconds(i) * 1e6 + 0.5) / 1e6;
    ASSERT_NEAR(got[i], want, 0.5e-6) << "sample " << i;
  }
}

}  // namespace
