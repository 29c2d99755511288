// The writer thread of pmclog-write: chunks reach the sink whole and in order, a sink's
// error comes back to the producer and stops everything after it, and a writer dropped
// mid-way stops without writing the rest.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "chunk_writer.h"

namespace pmclog::write {
namespace {

std::vector<uint8_t> chunk_of(uint32_t n, size_t size) {
  std::vector<uint8_t> v(size);
  for (size_t i = 0; i < size; ++i) v[i] = static_cast<uint8_t>(n + i);
  return v;
}

TEST(ChunkWriter, EveryChunkArrivesWholeAndInOrder) {
  std::vector<uint8_t> seen;
  std::vector<std::pair<bool, uint64_t>> tags;
  ChunkWriter w([&](std::span<const uint8_t> b, bool raw, uint64_t records) {
    seen.insert(seen.end(), b.begin(), b.end());
    tags.emplace_back(raw, records);
    if (tags.size() % 7 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  std::vector<uint8_t> expected;
  for (uint32_t n = 0; n < 200; ++n) {
    std::vector<uint8_t> c = chunk_of(n, 1 + n * 37 % 5000);
    expected.insert(expected.end(), c.begin(), c.end());
    w.submit(c, n % 5 == 0, n);
    EXPECT_TRUE(c.empty());  // taken, and the caller gets an empty buffer back
  }
  w.drain();
  EXPECT_EQ(seen, expected);
  ASSERT_EQ(tags.size(), 200u);
  for (uint32_t n = 0; n < 200; ++n) {
    EXPECT_EQ(tags[n].first, n % 5 == 0);
    EXPECT_EQ(tags[n].second, n);
  }
}

TEST(ChunkWriter, ASinksErrorReachesTheProducerAndNothingAfterIsWritten) {
  std::atomic<int> written{0};
  ChunkWriter w([&](std::span<const uint8_t>, bool, uint64_t records) {
    if (records == 3) throw std::runtime_error("disk full");
    ++written;
  });
  bool thrown = false;
  try {
    for (uint64_t n = 0; n < 1000; ++n) {
      std::vector<uint8_t> c = chunk_of(1, 64);
      w.submit(c, false, n);
    }
    w.drain();
  } catch (const std::runtime_error& e) {
    thrown = true;
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_TRUE(thrown);
  EXPECT_EQ(written.load(), 3);  // chunks 0, 1 and 2; none after the failed one
  EXPECT_THROW(w.drain(), std::runtime_error);  // and it stays failed
}

TEST(ChunkWriter, DroppedWithChunksQueuedStopsWithoutWritingThem) {
  std::atomic<bool> release{false};
  std::atomic<int> written{0};
  std::thread later;
  {
    ChunkWriter w([&](std::span<const uint8_t>, bool, uint64_t) {
      while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++written;
    });
    for (uint64_t n = 0; n < 3; ++n) {  // one being written, two queued: the queue's limit
      std::vector<uint8_t> c = chunk_of(2, 16);
      w.submit(c, false, n);
    }
    later = std::thread([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      release = true;
    });
  }  // the destructor waits for the chunk in the sink, and drops the queued two
  later.join();
  EXPECT_EQ(written.load(), 1);
}

}  // namespace
}  // namespace pmclog::write
