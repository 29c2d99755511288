// Each part of the filter selects samples, and notes in FilterMatches what it met whatever
// the other parts.
#include <gtest/gtest.h>

#include "sample_filter.h"

namespace {

using pmcprofile::Filter;
using pmcprofile::FilterMatches;
using pmcprofile::RawSample;

struct Rig {
  explicit Rig(Filter f) : filter(std::move(f)), events(t), names(t), sf(filter, m, events, names, t, clock) {
    m.events.assign(filter.events.size(), false);
    m.comms.assign(filter.comms.size(), false);
    m.pids.assign(filter.pids.size(), false);
    m.tids.assign(filter.tids.size(), false);
    m.cpus.assign(filter.cpus.size(), false);
  }
  // Whether the sample passes every part, as the replay asks.
  bool passes(const RawSample& s) {
    const bool ev = sf.event(s.pmcid).selected;
    sf.see(s);
    return ev && sf.selects_place(s) && sf.selects_time(clock.seconds(s.key)) && sf.command(s.pid).selected;
  }
  Filter filter;
  pmcprofile::Tables t;
  pmcprofile::EventNames events;
  pmcprofile::ProcessNames names;
  pmcprofile::ReplayClock clock;
  FilterMatches m;
  pmcprofile::SampleFilter sf;
};

RawSample at(uint32_t pid, uint32_t tid, uint32_t cpu, bool user, uint64_t key = 0, uint32_t pmcid = 1) {
  RawSample s;
  s.pid = pid;
  s.tid = tid;
  s.cpu = cpu;
  s.user = user;
  s.key = key;
  s.pmcid = pmcid;
  return s;
}

TEST(SampleFilter, NoFilterSelectsAllAndTracksNothing) {
  Rig r{Filter{}};
  EXPECT_TRUE(r.passes(at(1, 2, 3, true)));
  EXPECT_TRUE(r.passes(at(4, 5, 6, false)));
  EXPECT_EQ(r.m.samples, 2u);
  EXPECT_FALSE(r.m.user) << "untracked without a filter";
}

TEST(SampleFilter, PidsTidsCpus) {
  Filter f;
  f.pids = {10, 11};
  f.tids = {100};
  f.cpus = {2};
  Rig r{f};
  EXPECT_TRUE(r.passes(at(10, 100, 2, true)));
  EXPECT_FALSE(r.passes(at(12, 100, 2, true)));
  EXPECT_FALSE(r.passes(at(11, 101, 2, true)));
  EXPECT_FALSE(r.passes(at(11, 100, 3, true)));
  EXPECT_EQ(r.m.pids, (std::vector<bool>{true, true}));
  EXPECT_EQ(r.m.tids, (std::vector<bool>{true}));
  EXPECT_EQ(r.m.cpus, (std::vector<bool>{true}));
}

TEST(SampleFilter, Mode) {
  Filter f;
  f.mode = Filter::Mode::kernel;
  Rig r{f};
  EXPECT_FALSE(r.passes(at(1, 1, 0, true)));
  EXPECT_TRUE(r.m.user);
  EXPECT_FALSE(r.m.kernel);
  EXPECT_TRUE(r.passes(at(1, 1, 0, false)));
  EXPECT_TRUE(r.m.kernel);
}

TEST(SampleFilter, FromTo) {
  Filter f;
  f.from = 1.0;
  f.to = 2.0;
  Rig r{f};
  r.clock.start(0);  // keys are ns: no TSC frequency
  EXPECT_FALSE(r.passes(at(1, 1, 0, true, 500'000'000)));
  EXPECT_TRUE(r.m.to);
  EXPECT_FALSE(r.m.from);
  EXPECT_TRUE(r.passes(at(1, 1, 0, true, 1'500'000'000)));
  EXPECT_FALSE(r.passes(at(1, 1, 0, true, 2'000'000'000)));
  EXPECT_TRUE(r.m.from);
}

TEST(SampleFilter, Comms) {
  Filter f;
  f.comms = {"make", "nothing"};
  Rig r{f};
  r.names.create(1, "make");
  r.names.create(2, "sh");
  EXPECT_TRUE(r.passes(at(1, 1, 0, true)));
  EXPECT_FALSE(r.passes(at(2, 2, 0, true)));
  EXPECT_EQ(r.m.comms, (std::vector<bool>{true, false}));
  EXPECT_EQ(r.t.comms[r.sf.command(1).comm], "make");
}

TEST(SampleFilter, EventsByNameOrPmcId) {
  Filter f;
  f.events = {"cycles", "0X2A", "absent"};
  Rig r{f};
  r.events.allocate(1, "cycles", 0);
  EXPECT_TRUE(r.passes(at(1, 1, 0, true, 0, 1)));
  EXPECT_TRUE(r.passes(at(1, 1, 0, true, 0, 0x2a))) << "a pmc id, any case";
  EXPECT_FALSE(r.passes(at(1, 1, 0, true, 0, 3)));
  EXPECT_EQ(r.m.events, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(r.t.events[r.sf.event(0x2a).event], "pmc-0x2a");
}

TEST(SampleFilter, RunCachesForgotten) {
  Filter f;
  f.comms = {"after"};
  Rig r{f};
  r.names.create(1, "before");
  EXPECT_FALSE(r.passes(at(1, 1, 0, true)));
  r.names.create(1, "after");
  EXPECT_FALSE(r.sf.command(1).selected) << "the run cache answers until forgotten";
  r.sf.forget();
  r.names.forget_ids();
  EXPECT_TRUE(r.passes(at(1, 1, 0, true)));
}

}  // namespace
