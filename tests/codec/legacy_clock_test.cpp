// The legacy clock (docs/format.md §3.5): headers masked as the kernel masks them, unwrapped
// back to the true times they came from.
#include <gtest/gtest.h>

#include <vector>

#include "pmclog/encode.h"
#include "pmclog/legacy_clock.h"

namespace {

constexpr uint64_t kSecond = 1000000000;

// Feeds true times (ns since the epoch) through the writer's mask and the clock; returns
// what the clock says of each, as nanoseconds after the first.
std::vector<int64_t> unwrap(const std::vector<uint64_t>& truth, pmclog::LegacyClock& clock) {
  std::vector<int64_t> out;
  for (uint64_t t : truth) {
    const auto [sec, nsec] = pmclog::legacy_timestamp(t / kSecond, t % kSecond);
    out.push_back(clock.since_first(sec, nsec));
  }
  return out;
}

std::vector<int64_t> after_first(const std::vector<uint64_t>& truth) {
  std::vector<int64_t> out;
  for (uint64_t t : truth) out.push_back(static_cast<int64_t>(t - truth[0]));
  return out;
}

// A record every `step` ns for `span` ns, from `start`.
std::vector<uint64_t> every(uint64_t start, uint64_t step, uint64_t span) {
  std::vector<uint64_t> out;
  for (uint64_t t = start; t <= start + span; t += step) out.push_back(t);
  return out;
}

TEST(LegacyClock, DenseRecordsUnwrapToTheTrueTimes) {
  // The first record at every phase of its second: 0, 1, 2 or 3 wraps already.
  for (uint64_t phase : {uint64_t{1000}, uint64_t{300000000}, uint64_t{600000000},
                         uint64_t{990000000}}) {
    const std::vector<uint64_t> truth = every(1700000000 * kSecond + phase, 7000123, 3500000000);
    pmclog::LegacyClock clock;
    EXPECT_EQ(unwrap(truth, clock), after_first(truth)) << phase;
    EXPECT_EQ(clock.first_ns(), truth[0]) << phase;
  }
}

TEST(LegacyClock, SmallStepsBackStayBackAcrossAWrap) {
  // Per-CPU buffers of the last L3 kernels: a record 5 ms before the previous one, on
  // either side of a wrap (0.268435456 s).
  const uint64_t s = 1800000000 * kSecond;
  std::vector<uint64_t> truth;
  for (uint64_t t : every(s + 100000000, 10000000, 1600000000)) {
    truth.push_back(t);
    if (t == s + 270000000 || t == s + 1540000000) truth.push_back(t - 5000000);
  }
  pmclog::LegacyClock clock;
  EXPECT_EQ(unwrap(truth, clock), after_first(truth));
}

TEST(LegacyClock, WithinOneSecondTheFirstRecordIsTakenUnwrapped) {
  // Nothing tells the first second's wraps until the seconds change: times after the first
  // record are still right, and its own time is the earliest it can be.
  const uint64_t s = 1800000000 * kSecond;
  const std::vector<uint64_t> truth = every(s + 600000000, 10000000, 350000000);
  pmclog::LegacyClock clock;
  EXPECT_EQ(unwrap(truth, clock), after_first(truth));
  EXPECT_EQ(clock.first_ns(), s + 600000000 - 2 * pmclog::kLegacyNsecWrap);
}

TEST(LegacyClock, ASparseLogKeepsItsFirstRecordUnwrapped) {
  // A record a second, as in the golden seed log: nothing says the first second's wraps.
  const uint64_t s = 1700000000 * kSecond;
  const std::vector<uint64_t> truth = {s + 1, s + kSecond + 123456789, s + 2 * kSecond + 2};
  pmclog::LegacyClock clock;
  EXPECT_EQ(unwrap(truth, clock), after_first(truth));
  EXPECT_EQ(clock.first_ns(), s + 1);
}

TEST(LegacyClock, AGapLongerThanAWrapCannotBeSeen) {
  // The documented limit: 0.3 s without a record inside one second looks like 0.03 s.
  const uint64_t s = 1800000000 * kSecond;
  pmclog::LegacyClock clock;
  const auto got = unwrap({s + 10000000, s + 310000000}, clock);
  EXPECT_EQ(got[1], 300000000 - pmclog::kLegacyNsecWrap);
}

TEST(LegacyClock, AHeaderNoKernelMaskedIsNeverAStepWithinTheSecondBefore) {
  // A damaged log's nsec can be any 32 bits. sec:nsec 6:0x10 after 5:0xFFFFFFF0 is only
  // 0x20 apart as one 64-bit number, but it is another second: its wrap count is the one
  // nearest the record before, capped at the 3 that 0x10 allows, so 6 s + 0x10 + 3 wraps,
  // which is 5 s + 0xFFFFFFF0 - 2,489,660,896 ns.
  pmclog::LegacyClock clock;
  EXPECT_EQ(clock.since_first(5, 0xFFFFFFF0u), 0);
  EXPECT_EQ(clock.since_first(6, 0x10), -2489660896);
  // Before any record, no header is taken as a step from an earlier one.
  pmclog::LegacyClock fresh;
  EXPECT_EQ(fresh.since_first(0, 0xFFFFFFFFu), 0);
  EXPECT_TRUE(fresh.started());
  EXPECT_EQ(fresh.first_ns(), 0xFFFFFFFFu);
}

}  // namespace
