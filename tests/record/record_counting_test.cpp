// Counting mode on synthetic input: per-CPU inherited values of a thread that moves between
// CPUs, the root's own count from the final reads, and the report.
#include <gtest/gtest.h>

#include "count_report.h"
#include "events_table.h"
#include "converter_harness.h"
#include "log_sink.h"
#include "perf_records.h"
#include "record_conversion.h"
#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using record::PerfEvent;
using record::ReadValue;

namespace {

constexpr uint64_t kMs = 1000000;
constexpr uint32_t kPmc = 0xfff23f00;  // TC, class SOFT, row 0
// Per CPU: a context-switch leader (not a counted event) and task-clock.
constexpr uint64_t kLeader0 = 1, kLeader1 = 2, kClock0 = 42, kClock1 = 43;

record::ConversionConfig counting_config() {
  record::ConversionConfig cc;
  cc.counting = true;
  cc.pmcid_of_id = {{kClock0, kPmc}, {kClock1, kPmc}};
  cc.event_of_pmcid[kPmc] = 0;
  cc.process_pmcids = {kPmc};
  return cc;
}

struct Harness : rectest::ConverterHarness {
  Harness() : ConverterHarness(counting_config(), "count.pmclog") {}
  rectest::Log finish(const std::vector<PerfEvent>& final_reads = {}) {
    return ConverterHarness::finish(10000 * kMs, &final_reads);
  }
};

// A group read of one CPU's events for thread `tid`: at a switch-out (sample) or at exit.
PerfEvent group(bool at_exit, uint32_t tid, uint64_t t, uint64_t leader, uint64_t clock_id,
                uint64_t clock, uint64_t enabled, uint64_t running) {
  PerfEvent e;
  e.type = at_exit ? PerfEvent::Type::read : PerfEvent::Type::sample;
  e.pid = e.tid = tid;
  e.time = t;
  e.id = leader;
  e.time_enabled = enabled;
  e.time_running = running;
  e.values = {ReadValue{7, leader}, ReadValue{clock, clock_id}};
  return e;
}

PerfEvent task(PerfEvent::Type type, uint32_t pid, uint32_t ppid, uint64_t t) {
  PerfEvent e;
  e.type = type;
  e.pid = e.tid = pid;
  e.ppid = e.ptid = ppid;
  e.time = t;
  return e;
}

// Child 11 runs 100 ms on CPU 0, 100 ms on CPU 1, 100 ms on CPU 0, then exits. Each CPU's
// event counts only what ran there; time_enabled grows with all of it.
void migrating_child(record::Converter& c) {
  c.process(task(PerfEvent::Type::fork, 11, 10, 10 * kMs));
  c.process(group(false, 11, 100 * kMs, kLeader0, kClock0, 100 * kMs, 100 * kMs, 100 * kMs));
  c.process(group(false, 11, 200 * kMs, kLeader1, kClock1, 100 * kMs, 200 * kMs, 100 * kMs));
  c.process(group(false, 11, 300 * kMs, kLeader0, kClock0, 200 * kMs, 300 * kMs, 200 * kMs));
  c.process(group(true, 11, 300 * kMs, kLeader0, kClock0, 200 * kMs, 300 * kMs, 200 * kMs));
  c.process(group(true, 11, 300 * kMs, kLeader1, kClock1, 100 * kMs, 300 * kMs, 100 * kMs));
  c.process(task(PerfEvent::Type::exit, 11, 10, 300 * kMs));
}

uint64_t procexit_of(const rectest::Log& log, uint64_t pid) {
  for (auto* r : log.of(Kind::procexit))
    if ((*r)[Field::pid] == pid) return (*r)[Field::value];
  return 0;
}

}  // namespace

TEST(RecordCounting, MigratingThreadIsCountedOnce) {
  Harness h;
  migrating_child(*h.conv);
  auto log = h.finish();
  ASSERT_TRUE(log.ok) << log.error;
  std::vector<uint64_t> slices;
  for (auto* r : log.of(Kind::proccsw)) slices.push_back((*r)[Field::value]);
  // Not scaled by time_enabled/time_running: the thread was on the other CPU meanwhile.
  EXPECT_EQ(slices, (std::vector<uint64_t>{100 * kMs, 100 * kMs, 100 * kMs}));
  EXPECT_EQ(procexit_of(log, 11), 300 * kMs);
  EXPECT_EQ(h.conv->totals().at(11), (std::vector<uint64_t>{300 * kMs}));
}

TEST(RecordCounting, RootCountIsFinalReadsMinusExitedChildren) {
  Harness h;
  h.conv->add_child(10, 1);
  h.conv->set_deferred_pid(10);
  migrating_child(*h.conv);
  // The root ran 50 ms on each CPU; its events also hold the child's 200 + 100 ms.
  std::vector<PerfEvent> finals = {
      group(true, 10, 400 * kMs, kLeader0, kClock0, 250 * kMs, 400 * kMs, 250 * kMs),
      group(true, 10, 400 * kMs, kLeader1, kClock1, 150 * kMs, 400 * kMs, 150 * kMs)};
  auto log = h.finish(finals);
  ASSERT_TRUE(log.ok) << log.error;
  EXPECT_EQ(procexit_of(log, 10), 100 * kMs);
  EXPECT_EQ(procexit_of(log, 11), 300 * kMs);

  // The command's total: every CPU's inherited events, summed, children included.
  const std::unordered_map<uint64_t, size_t> event_of_id = {{kClock0, 0}, {kClock1, 0}};
  const auto total = record::sum_final_reads(finals, event_of_id, 1);
  EXPECT_EQ(total.values, (std::vector<uint64_t>{400 * kMs}));
  EXPECT_EQ(total.enabled, 400 * kMs);
  EXPECT_EQ(total.running, 400 * kMs) << "one CPU at a time: no multiplexing";
}

TEST(RecordCounting, ReportHasUnitsTotalsAndProcesses) {
  const auto clock = *record::find_event("task-clock");
  const auto faults = *record::find_event("page-faults");
  EXPECT_EQ(record::format_count(clock, 1435116789), "1435.117 msec");
  EXPECT_EQ(record::format_count(faults, 427), "427");

  record::CountTotals total{{1435116789, 427}, 1500 * kMs, 1500 * kMs};
  std::vector<record::ProcessCounts> procs = {{10, "sh", {1000000, 60}},
                                              {11, "gzip", {1434116789, 367}}};
  const std::string who = "the command and all its descendants";
  const std::string brief = record::count_report({clock, faults}, total, procs, false, who);
  EXPECT_NE(brief.find("totals of the command and all its descendants (2 processes)"),
            std::string::npos) << brief;
  EXPECT_NE(brief.find("1435.117 msec  task-clock\n"), std::string::npos) << brief;
  EXPECT_NE(brief.find(" 427       page-faults\n"), std::string::npos) << brief;
  EXPECT_EQ(brief.find("gzip"), std::string::npos) << "no breakdown unless asked";
  EXPECT_EQ(brief.find("not scaled"), std::string::npos) << brief;

  const std::string full = record::count_report({clock, faults}, total, procs, true, who);
  EXPECT_NE(full.find("task-clock (msec)"), std::string::npos) << full;
  EXPECT_NE(full.find("      11  gzip"), std::string::npos) << full;
  EXPECT_NE(full.find("1434.117"), std::string::npos) << full;

  // Counters that ran for part of the time (multiplexed) are said to be so.
  total.running = 750 * kMs;
  const std::string shared = record::count_report({clock, faults}, total, procs, false, who);
  EXPECT_NE(shared.find("ran for 50.0% of the time"), std::string::npos) << shared;
}
