// Stacks cut at a depth limit pile up at the deepest frame count; whole stacks thin out.
// The rule flags the first only at a usual limit, and only with a clear pile-up.
#include <gtest/gtest.h>

#include <map>

#include "depth_limit.h"

namespace {

using pmcprofile::DepthCounts;

// Samples per frame count.
DepthCounts counts(const std::map<size_t, uint64_t>& by_depth) {
  DepthCounts c;
  for (const auto& [frames, n] : by_depth)
    for (uint64_t i = 0; i < n; ++i) c.see(frames);
  return c;
}

// A recursion a few frames deep at most, each depth about as often.
std::map<size_t, uint64_t> spread(size_t from, size_t to, uint64_t each) {
  std::map<size_t, uint64_t> m;
  for (size_t k = from; k <= to; ++k) m[k] = each;
  return m;
}

TEST(DepthLimit, StacksPiledUpAtAUsualLimitAreFlagged) {
  auto m = spread(3, 31, 2);
  m[32] = 40;
  const auto d = counts(m).likely_limit();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->frames, 32u);
  EXPECT_EQ(d->samples, 40u);
  EXPECT_EQ(d->of, 29u * 2 + 40);
  for (size_t limit : {8u, 127u, 128u, 512u}) {
    auto n = spread(2, limit - 1, 1);
    n[limit] = 10;
    const auto e = counts(n).likely_limit();
    ASSERT_TRUE(e.has_value()) << limit;
    EXPECT_EQ(e->frames, limit);
  }
}

TEST(DepthLimit, StacksThatThinOutAreWhole) {
  // As deep as a limit, but no more often there than just below it.
  EXPECT_FALSE(counts(spread(3, 32, 5)).likely_limit().has_value());
  auto m = spread(3, 31, 10);
  m[32] = 19;  // under twice the depth below
  EXPECT_FALSE(counts(m).likely_limit().has_value());
  // Recursion in pairs: every other depth. Three below are looked at, not one.
  std::map<size_t, uint64_t> pairs{{26, 30}, {28, 30}, {30, 30}, {32, 40}};
  EXPECT_FALSE(counts(pairs).likely_limit().has_value());
}

TEST(DepthLimit, APileUpAtAnUnusualDepthIsAHotPathNotALimit) {
  // One hot leaf at the deepest point of a fixed call path: the common shape of a profile.
  EXPECT_FALSE(counts({{2, 3}, {4, 5}, {5, 900}}).likely_limit().has_value());
  EXPECT_FALSE(counts({{10, 3}, {28, 500}}).likely_limit().has_value());
  // Deeper than anything tracked.
  EXPECT_FALSE(counts({{3, 3}, {100000, 500}}).likely_limit().has_value());
}

TEST(DepthLimit, TooFewSamplesAtTheLimitSayNothing) {
  EXPECT_FALSE(counts({{3, 1}, {32, 4}}).likely_limit().has_value());
  EXPECT_TRUE(counts({{3, 1}, {32, 5}}).likely_limit().has_value());
  // Samples without frames count for nothing.
  EXPECT_FALSE(counts({{0, 100}}).likely_limit().has_value());
  EXPECT_FALSE(counts({{0, 100}, {1, 100}}).likely_limit().has_value());
  EXPECT_FALSE(DepthCounts().likely_limit().has_value());
}

TEST(DepthLimit, TheNoteNamesTheLogTheCountsAndTheCure) {
  const std::string n = pmcprofile::depth_limit_note("a.pmclog", {32, 40, 98});
  EXPECT_EQ(n.rfind("a.pmclog: 40 of 98 samples have 32 frames", 0), 0u) << n;
  EXPECT_NE(n.find("probably cut"), std::string::npos) << n;
  EXPECT_NE(n.find("kern.hwpmc.callchaindepth"), std::string::npos) << n;
  EXPECT_NE(n.find("pmclog-record --depth"), std::string::npos) << n;
}

}  // namespace
