// Record dispatch: a small modern log, written out of time order, replayed through the
// window (as views, as a mapped log is, and as copies, as a stream is) into named samples.
#include <gtest/gtest.h>

#include "pmclog/encode.h"
#include "pmclog/reader.h"
#include "replay.h"

namespace {

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;

const pmclog::Abi kAbi = pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little);

std::vector<uint8_t> small_log() {
  std::vector<uint8_t> log;
  auto put = [&](RecordValue v) { EXPECT_TRUE(pmclog::encode(v, kAbi, log).ok()); };
  RecordValue r;
  r.kind = Kind::initialize;
  r[Field::tsc_freq] = 1000;
  r.tsc = 1;
  put(r);
  r = {};
  r.kind = Kind::pmcallocatedyn;
  r[Field::pmcid] = 1;
  r[Field::event] = 0x2000;
  r.text = "my-event";
  r.tsc = 2;
  put(r);
  r = {};
  r.kind = Kind::proc_create;
  r[Field::pid] = 5;
  r.text = "proc";
  r.tsc = 3;
  put(r);
  r = {};
  r.kind = Kind::thr_create;
  r[Field::pid] = 5;
  r[Field::tid] = 7;
  r.text = "worker";
  r.tsc = 4;
  put(r);
  // Callchains from two CPUs' buffers: times 1000, 3000 then 2000, 4000.
  for (uint64_t tsc : {1000, 3000, 2000, 4000}) {
    r = {};
    r.kind = Kind::callchain;
    r[Field::pid] = 5;
    r[Field::tid] = 7;
    r[Field::pmcid] = 1;
    r[Field::cpuflags] = tsc == 4000 ? 0 : 1;  // the last in kernel mode
    r.pcs = {0x1000 + tsc, 0x2000};
    r.tsc = tsc;
    put(r);
  }
  return log;
}

struct Got {
  std::vector<double> times;
  std::vector<uint32_t> stack_ids;
  std::vector<uint64_t> leaves;
};

Got replay(bool mapped) {
  const std::vector<uint8_t> log = small_log();
  pmcprofile::Tables t;
  pmcprofile::ObjectTable objects;
  pmcprofile::Options opt;
  pmcprofile::FilterMatches matches;
  std::vector<pmcprofile::Held> pool;
  pmcprofile::InputReport rep;
  Got got;
  const std::function<void(const pmcprofile::Sample&)> sink = [&](const pmcprofile::Sample& s) {
    EXPECT_EQ(t.events[s.event], "my-event");
    EXPECT_EQ(t.comms[s.comm], "proc");
    EXPECT_EQ(t.threads[s.thread], "worker");
    EXPECT_EQ(s.frames.size(), 2u);
    got.times.push_back(s.time);
    got.stack_ids.push_back(s.stack_id);
    got.leaves.push_back(s.addresses[0]);
  };
  pmcprofile::Replay r({t, objects, opt, matches, pool}, kAbi, mapped, sink, rep);
  auto rd = pmclog::LogReader::over(log, kAbi);
  pmclog::Error err;
  EXPECT_EQ(rd.for_each([&](const pmclog::Record& rec) { r.push(rec); }, err), pmclog::Step::end);
  r.drain();
  EXPECT_EQ(rep.records, 8u);
  EXPECT_EQ(rep.samples, 4u);
  EXPECT_EQ(rep.kept, 4u);
  return got;
}

TEST(Replay, SamplesInTimeOrderWithTheirNames) {
  for (bool mapped : {true, false}) {
    SCOPED_TRACE(mapped ? "views" : "copies");
    const Got got = replay(mapped);
    ASSERT_EQ(got.times.size(), 4u);
    // Seconds from the first record (tsc 1) at 1000 ticks a second.
    EXPECT_DOUBLE_EQ(got.times[0], 0.999);
    EXPECT_DOUBLE_EQ(got.times[1], 1.999);
    EXPECT_DOUBLE_EQ(got.times[2], 2.999);
    EXPECT_DOUBLE_EQ(got.times[3], 3.999);
    EXPECT_EQ(got.leaves, (std::vector<uint64_t>{0x1000 + 1000, 0x1000 + 2000, 0x1000 + 3000, 0x1000 + 4000}));
    for (size_t i = 1; i < 4; ++i) EXPECT_NE(got.stack_ids[i], got.stack_ids[0]) << "distinct stacks";
  }
}

}  // namespace
