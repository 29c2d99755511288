// The reordering window gives records back by (key, file order), whatever the order they
// came in, through its runs and, past kMaxRuns of them, its heap; pool slots are reused.
#include <gtest/gtest.h>

#include <random>

#include "reorder_window.h"

namespace {

using pmcprofile::Ahead;
using pmcprofile::Held;
using pmcprofile::QueueItem;
using pmcprofile::ReorderWindow;

QueueItem item(uint64_t key, uint64_t offset, uint32_t slot) {
  return {key, 0, key, offset, nullptr, {}, 1, slot, 0, 0, 0, 0};
}

// Pops everything; the (key, offset) of each, in the order they came out.
std::vector<std::pair<uint64_t, uint64_t>> drain(ReorderWindow& w) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  Ahead ahead;
  while (w.size() > 0) {
    const QueueItem it = w.pop(ahead);
    out.emplace_back(it.key, it.offset);
  }
  return out;
}

void expect_sorted(const std::vector<std::pair<uint64_t, uint64_t>>& v) {
  for (size_t i = 1; i < v.size(); ++i) ASSERT_LT(v[i - 1], v[i]) << "at " << i;
}

TEST(ReorderWindow, OutOfOrderComesOutByKeyThenFileOrder) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  // Two CPUs' buffers interleaved, and equal keys that must keep file order.
  const uint64_t keys[] = {10, 20, 5, 30, 6, 20, 7, 40, 20};
  for (uint64_t i = 0; i < std::size(keys); ++i) w.push(item(keys[i], i, QueueItem::kInline));
  const auto out = drain(w);
  ASSERT_EQ(out.size(), std::size(keys));
  expect_sorted(out);
  EXPECT_EQ(out[4], (std::pair<uint64_t, uint64_t>{20, 1}));
  EXPECT_EQ(out[5], (std::pair<uint64_t, uint64_t>{20, 5}));
  EXPECT_EQ(out[6], (std::pair<uint64_t, uint64_t>{20, 8}));
}

TEST(ReorderWindow, ManyRunsSpillToTheHeapInOrder) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  // 40 descending keys make 40 runs of one: all past kMaxRuns go to the heap.
  std::mt19937_64 rng(5);
  uint64_t offset = 0;
  for (int round = 0; round < 50; ++round)
    for (uint64_t k = 40; k-- > 0;) w.push(item(k * 1000 + rng() % 1000, offset++, QueueItem::kInline));
  EXPECT_GT(pool.size(), 0u) << "heap items are copies in the pool";
  const auto out = drain(w);
  ASSERT_EQ(out.size(), 2000u);
  expect_sorted(out);
}

TEST(ReorderWindow, InterleavedPushAndPopStayInOrder) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  std::mt19937_64 rng(9);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  Ahead ahead;
  uint64_t base = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    base += rng() % 3;
    w.push(item(base + rng() % 64, i, QueueItem::kInline));  // late by up to 64
    if (w.size() > 256) {
      const QueueItem it = w.pop(ahead);
      out.emplace_back(it.key, it.offset);
    }
  }
  for (const auto& p : drain(w)) out.push_back(p);
  ASSERT_EQ(out.size(), 20000u);
  expect_sorted(out);
}

TEST(ReorderWindow, SlotsAreReused) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  Ahead ahead;
  for (int i = 0; i < 100; ++i) {
    const uint32_t slot = w.take_slot();
    w.held(slot).text = "record";
    w.push(item(static_cast<uint64_t>(i), static_cast<uint64_t>(i), slot));
    const QueueItem it = w.pop(ahead);
    EXPECT_EQ(it.slot, slot);
    w.free(it.slot);
  }
  EXPECT_EQ(pool.size(), 1u);
  // A new window over the same pool starts with every slot free.
  ReorderWindow again(pool);
  EXPECT_EQ(again.take_slot(), 0u);
}

TEST(ReorderWindow, AheadPointsIntoThePoppedRun) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  for (uint64_t i = 0; i < 100; ++i) w.push(item(i, i, QueueItem::kInline));
  Ahead ahead;
  const QueueItem first = w.pop(ahead);
  EXPECT_EQ(first.key, 0u);
  ASSERT_NE(ahead.far, nullptr);
  ASSERT_NE(ahead.near, nullptr);
  EXPECT_EQ(ahead.far->key, 1 + Ahead::kFar);
  EXPECT_EQ(ahead.near->key, 1 + Ahead::kNear);
  EXPECT_EQ(w.oldest_offset(1000), 1u);
  EXPECT_EQ(w.oldest_offset(0), 0u);
}

// Runs long enough to span many of the window's blocks, the first ones on their own and the
// rest carved from more than one chunk: every item comes out once, in order, with the items
// kFar and kNear after it as its lookahead, across the blocks' edges; and a second fill and
// drain, over the blocks the first one served, does the same.
TEST(ReorderWindow, LongRunsAcrossBlocksKeepOrderAndLookahead) {
  std::vector<Held> pool;
  ReorderWindow w(pool);
  for (int round = 0; round < 2; ++round) {
    const uint64_t n = 15000;  // 30,000 items: 59 blocks
    // Two runs: the odd keys, then the even ones (each below the first run's last).
    for (uint64_t i = 0; i < n; ++i) w.push(item(2 * i + 1, i, QueueItem::kInline));
    for (uint64_t i = 0; i < n; ++i) w.push(item(2 * i, n + i, QueueItem::kInline));
    Ahead ahead;
    for (uint64_t k = 0; k < 2 * n; ++k) {
      const QueueItem it = w.pop(ahead);
      ASSERT_EQ(it.key, k) << "round " << round;
      const uint64_t left = n - 1 - k / 2;  // after it in its run
      if (left > Ahead::kFar) {
        ASSERT_NE(ahead.far, nullptr) << k << " round " << round;
        EXPECT_EQ(ahead.far->key, it.key + 2 * (1 + Ahead::kFar)) << k;
      } else {
        EXPECT_EQ(ahead.far, nullptr) << k;
      }
      if (left > Ahead::kNear) {
        ASSERT_NE(ahead.near, nullptr) << k;
        EXPECT_EQ(ahead.near->key, it.key + 2 * (1 + Ahead::kNear)) << k;
      } else {
        EXPECT_EQ(ahead.near, nullptr) << k;
      }
    }
    EXPECT_EQ(w.size(), 0u);
  }
}

}  // namespace
