// The frame cache finds a frame only under the same process, address, mode and caller flag,
// keeps the last frame put in a slot, and forgets everything at once.
#include <gtest/gtest.h>

#include "frame_cache.h"

namespace {

using pmcprofile::FrameCache;

TEST(FrameCache, FoundOnlyUnderItsWholeKey) {
  FrameCache c;
  EXPECT_EQ(c.find(10, 0x401000, false, true), FrameCache::kMiss);
  c.put(10, 0x401000, false, true, 7);
  EXPECT_EQ(c.find(10, 0x401000, false, true), 7u);
  EXPECT_EQ(c.find(11, 0x401000, false, true), FrameCache::kMiss);   // another process
  EXPECT_EQ(c.find(10, 0x401001, false, true), FrameCache::kMiss);   // another address
  EXPECT_EQ(c.find(10, 0x401000, true, true), FrameCache::kMiss);    // kernel mode
  EXPECT_EQ(c.find(10, 0x401000, false, false), FrameCache::kMiss);  // the interrupted pc
  // Address 0 in process 0 is a key like any other, not an empty slot.
  EXPECT_EQ(c.find(0, 0, false, false), FrameCache::kMiss);
  c.put(0, 0, false, false, 3);
  EXPECT_EQ(c.find(0, 0, false, false), 3u);
}

TEST(FrameCache, ForgetDropsEveryFrame) {
  FrameCache c;
  for (uint64_t a = 0; a < 1000; ++a) c.put(5, 0x400000 + 16 * a, false, a % 2 == 1, 100 + a);
  size_t kept = 0;
  for (uint64_t a = 0; a < 1000; ++a)
    kept += c.find(5, 0x400000 + 16 * a, false, a % 2 == 1) == 100 + a;
  EXPECT_GT(kept, 900u);  // a direct-mapped table: a few slots shared
  c.forget();
  for (uint64_t a = 0; a < 1000; ++a)
    EXPECT_EQ(c.find(5, 0x400000 + 16 * a, false, a % 2 == 1), FrameCache::kMiss) << a;
  c.put(5, 0x400000, false, false, 9);
  EXPECT_EQ(c.find(5, 0x400000, false, false), 9u);
}

}  // namespace
