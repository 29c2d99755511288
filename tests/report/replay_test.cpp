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

// A record of `kind` at `tsc` with these fields and text.
RecordValue make(Kind kind, uint64_t tsc, std::initializer_list<std::pair<Field, uint64_t>> fields,
                 std::string text = {}) {
  RecordValue r;
  r.kind = kind;
  r.tsc = tsc;
  for (const auto& f : fields) r[f.first] = f.second;
  r.text = std::move(text);
  return r;
}

std::vector<uint8_t> small_log() {
  std::vector<uint8_t> log;
  auto put = [&](const RecordValue& v) { EXPECT_TRUE(pmclog::encode(v, kAbi, log).ok()); };
  put(make(Kind::initialize, 1, {{Field::tsc_freq, 1000}}));
  put(make(Kind::pmcallocatedyn, 2, {{Field::pmcid, 1}, {Field::event, 0x2000}}, "my-event"));
  put(make(Kind::proc_create, 3, {{Field::pid, 5}}, "proc"));
  put(make(Kind::thr_create, 4, {{Field::pid, 5}, {Field::tid, 7}}, "worker"));
  // Callchains from two CPUs' buffers: times 1000, 3000 then 2000, 4000; the last in kernel
  // mode.
  for (uint64_t tsc : {1000, 3000, 2000, 4000}) {
    RecordValue r = make(Kind::callchain, tsc,
                         {{Field::pid, 5}, {Field::tid, 7}, {Field::pmcid, 1},
                          {Field::cpuflags, tsc == 4000 ? 0u : 1u}});
    r.pcs = {0x1000 + tsc, 0x2000};
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
  // The log's size as a session gives it for a mapped file, and none (a stream's) otherwise.
  pmcprofile::Replay r({t, objects, opt, matches, pool}, kAbi, mapped, mapped ? log.size() : 0,
                       sink, rep);
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
