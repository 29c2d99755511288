// What Tables keeps for every output: event ids of one name merged once (a pmc sampled
// before its allocation record is named later, maybe like another id), and a function's
// name, file and line apart, with the one label outputs print.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "pmcprofile/profile.h"
#include "pmcprofile/views.h"

namespace {

using pmcprofile::DistinctEvents;
using pmcprofile::Function;
using pmcprofile::Tables;

TEST(DistinctEvents, IdsOfOneNameAreOneEventNamedByTheFirst) {
  Tables t;
  const uint32_t early = t.event("pmc-0x10");  // sampled before its allocation record
  const uint32_t clock = t.event("cpu-clock");
  const uint32_t instr = t.event("INSTR_RETIRED_ANY");
  t.rename_event(early, "cpu-clock");
  const DistinctEvents& d = t.distinct_events;
  EXPECT_EQ(d.first, (std::vector<uint32_t>{early, instr}));
  EXPECT_EQ(d.of[early], d.of[clock]);
  EXPECT_NE(d.of[early], d.of[instr]);
  // Name order ("INSTR..." before "cpu-clock": bytes compare).
  EXPECT_EQ(d.by_name, (std::vector<uint32_t>{d.of[instr], d.of[clock]}));
}

TEST(DistinctEvents, ARenameCanPartTwoIdsAgain) {
  Tables t;
  const uint32_t a = t.event("a");
  const uint32_t b = t.event("b");
  t.rename_event(b, "a");
  EXPECT_EQ(t.distinct_events.first.size(), 1u);
  t.rename_event(b, "c");
  EXPECT_EQ(t.distinct_events.first, (std::vector<uint32_t>{a, b}));
}

TEST(DistinctEvents, SamplesOfOneEventAddUp) {
  Tables t;
  const uint32_t a = t.event("pmc-0x1");
  t.event("cpu-clock");
  t.rename_event(a, "cpu-clock");
  pmcprofile::Profile p;
  p.event_samples = {3, 4};
  EXPECT_EQ(pmcprofile::event_samples(p, t, 1), 7u);
  EXPECT_EQ(pmcprofile::distinct_event_samples({&p, 1}, t), (std::vector<uint64_t>{7}));
}

// A sample's id says how many events it stands for: one id per rate of a name, all one
// distinct event; a rate not said takes the name's first id, which takes the first rate said.
TEST(DistinctEvents, EachRateOfANameHasItsIdUnderOneEvent) {
  Tables t;
  const uint32_t plain = t.event("cpu-clock");
  EXPECT_EQ(t.event("cpu-clock", 1000), plain) << "the first rate said goes to the first id";
  const uint32_t fast = t.event("cpu-clock", 4000);
  EXPECT_NE(fast, plain);
  EXPECT_EQ(t.event("cpu-clock", 4000), fast);
  EXPECT_EQ(t.event("cpu-clock", 1000), plain);
  EXPECT_EQ(t.event("cpu-clock"), plain);
  EXPECT_EQ(t.event_rates[plain], 1000u);
  EXPECT_EQ(t.event_rates[fast], 4000u);
  EXPECT_EQ(t.distinct_events.first, (std::vector<uint32_t>{plain}));
  EXPECT_EQ(t.distinct_events.of[fast], t.distinct_events.of[plain]);
  // A pmc named late with a rate joins the rate's id for later lookups.
  const uint32_t early = t.event("pmc-0x7");
  t.rename_event(early, "instructions", 500);
  EXPECT_EQ(t.event("instructions", 500), early);
  EXPECT_EQ(t.event_rates[early], 500u);
}

// The stack table's index against std::unordered_map: the same node for every key through
// growth, keys that differ only in their high half (a parent) or low half (a frame), roots.
TEST(NodeIndex, AgreesWithAMapThroughGrowth) {
  pmcprofile::NodeIndex index;
  std::unordered_map<uint64_t, uint32_t> ref;
  std::mt19937_64 rng(5);
  for (uint32_t i = 0; i < 200000; ++i) {
    const uint64_t parent = rng() % 5000, frame = rng() % 64;
    const uint64_t key = i % 7 == 0 ? (uint64_t{0xFFFFFFFFu} << 32 | (rng() % 100))
                                    : parent << 32 | frame;
    const auto fresh = static_cast<uint32_t>(ref.size());
    const auto [it, added] = ref.try_emplace(key, fresh);
    const auto [node, inserted] = index.try_emplace(key, fresh);
    ASSERT_EQ(node, it->second) << key;
    ASSERT_EQ(inserted, added) << key;
  }
  EXPECT_EQ(index.size(), ref.size());
  pmcprofile::NodeIndex reserved;
  reserved.reserve(1000);
  for (uint32_t k = 0; k < 1000; ++k) EXPECT_TRUE(reserved.try_emplace(k, k).second);
  for (uint32_t k = 0; k < 1000; ++k) EXPECT_EQ(reserved.try_emplace(k, 0).first, k);
}

TEST(FunctionLabel, TheFileBaseNameAndLineOnlyWithAFile) {
  Function f;
  f.name = "hot";
  EXPECT_EQ(pmcprofile::function_label(f), "hot");
  f.file = "/usr/src/lib/hot.c";
  f.line = 12;
  EXPECT_EQ(pmcprofile::function_label(f), "hot (hot.c:12)");
  f.file = "hot.c";
  EXPECT_EQ(pmcprofile::function_label(f), "hot (hot.c:12)");
}

}  // namespace
