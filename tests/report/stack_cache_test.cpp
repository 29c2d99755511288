// The stack cache finds a stack only under the same key (process, thread, mode, event,
// command) and pcs; invalidate() empties it into a new epoch; growth keeps what it holds.
#include <gtest/gtest.h>

#include <vector>

#include "stack_cache.h"

namespace {

using pmcprofile::CachedStack;
using pmcprofile::FrameId;
using pmcprofile::StackCache;
using pmcprofile::StackKey;

struct Cache {
  StackCache c;
  // Finds the stack, or adds it with frames 100+pc.
  std::pair<bool, CachedStack> get(const StackKey& k, const std::vector<uint64_t>& pcs) {
    const uint64_t h = StackCache::hash(k.pid, k.tid, k.user, pcs.data(), pcs.size());
    CachedStack s;
    if (c.find(h, k, pcs.data(), pcs.size(), s)) return {true, s};
    std::vector<FrameId> frames;
    for (uint64_t pc : pcs) frames.push_back(static_cast<FrameId>(100 + pc));
    s.id = c.add(k, pcs.data(), pcs.size(), frames, pcs);
    return {false, s};
  }
};

TEST(StackCache, SameStackSameIdAndFrames) {
  Cache c;
  const StackKey k{10, 0, 1, 2, true};
  const std::vector<uint64_t> pcs{0x1000, 0x2000, 0x3000};
  const auto first = c.get(k, pcs);
  EXPECT_FALSE(first.first);
  const auto again = c.get(k, pcs);
  ASSERT_TRUE(again.first);
  EXPECT_EQ(again.second.id, first.second.id);
  ASSERT_EQ(again.second.frames.size(), 3u);
  EXPECT_EQ(again.second.frames[1], 100u + 0x2000);
  EXPECT_EQ(again.second.addresses[2], 0x3000u);
}

TEST(StackCache, AnyPartOfTheKeyMisses) {
  Cache c;
  const StackKey k{10, 7, 1, 2, true};
  const std::vector<uint64_t> pcs{0x1000, 0x2000};
  c.get(k, pcs);
  StackKey other = k;
  other.pid = 11;
  EXPECT_FALSE(c.get(other, pcs).first) << "pid";
  other = k;
  other.tid = 8;
  EXPECT_FALSE(c.get(other, pcs).first) << "tid";
  other = k;
  other.user = false;
  EXPECT_FALSE(c.get(other, pcs).first) << "mode";
  other = k;
  other.event = 3;
  EXPECT_FALSE(c.get(other, pcs).first) << "event";
  other = k;
  other.comm = 4;
  EXPECT_FALSE(c.get(other, pcs).first) << "comm";
  EXPECT_FALSE(c.get(k, {0x1000, 0x2001}).first) << "pcs";
  EXPECT_FALSE(c.get(k, {0x1000}).first) << "depth";
  EXPECT_TRUE(c.get(k, pcs).first);
}

TEST(StackCache, InvalidateStartsANewEpoch) {
  Cache c;
  const StackKey k{10, 0, 1, 2, false};
  const std::vector<uint64_t> pcs{0x1000};
  c.get(k, pcs);
  const uint64_t epoch = c.c.epoch();
  c.c.invalidate();
  EXPECT_NE(c.c.epoch(), epoch);
  const auto after = c.get(k, pcs);
  EXPECT_FALSE(after.first);
  EXPECT_EQ(after.second.id, 0u) << "ids restart";
}

TEST(StackCache, GrowthKeepsEntries) {
  Cache c;
  std::vector<uint32_t> ids;
  for (uint64_t i = 0; i < 5000; ++i) ids.push_back(c.get({1, 0, 0, 0, true}, {i, i * 3}).second.id);
  for (uint64_t i = 0; i < 5000; ++i) {
    const auto hit = c.get({1, 0, 0, 0, true}, {i, i * 3});
    ASSERT_TRUE(hit.first) << i;
    EXPECT_EQ(hit.second.id, ids[i]);
    EXPECT_EQ(hit.second.frames[1], 100 + i * 3);
  }
  EXPECT_FALSE(c.c.full());
}

// A stack's frame addresses are its pcs, or (when a filter left frames out) fewer: both
// kinds, mixed, come back as they were added.
TEST(StackCache, AddressesAsAdded) {
  StackCache c;
  const auto kept = [](uint64_t i) {  // every other stack keeps only its odd frames
    std::vector<uint64_t> pcs{0x1000 + i, 0x2000 + i, 0x3000 + i, 0x4000 + i};
    if (i % 2 == 0) return pcs;
    return std::vector<uint64_t>{pcs[1], pcs[3]};
  };
  for (int round = 0; round < 2; ++round)
    for (uint64_t i = 0; i < 300; ++i) {
      const std::vector<uint64_t> pcs{0x1000 + i, 0x2000 + i, 0x3000 + i, 0x4000 + i};
      const StackKey k{1, 0, 0, 0, true};
      const uint64_t h = StackCache::hash(k.pid, k.tid, k.user, pcs.data(), pcs.size());
      CachedStack s;
      const std::vector<uint64_t> want = kept(i);
      if (round == 0) {
        ASSERT_FALSE(c.find(h, k, pcs.data(), pcs.size(), s));
        const std::vector<FrameId> frames(want.size(), 7);
        c.add(k, pcs.data(), pcs.size(), frames, want);
        continue;
      }
      ASSERT_TRUE(c.find(h, k, pcs.data(), pcs.size(), s)) << i;
      ASSERT_EQ(s.frames.size(), want.size()) << i;
      EXPECT_EQ(std::vector<uint64_t>(s.addresses.begin(), s.addresses.end()), want) << i;
    }
}

}  // namespace
