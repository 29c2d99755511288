// The streaming reader's memory stays at its configured bound whatever the log's size:
// a 64 MiB log built in memory, read through a 128 KiB buffer.
#include <gtest/gtest.h>

#include "random_records.h"
#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;

namespace {

TEST(StreamMemory, BufferNeverGrows) {
  const Abi abi = Abi::make(Generation::M9, 8, pmclog::ByteOrder::little);
  std::vector<uint8_t> log;
  log.reserve(65u << 20);
  std::mt19937_64 rng(64);
  // Mostly callchains of depth 8 to 32, with the odd deepest (512 frames, 4128 bytes) one.
  pmclog::RecordValue cc;
  cc.kind = Kind::callchain;
  cc[pmclog::Field::pid] = 1234;
  cc[pmclog::Field::pmcid] = 0x00201701;
  size_t count = 0;
  while (log.size() < (64u << 20)) {
    const size_t n = count % 997 == 0 ? 512 : 8 + rng() % 25;
    cc.pcs.resize(n);
    for (auto& pc : cc.pcs) pc = 0xffffffff80000000ull + (rng() & 0xffffff);
    cc.tsc = count;
    ASSERT_TRUE(pmclog::encode(cc, abi, log).ok());
    ++count;
  }
  const size_t bound = 128 * 1024;
  auto rd = pmclog::LogReader::stream(pmclog::span_source(log, 4096), abi, bound);
  const size_t cap0 = rd.buffer_capacity();
  EXPECT_LE(cap0, bound) << "the configured bound";
  EXPECT_GT(cap0, 0u);
  pmclog::Record r;
  pmclog::Error e;
  size_t n = 0, max_cap = cap0;
  uint64_t frames = 0;
  while (rd.next(r, e) == pmclog::Step::record) {
    frames += r.pcs.size();
    if ((++n & 1023) == 0) max_cap = std::max(max_cap, rd.buffer_capacity());
  }
  max_cap = std::max(max_cap, rd.buffer_capacity());
  EXPECT_EQ(e.code, pmclog::Errc::none) << e.message;
  EXPECT_EQ(n, count);
  EXPECT_GT(frames, count * 8);
  EXPECT_EQ(max_cap, cap0) << "the buffer grew";
  EXPECT_EQ(rd.offset(), log.size());
}

}  // namespace
