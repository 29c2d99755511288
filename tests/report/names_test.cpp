// Process and thread names as records give them, and pmc events named by their allocation.
#include <gtest/gtest.h>

#include "event_names.h"
#include "pmclog/pmclog.h"
#include "process_names.h"

namespace {

using pmcprofile::EventNames;
using pmcprofile::ProcessNames;
using pmcprofile::Tables;

TEST(ProcessNames, UnnamedProcessesAndTheKernel) {
  Tables t;
  ProcessNames n(t);
  EXPECT_EQ(n.comm_of(42), ":42");
  EXPECT_EQ(n.comm_of(pmclog::kKernelPid), "[kernel]");
}

TEST(ProcessNames, AttachExecCreateAndFork) {
  Tables t;
  ProcessNames n(t);
  n.attach(5, "/usr/bin/make");
  EXPECT_EQ(n.comm_of(5), "make");
  n.attach(5, "/bin/other");
  EXPECT_EQ(n.comm_of(5), "make") << "attach names only an unnamed process";
  n.exec(5, "/usr/local/bin/cc");
  EXPECT_EQ(n.comm_of(5), "cc");
  n.fork(5, 6);
  EXPECT_EQ(n.comm_of(6), "cc") << "a child has its parent's name";
  n.fork(99, 7);
  EXPECT_EQ(n.comm_of(7), ":99") << "and a parent never named gives its own number";
  n.create(8, "idle");
  EXPECT_EQ(n.comm_of(8), "idle");
}

TEST(ProcessNames, IdsInTheTables) {
  Tables t;
  ProcessNames n(t);
  n.create(1, "init");
  const uint32_t id = n.comm_id(1);
  EXPECT_EQ(t.comms[id], "init");
  n.create(1, "renamed");
  EXPECT_EQ(n.comm_id(1), id) << "kept until forget_ids()";
  n.forget_ids();
  EXPECT_EQ(t.comms[n.comm_id(1)], "renamed");
}

TEST(ProcessNames, Threads) {
  Tables t;
  ProcessNames n(t);
  EXPECT_EQ(n.thread_id(100), 0u) << "no name";
  n.thread_create(101, "worker");
  EXPECT_EQ(t.threads[n.thread_id(101)], "worker");
  n.thread_exit(101);
  n.forget_ids();
  EXPECT_EQ(n.thread_id(101), 0u);
}

TEST(EventNames, UnnamedPmcRenamedOnAllocation) {
  Tables t;
  EventNames e(t);
  const uint32_t ev = e.event_of(0x1f);
  EXPECT_EQ(t.events[ev], "pmc-0x1f");
  e.allocate(0x1f, "INSTR_RETIRED_ANY", 65536);
  EXPECT_EQ(e.event_of(0x1f), ev) << "samples before the allocation keep their event";
  EXPECT_EQ(t.events[ev], "INSTR_RETIRED_ANY");
  ASSERT_GT(t.event_rates.size(), ev);
  EXPECT_EQ(t.event_rates[ev], 65536u);
}

TEST(EventNames, AllocationNamesAndRates) {
  Tables t;
  EventNames e(t);
  e.allocate(1, "cpu-clock", 0);
  e.allocate(2, "cpu-clock", 1000);
  EXPECT_EQ(e.event_of(1), e.event_of(2)) << "one name, one event";
  EXPECT_EQ(t.event_rates[e.event_of(1)], 1000u) << "a rate of 0 is not said";
  e.name_dyn(0x2000, "my-soft-event");
  ASSERT_EQ(e.dyn().count(0x2000), 1u);
  EXPECT_EQ(e.dyn().at(0x2000), "my-soft-event");
  EXPECT_EQ(pmcprofile::hex32(0x2a, "event-"), "event-0x2a");
}

}  // namespace
