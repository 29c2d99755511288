// The events table: perf names, FreeBSD aliases, raw codes, fallbacks.
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include "events_table.h"

using record::find_event;

TEST(RecordEvents, PerfNamesResolve) {
  auto e = find_event("cpu-clock");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
  EXPECT_EQ(e->config, static_cast<uint64_t>(PERF_COUNT_SW_CPU_CLOCK));
  EXPECT_FALSE(e->hardware);
  auto c = find_event("CYCLES");  // case-insensitive
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->hardware);
  EXPECT_EQ(c->config, static_cast<uint64_t>(PERF_COUNT_HW_CPU_CYCLES));
}

TEST(RecordEvents, FreeBsdAliasesMapToPerfEvents) {
  EXPECT_EQ(find_event("unhalted-cycles")->name, "cycles");
  EXPECT_EQ(find_event("branch-mispredicts")->name, "branch-misses");
  EXPECT_EQ(find_event("dc-misses")->name, "cache-misses");
  EXPECT_EQ(find_event("instructions")->name, "instructions");
  EXPECT_EQ(find_event("unhalted-reference-cycles")->name, "ref-cycles");
}

TEST(RecordEvents, RawCodes) {
  auto r = find_event("r00c0");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->type, static_cast<uint32_t>(PERF_TYPE_RAW));
  EXPECT_EQ(r->config, 0xc0u);
  EXPECT_TRUE(r->hardware);
  EXPECT_FALSE(find_event("rxyz"));
  EXPECT_FALSE(find_event("r"));
}

TEST(RecordEvents, UnknownNamesAreRejected) {
  EXPECT_FALSE(find_event("no-such-event"));
  EXPECT_FALSE(find_event(""));
}

TEST(RecordEvents, EveryHardwareEventHasASoftwareFallback) {
  for (const auto& e : record::known_events()) {
    if (!e.hardware) continue;
    auto fb = find_event(e.fallback);
    ASSERT_TRUE(fb) << e.name;
    EXPECT_FALSE(fb->hardware) << e.name;
  }
}

TEST(RecordEvents, SplitList) {
  EXPECT_EQ(record::split_list("a,,b,"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(record::split_list("").empty());
}
