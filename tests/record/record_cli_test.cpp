// pmclog-record run as a subprocess on the bundled workloads, with software events (CI has
// no hardware counters); the logs are read back with the library and checked with
// pmclog-validate when it is built. Sampling is statistical, so thresholds are generous.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "pmcprofile/kallsyms.h"
#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;
using namespace rectest;

namespace {

// Within `frac` of `want` (counts on a busy machine are exact, but the workload's own
// measurement starts before the exec that enables the counters).
void expect_near(double got, double want, double frac, const std::string& what) {
  EXPECT_GE(got, want * (1 - frac)) << what << ": " << got << " vs " << want;
  EXPECT_LE(got, want * (1 + frac)) << what << ": " << got << " vs " << want;
}

// A task-clock count against the CPU time the workload (or wait4) measured: at most 10%
// below, at most 25% above. Above, because the counter runs on after the workload reads
// its clock, to the end of its exit; beside the sanitized suite in CI it has read 16% and
// 17% above (580 against 502 ms, 588 against 503). Counting twice, what these tests
// guard against, reads 100% above.
void expect_counted(double got, double want, const std::string& what) {
  EXPECT_GE(got, want * 0.9) << what << ": " << got << " vs " << want;
  EXPECT_LE(got, want * 1.25) << what << ": " << got << " vs " << want;
}

// --count's report: the totals block ("VALUE [msec]  EVENT" lines) and, with --per-process,
// the rows "PID COMMAND VALUE...". Values as printed (msec for the clocks).
struct CountReport {
  size_t processes = 0;
  std::map<std::string, double> total;
  std::map<std::string, std::string> unit;
  std::map<uint64_t, std::vector<double>> rows;
};
CountReport parse_count_report(const std::string& err) {
  CountReport r;
  std::istringstream in(err);
  std::string line;
  int block = 0;  // 1: totals, 2: rows
  while (std::getline(in, line)) {
    if (line.find("pmclog-record: totals of the command") == 0) {
      block = 1;
      r.processes = std::strtoul(line.c_str() + line.find('(') + 1, nullptr, 10);
      continue;
    }
    if (line.find("pmclog-record: each process's own counts") == 0) {
      block = 2;
      std::getline(in, line);  // the column heads
      continue;
    }
    if (line.rfind("pmclog-record:", 0) == 0) {
      block = 0;
      continue;
    }
    std::istringstream f(line);
    if (block == 1) {
      double v;
      std::string a, b;
      if (!(f >> v >> a)) continue;
      if (f >> b) {
        r.unit[b] = a;
        r.total[b] = v;
      } else {
        r.total[a] = v;
      }
    } else if (block == 2) {
      uint64_t pid;
      std::string name;
      double v;
      if (!(f >> pid >> name)) continue;
      while (f >> v) r.rows[pid].push_back(v);
    }
  }
  return r;
}

bool skip_without_count_support(const Ran& r) {
  return r.status == 125 && r.err.find("inherited PERF_SAMPLE_READ") != std::string::npos;
}

uint64_t procexit_value(const Log& log, uint64_t pid, uint64_t pmcid) {
  for (auto* e : log.of(Kind::procexit))
    if ((*e)[Field::pid] == pid && (*e)[Field::pmcid] == pmcid) return (*e)[Field::value];
  return 0;
}

// Whether --list-events reports `event` as supported on this machine.
bool listed_supported(const std::string& listing, const std::string& event) {
  size_t pos = listing.find("\n" + event + " ");
  if (pos == std::string::npos) return false;
  std::string line = listing.substr(pos + 1, listing.find('\n', pos + 1) - pos - 1);
  return line.find("not supported") == std::string::npos && line.find("supported") != std::string::npos;
}

// Clean under pmclog-validate --strict (no warnings either), unless `strict` is false.
void expect_valid(const std::string& path, bool strict = true) {
  std::string report;
  int v = validate(path, &report, strict);
  if (v == -1) return;  // pmclog-validate not built
  EXPECT_EQ(v, 0) << report;
}

// The common frame of every log: INITIALIZE first, CLOSELOG last, a PMCALLOCATEDYN naming
// the event.
void expect_frame(const Log& log, const std::string& event) {
  ASSERT_TRUE(log.ok) << log.error;
  ASSERT_GE(log.records.size(), 3u);
  EXPECT_EQ(log.records.front().kind, Kind::initialize);
  EXPECT_EQ(log.records.back().kind, Kind::closelog);
  auto allocs = log.of(Kind::pmcallocatedyn);
  ASSERT_FALSE(allocs.empty());
  EXPECT_EQ(allocs[0]->text, event);
}

// [start, end) of the executable mappings of `path` in `pid`, from MAP_IN + MAP_OUT.
std::vector<std::pair<uint64_t, uint64_t>> mappings_of(const Log& log, uint64_t pid,
                                                      const std::string& path) {
  std::set<uint64_t> starts;
  for (auto* r : log.of(Kind::map_in))
    if ((*r)[Field::pid] == pid && r->text == path) starts.insert((*r)[Field::start]);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (auto* r : log.of(Kind::map_out))
    if ((*r)[Field::pid] == pid && starts.count((*r)[Field::start]))
      out.emplace_back((*r)[Field::start], (*r)[Field::end]);
  return out;
}

uint64_t exec_pid(const Log& log, const std::string& path) {
  for (auto* r : log.of(Kind::procexec))
    if (r->text == path) return (*r)[Field::pid];
  return 0;
}

struct LeafStats {
  size_t samples = 0, in_range = 0, in_hot = 0;
};
LeafStats leaf_stats(const Log& log, uint64_t pid,
                     const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t hot,
                     uint64_t hot_size) {
  LeafStats s;
  for (auto* r : log.of(Kind::callchain)) {
    if ((*r)[Field::pid] != pid || r->pcs.empty()) continue;
    ++s.samples;
    const uint64_t leaf = r->pcs.front();
    for (auto [a, b] : ranges)
      if (leaf >= a && leaf < b) ++s.in_range;
    if (leaf >= hot && leaf < hot + hot_size) ++s.in_hot;
  }
  return s;
}

class RecordGenerations : public ::testing::TestWithParam<const char*> {};

}  // namespace

// A workload with a known hot function, in every generation we write.
TEST_P(RecordGenerations, HotFunctionWorkload) {
  ScratchDir dir;
  const std::string out = dir.file("hot.pmclog");
  auto r = run({kRecord, "--generation", GetParam(), "-F", "1000", "-o", out, "--", kCpuHot,
                "1.0", "7"});
  EXPECT_EQ(r.status, 7) << "the command's exit status is the tool's\n" << r.err;
  ASSERT_TRUE(file_exists(out)) << r.err;
  EXPECT_EQ(dir.names().size(), 1u) << "no temporary file left behind";
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  const std::string gen = GetParam();
  EXPECT_EQ(pmclog::generation_name(log.abi.generation), gen == "M" ? "M10" : gen);
  expect_valid(out);

  const uint64_t pid = exec_pid(log, kCpuHot);
  ASSERT_NE(pid, 0u) << "PROCEXEC of the workload";
  auto exe = mappings_of(log, pid, kCpuHot);
  ASSERT_FALSE(exe.empty()) << "MAP_IN of the workload's executable";
  bool libc = false;
  for (auto* m : log.of(Kind::map_in))
    if ((*m)[Field::pid] == pid && m->text.find("libc.so") != std::string::npos) libc = true;
  EXPECT_TRUE(libc) << "MAP_IN of libc";
  EXPECT_GE(log.count(Kind::sysexit), 1u);

  uint64_t hot = 0;
  ASSERT_TRUE(output_value(r.out, "hot", hot)) << r.out;
  uint64_t hot_size = symbol_size(kCpuHot, "hot_function");
  if (hot_size == 0) hot_size = 64;
  auto s = leaf_stats(log, pid, exe, hot, hot_size);
  // 1 s of CPU at 1000 Hz is ~1000 samples (cpu-clock counts the task's CPU time, so a
  // loaded machine gives as many, only later); 100 leaves a wide margin.
  EXPECT_GE(s.samples, 100u);
  EXPECT_GE(s.in_range * 10, s.samples * 7) << s.in_range << " of " << s.samples
                                            << " leaves in the executable";
  EXPECT_GE(s.in_hot * 10, s.samples * 6) << s.in_hot << " of " << s.samples
                                          << " leaves in hot_function";
  // Markers are stripped: no PERF_CONTEXT_* value (top 4095 of the address space) remains.
  for (auto* c : log.of(Kind::callchain))
    for (uint64_t pc : c->pcs) ASSERT_LT(pc, static_cast<uint64_t>(-4095));
  // The hot loop runs in user space: nearly all samples carry the user flag.
  size_t user = 0;
  for (auto* c : log.of(Kind::callchain)) user += ((*c)[Field::cpuflags] & 1u) ? 1 : 0;
  EXPECT_GE(user * 10, log.count(Kind::callchain) * 7);

  if (!log.abi.legacy()) {
    EXPECT_GE(log.count(Kind::proc_create), 1u);
    EXPECT_GE(log.count(Kind::thr_create), 1u);
    EXPECT_GE(log.count(Kind::thr_exit), 1u);
  } else {
    EXPECT_EQ(log.count(Kind::thr_create), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Generations, RecordGenerations, ::testing::Values("L3", "M9", "M"));

TEST(RecordCli, ForkingWorkloadGivesProcforkAndChildSamples) {
  ScratchDir dir;
  const std::string out = dir.file("fork.pmclog");
  // Modern generation, so that the child's PROC_CREATE/THR_CREATE are checked too.
  auto r = run({kRecord, "--generation", "M10", "-o", out, "--", kForkHot, "1.0"});
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  uint64_t child = 0;
  ASSERT_TRUE(output_value(r.out, "child", child)) << r.out;
  const uint64_t parent = exec_pid(log, kForkHot);
  ASSERT_NE(parent, 0u);
  bool fork_seen = false;
  for (auto* f : log.of(Kind::procfork))
    if ((*f)[Field::oldpid] == parent && (*f)[Field::newpid] == child) fork_seen = true;
  EXPECT_TRUE(fork_seen) << "PROCFORK " << parent << " -> " << child;
  size_t child_samples = 0;
  for (auto* c : log.of(Kind::callchain)) child_samples += (*c)[Field::pid] == child;
  EXPECT_GE(child_samples, 100u) << "the child burns 1 s of CPU";
  bool child_exit = false;
  for (auto* e : log.of(Kind::sysexit)) child_exit = child_exit || (*e)[Field::pid] == child;
  EXPECT_TRUE(child_exit);
  // Linux keeps 15 characters of the program name; the child inherits the parent's.
  const std::string comm = kForkHot.substr(kForkHot.rfind('/') + 1, 15);
  bool created = false, thread = false, thread_exit = false;
  for (auto* c : log.of(Kind::proc_create))
    created = created || ((*c)[Field::pid] == child && c->text == comm);
  for (auto* t : log.of(Kind::thr_create))
    thread = thread || ((*t)[Field::tid] == child && (*t)[Field::pid] == child && t->text == comm);
  for (auto* t : log.of(Kind::thr_exit)) thread_exit = thread_exit || (*t)[Field::tid] == child;
  EXPECT_TRUE(created) << "PROC_CREATE of the child named " << comm;
  EXPECT_TRUE(thread) << "THR_CREATE of the child's thread";
  EXPECT_TRUE(thread_exit);
}

TEST(RecordCli, ExecingWorkloadGivesTwoProcexecsAndSamplesAfterExec) {
  ScratchDir dir;
  const std::string out = dir.file("exec.pmclog");
  auto r = run({kRecord, "-o", out, "--", kExecHot, kCpuHot, "1.0", "5"});
  ASSERT_EQ(r.status, 5) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  const uint64_t first = exec_pid(log, kExecHot);
  const uint64_t second = exec_pid(log, kCpuHot);
  ASSERT_NE(first, 0u);
  EXPECT_EQ(first, second) << "exec keeps the pid";
  // The old image's mappings go away before the new one arrives.
  size_t i_exec2 = 0, i_out = 0;
  for (size_t i = 0; i < log.records.size(); ++i) {
    const auto& rec = log.records[i];
    if (rec.kind == Kind::procexec && rec.text == kCpuHot) i_exec2 = i;
    if (rec.kind == Kind::map_out && rec[Field::pid] == first && i_out == 0 && i_exec2 == 0)
      i_out = i;
  }
  EXPECT_GT(i_out, 0u);
  EXPECT_GT(i_exec2, i_out);
  size_t after = 0;
  for (size_t i = i_exec2; i < log.records.size(); ++i)
    after += log.records[i].kind == Kind::callchain && log.records[i][Field::pid] == first;
  EXPECT_GE(after, 100u);
}

TEST(RecordCli, CountingModeProcexitMatchesCpuTime) {
  ScratchDir dir;
  const std::string out = dir.file("count.pmclog");
  auto r = run({kRecord, "--count", "-e", "task-clock", "-o", out, "--", kCpuHot, "1.0"});
  if (skip_without_count_support(r)) GTEST_SKIP() << "this kernel lacks what --count needs: " << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "task-clock");
  expect_valid(out);
  EXPECT_EQ(log.count(Kind::callchain), 0u) << "counting mode takes no samples";
  uint64_t cpu_ns = 0;
  ASSERT_TRUE(output_value(r.out, "cpu_ns", cpu_ns)) << r.out;
  const uint64_t pid = exec_pid(log, kCpuHot);
  ASSERT_NE(pid, 0u);
  uint64_t total = 0, csw_sum = 0;
  bool found = false;
  for (auto* e : log.of(Kind::procexit))
    if ((*e)[Field::pid] == pid) {
      total = (*e)[Field::value];
      found = true;
    }
  for (auto* c : log.of(Kind::proccsw))
    if ((*c)[Field::pid] == pid) csw_sum += (*c)[Field::value];
  ASSERT_TRUE(found) << "PROCEXIT of the workload";
  // task-clock counts the task's CPU time in ns; the workload measured the same span and
  // the moment before the exec. Counts scaled by time_enabled/time_running are
  // off by the share of time spent on the other CPUs.
  expect_counted(static_cast<double>(total), static_cast<double>(cpu_ns), "PROCEXIT");
  EXPECT_LE(csw_sum, total) << "slices add up to at most the total";
  auto alloc = log.of(Kind::pmcallocatedyn);
  EXPECT_EQ((*alloc[0])[Field::flags] & 0xC, 0xCu) << "LOG_PROCCSW|LOG_PROCEXIT";
}

TEST(RecordCli, SigintStopsCleanlyWithAValidLog) {
  ScratchDir dir;
  const std::string out = dir.file("int.pmclog");
  bool signalled = false;
  auto r = run({kRecord, "-o", out, "--", kCpuHot, "60"}, {}, [&](pid_t pid) {
    // Wait (without a time limit of our own) for the recording to be under way: the
    // temporary file exists once the events are open.
    for (int i = 0; i < 6000 && !signalled; ++i) {
      for (const auto& e : dir.names())
        if (e.find(".tmp.") != std::string::npos) signalled = true;
      usleep(10000);
    }
    usleep(300000);  // let some samples arrive; the check below does not depend on it
    kill(pid, SIGINT);
  });
  ASSERT_TRUE(signalled);
  EXPECT_EQ(r.status, 128 + SIGINT) << "the child died of the forwarded SIGINT\n" << r.err;
  ASSERT_TRUE(file_exists(out)) << r.err;
  EXPECT_EQ(dir.names().size(), 1u);
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  EXPECT_GE(log.count(Kind::sysexit), 1u);
}

TEST(RecordCli, MissingCommandFailsBeforeWriting) {
  ScratchDir dir;
  const std::string out = dir.file("none.pmclog");
  auto r = run({kRecord, "-o", out, "--", "/nonexistent/program-xyz"});
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("program-xyz"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.names().empty()) << "nothing written";
}

TEST(RecordCli, HardwareEventFailsClearlyWithoutPmu) {
  // Whether the machine has the counter is decided by --list-events (which opens it), not by
  // the run under test: a silent fallback to a software event must fail here.
  auto probe = run({kRecord, "--list-events"});
  ASSERT_EQ(probe.status, 0);
  const bool has_cycles = listed_supported(probe.out, "cycles");
  ScratchDir dir;
  const std::string out = dir.file("hw.pmclog");
  auto r = run({kRecord, "-e", "cycles", "-o", out, "--", kCpuHot, "0.1"});
  if (has_cycles) {
    ASSERT_EQ(r.status, 0) << r.err;
    expect_frame(read_log(out), "cycles");
    return;
  }
  EXPECT_EQ(r.status, 125) << "the tool's own failure\n" << r.err;
  EXPECT_NE(r.err.find("'cycles'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cpu-clock"), std::string::npos) << "suggests the software event";
  EXPECT_NE(r.err.find("--fallback"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.names().empty());
}

TEST(RecordCli, FallbackReplacesMissingHardwareEvent) {
  ScratchDir dir;
  const std::string out = dir.file("fb.pmclog");
  auto probe = run({kRecord, "--list-events"});
  ASSERT_EQ(probe.status, 0);
  const bool has_cycles = listed_supported(probe.out, "cycles");
  auto r = run({kRecord, "--fallback", "-e", "unhalted-cycles", "-o", out, "--", kCpuHot,
                "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  if (has_cycles) {
    expect_frame(log, "cycles");
  } else {
    expect_frame(log, "cpu-clock");
    EXPECT_NE(r.err.find("--fallback"), std::string::npos) << "says so: " << r.err;
  }
  EXPECT_GE(log.count(Kind::callchain), 20u);
}

TEST(RecordCli, ListEventsOpensEachEvent) {
  auto r = run({kRecord, "--list-events"});
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(listed_supported(r.out, "cpu-clock")) << r.out;
  EXPECT_TRUE(listed_supported(r.out, "task-clock")) << r.out;
  EXPECT_NE(r.out.find("branch-mispredicts"), std::string::npos) << "aliases are listed";
}

TEST(RecordCli, AttachToRunningProcess) {
  ScratchDir dir;
  const std::string out = dir.file("attach.pmclog");
  Ran rec;
  pid_t target = 0;
  // The target runs for a fixed CPU budget; the recorder attaches for 1 s of wall time.
  auto w = run({kCpuHot, "60"}, {}, [&](pid_t pid) {
    target = pid;
    usleep(200000);  // the exec is done long before; -p reads /proc/PID/maps
    rec = run({kRecord, "-p", std::to_string(pid), "--duration", "1", "-o", out});
    kill(pid, SIGKILL);
  });
  ASSERT_EQ(rec.status, 0) << rec.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  bool attach = false;
  for (auto* a : log.of(Kind::pmcattach))
    attach = attach || ((*a)[Field::pid] == static_cast<uint64_t>(target) && a->text == kCpuHot);
  EXPECT_TRUE(attach) << "PMCATTACH with the image path";
  bool exe_map = false;
  for (auto* m : log.of(Kind::map_in))
    exe_map = exe_map || ((*m)[Field::pid] == static_cast<uint64_t>(target) && m->text == kCpuHot);
  EXPECT_TRUE(exe_map) << "MAP_IN from /proc/PID/maps";
  size_t samples = 0;
  for (auto* c : log.of(Kind::callchain)) samples += (*c)[Field::pid] == static_cast<uint64_t>(target);
  EXPECT_GE(samples, 20u) << "1 s of wall time on a possibly busy machine";
}

TEST(RecordCli, UnknownEventIsAUsageError) {
  auto r = run({kRecord, "-e", "no-such-event", "--", kCpuHot, "0.1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no-such-event"), std::string::npos);
}

// The same event twice would be opened twice and every sample counted twice: refused before
// anything runs, also under another of its names.
TEST(RecordCli, SameEventTwiceIsAUsageError) {
  ScratchDir dir;
  const std::string marker = dir.file("ran");
  for (const char* list : {"cpu-clock,cpu-clock", "cpu-clock,soft-clock.hard",
                           "task-clock,page-faults,task-clock"}) {
    SCOPED_TRACE(list);
    auto r = run({kRecord, "-e", list, "-o", dir.file("x.pmclog"), "--", "sh", "-c",
                  "touch '" + marker + "'"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("same event"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Try 'pmclog-record --help'."), std::string::npos) << r.err;
  }
  EXPECT_TRUE(dir.names().empty()) << "nothing was run or written";
}

// Two hardware events that --fallback would both turn into cpu-clock: refused, not recorded
// as one event twice (a machine with the counters records both).
TEST(RecordCli, FallbackToAnEventAlreadyRecordedIsRefused) {
  auto probe = run({kRecord, "--list-events"});
  ASSERT_EQ(probe.status, 0);
  if (listed_supported(probe.out, "cycles") || listed_supported(probe.out, "instructions"))
    GTEST_SKIP() << "this machine has hardware counters";
  ScratchDir dir;
  auto r = run({kRecord, "--fallback", "-e", "cycles,instructions", "-o", dir.file("x.pmclog"),
                "--", kCpuHot, "0.1"});
  EXPECT_EQ(r.status, 125) << r.err;
  EXPECT_NE(r.err.find("the same event twice"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.names().empty());
}

TEST(RecordCli, HelpAndVersion) {
  auto h = run({kRecord, "--help"});
  EXPECT_EQ(h.status, 0);
  for (const char* s : {"Exit status:", "125", "126", "127", "128+S"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s;
  for (const char* opt : {"-V", "--version"}) {
    auto v = run({kRecord, opt});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("pmclog-record ", 0), 0u) << v.out;
  }
}

// Exit statuses (as env(1)): the command's own, 128+N for a signal, 125 the tool's failure,
// 126 cannot execute, 127 not found, 2 usage errors before anything runs.
TEST(RecordExit, CommandStatusPassesThrough) {
  for (int code : {0, 2, 3, 124}) {
    ScratchDir dir;
    const std::string out = dir.file("s.pmclog");
    auto r = run({kRecord, "-q", "-o", out, "--", "sh", "-c", "exit " + std::to_string(code)});
    EXPECT_EQ(r.status, code) << r.err;
    EXPECT_EQ(r.err, "") << "the tool itself had nothing to say";
    EXPECT_TRUE(read_log(out).ok) << "the log is written whatever the command's status";
  }
}

TEST(RecordExit, SignalKilledCommandIs128PlusTheSignal) {
  ScratchDir dir;
  const std::string out = dir.file("k.pmclog");
  auto r = run({kRecord, "-q", "-o", out, "--", "sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_TRUE(read_log(out).ok);
}

TEST(RecordExit, CommandNotFoundIs127) {
  ScratchDir dir;
  for (const char* cmd : {"no-such-command-xyz", "/nonexistent/no-such-command"}) {
    auto r = run({kRecord, "-o", dir.file("n.pmclog"), "--", cmd});
    EXPECT_EQ(r.status, 127) << cmd << "\n" << r.err;
    EXPECT_NE(r.err.find("pmclog-record: cannot run"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(dir.names().empty());
}

TEST(RecordExit, CommandNotExecutableIs126) {
  ScratchDir dir;
  const std::string script = dir.file("plain.sh");
  {
    FILE* f = std::fopen(script.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("exit 0\n", f);
    std::fclose(f);
  }
  chmod(script.c_str(), 0644);
  for (const std::string& cmd : {script, dir.str()}) {  // a file without x, a directory
    auto r = run({kRecord, "-o", dir.file("x.pmclog"), "--", cmd});
    // root may execute a file without x only if some x bit is set: none is here
    EXPECT_EQ(r.status, 126) << cmd << "\n" << r.err;
  }
  EXPECT_FALSE(file_exists(dir.file("x.pmclog")));
}

// What a shell answers for a command found through PATH: 126 for a file without x, 127 for
// one whose interpreter does not exist (execv fails with ENOENT after the file was found).
TEST(RecordExit, PathLookupAndMissingInterpreterAnswerAsAShell) {
  ScratchDir dir;
  auto make_script = [&](const std::string& name, const char* text, mode_t mode) {
    const std::string p = dir.file(name);
    FILE* f = std::fopen(p.c_str(), "w");
    EXPECT_NE(f, nullptr);
    std::fputs(text, f);
    std::fclose(f);
    chmod(p.c_str(), mode);
    return p;
  };
  make_script("noexec-cmd", "exit 0\n", 0644);
  const std::string orphan = make_script("orphan.sh", "#!/nonexistent/interp\nexit 0\n", 0755);
  auto in_path = run({"/usr/bin/env", "PATH=" + dir.str(), kRecord, "-q", "-o",
                      dir.file("p.pmclog"), "--", "noexec-cmd"});
  EXPECT_EQ(in_path.status, 126) << in_path.err;
  EXPECT_NE(in_path.err.find("Permission denied"), std::string::npos) << in_path.err;
  auto no_interp = run({kRecord, "-q", "-o", dir.file("i.pmclog"), "--", orphan});
  EXPECT_EQ(no_interp.status, 127) << no_interp.err;
  EXPECT_FALSE(file_exists(dir.file("p.pmclog")));
  EXPECT_FALSE(file_exists(dir.file("i.pmclog")));
}

TEST(RecordExit, OwnFailureIs125AndTheCommandDoesNotRun) {
  ScratchDir dir;
  const std::string marker = dir.file("ran");
  auto r = run({kRecord, "-o", dir.file("no-dir/x.pmclog"), "--", "sh", "-c",
                "touch '" + marker + "'"});
  EXPECT_EQ(r.status, 125) << r.err;
  EXPECT_NE(r.err.find("pmclog-record: "), std::string::npos) << r.err;
  EXPECT_FALSE(file_exists(marker)) << "the log cannot be written: nothing is run";
}

uint64_t max_sample_rate() {
  uint64_t v = 0;
  if (FILE* f = std::fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r")) {
    if (std::fscanf(f, "%lu", &v) != 1) v = 0;
    std::fclose(f);
  }
  return v;
}

TEST(RecordExit, OutOfRangeValuesAreUsageErrors) {
  const uint64_t max = max_sample_rate();
  if (max == 0) GTEST_SKIP() << "no kernel.perf_event_max_sample_rate here";
  ScratchDir dir;
  const std::string marker = dir.file("ran");
  std::vector<std::vector<std::string>> bad = {{"-F", std::to_string(max + 1)}, {"-F", "0"},
                                               {"-c", "0"}, {"--address-width", "3"},
                                               {"--mmap-pages", "3"}, {"-F", "1.5"}};
  if (max < 1000000) bad.push_back({"-F", "1000000"});
  for (const auto& args : bad) {
    std::vector<std::string> argv = {kRecord, "-o", dir.file("x.pmclog")};
    argv.insert(argv.end(), args.begin(), args.end());
    for (const char* a : {"--", "sh", "-c"}) argv.push_back(a);
    argv.push_back("touch '" + marker + "'");
    auto r = run(argv);
    SCOPED_TRACE(args[0] + " " + args[1]);
    EXPECT_EQ(r.status, 2) << r.err;
    const size_t nl = r.err.find('\n');
    EXPECT_EQ(r.err.rfind("pmclog-record: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.substr(nl + 1), "Try 'pmclog-record --help'.\n") << r.err;
  }
  EXPECT_TRUE(dir.names().empty()) << "nothing was run or written";
  // the kernel's maximum itself is accepted
  auto ok = run({kRecord, "-q", "-F", std::to_string(max), "-o", dir.file("m.pmclog"), "--",
                 "sh", "-c", "exit 0"});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(RecordCli, LostSamplesBecomeDropnotify) {
  // A one-page ring buffer at 20 kHz, drained only every 200 ms (the tool's slow-consumer
  // test hook), overflows on any machine; sampling is statistical, so allow a few attempts.
  setenv("PMCLOG_RECORD_DRAIN_DELAY_MS", "200", 1);
  struct Unset {
    ~Unset() { unsetenv("PMCLOG_RECORD_DRAIN_DELAY_MS"); }
  } unset;
  for (int attempt = 0; attempt < 3; ++attempt) {
    ScratchDir dir;
    const std::string out = dir.file("lost.pmclog");
    auto r = run({kRecord, "--mmap-pages", "1", "-c", "50000", "-o", out, "--", kCpuHot, "0.5"});
    ASSERT_EQ(r.status, 0) << r.err;
    Log log = read_log(out);
    expect_frame(log, "cpu-clock");
    if (log.count(Kind::dropnotify) == 0) continue;
    EXPECT_NE(r.err.find("samples lost"), std::string::npos) << "count printed: " << r.err;
    expect_valid(out, false);  // DROPNOTIFY is a warning, not an error
    return;
  }
  ADD_FAILURE() << "no DROPNOTIFY after 3 overflowing runs";
}

TEST(RecordCli, SystemWideHasOnePmcPerCpu) {
  if (geteuid() != 0) GTEST_SKIP() << "-a needs root here";
  ScratchDir dir;
  const std::string out = dir.file("all.pmclog");
  auto r = run({kRecord, "-a", "--duration", "0.5", "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  std::set<uint64_t> ids;
  for (auto* a : log.of(Kind::pmcallocatedyn)) {
    ids.insert((*a)[Field::pmcid]);
    auto parts = pmclog::split_pmcid(static_cast<uint32_t>((*a)[Field::pmcid]), log.abi.generation);
    EXPECT_EQ(parts.mode, 0u) << "system-mode sampling (SS)";
    EXPECT_FALSE(parts.any_cpu);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(ncpu));
  // Existing processes are announced from /proc, this test process among them.
  bool self = false;
  for (auto* m : log.of(Kind::map_in)) self = self || (*m)[Field::pid] == static_cast<uint64_t>(getpid());
  EXPECT_TRUE(self);
  EXPECT_GE(log.count(Kind::callchain), 1u);
}

TEST(RecordCli, UnprivilegedSystemWideNamesParanoidSetting) {
  int paranoid = 2;
  if (FILE* f = std::fopen("/proc/sys/kernel/perf_event_paranoid", "r")) {
    if (std::fscanf(f, "%d", &paranoid) != 1) paranoid = 2;
    std::fclose(f);
  }
  if (geteuid() != 0 || paranoid <= 0) GTEST_SKIP() << "needs root (to drop to nobody) and paranoid > 0";
  auto r = run({kRecord, "-a", "--duration", "0.2", "-o", "/tmp/never-written.pmclog"}, as_user(65534));
  // 125/126 without a message of the tool: the test harness could not start it as nobody
  if ((r.status == 125 || r.status == 126) && r.err.find("pmclog-record: ") == std::string::npos)
    GTEST_SKIP() << "cannot run the tool as nobody";
  EXPECT_EQ(r.status, 125) << r.err;
  EXPECT_NE(r.err.find("kernel.perf_event_paranoid is " + std::to_string(paranoid)),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("CAP_PERFMON"), std::string::npos) << r.err;
  EXPECT_FALSE(file_exists("/tmp/never-written.pmclog"));
}

TEST(RecordCli, StrictParanoidGivesUserOnlyCallchains) {
  int paranoid = 2;
  if (FILE* f = std::fopen("/proc/sys/kernel/perf_event_paranoid", "r")) {
    if (std::fscanf(f, "%d", &paranoid) != 1) paranoid = 2;
    std::fclose(f);
  }
  if (geteuid() != 0 || paranoid < 2) GTEST_SKIP() << "needs root (to drop to nobody) and paranoid >= 2";
  ScratchDir dir;
  chmod(dir.str().c_str(), 0777);
  const std::string out = dir.file("user.pmclog");
  auto r = run({kRecord, "-o", out, "--", kCpuHot, "0.5"}, as_user(65534));
  if (r.status >= 125 && r.err.find("pmclog-record: ") == std::string::npos)
    GTEST_SKIP() << "nobody cannot run the build tree's programs: " << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("kernel.perf_event_paranoid is " + std::to_string(paranoid)),
            std::string::npos) << "said once: " << r.err;
  EXPECT_NE(r.err.find("user-space callchains only"), std::string::npos) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  ASSERT_GE(log.count(Kind::callchain), 20u);
  for (auto* c : log.of(Kind::callchain)) EXPECT_EQ((*c)[Field::cpuflags] & 1u, 1u);
}

TEST(RecordCli, DepthLimitAndGenerationCap) {
  ScratchDir dir;
  const std::string out = dir.file("depth.pmclog");
  auto r = run({kRecord, "--depth", "2", "-o", out, "--", kCpuHot, "0.3"});
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  ASSERT_GE(log.count(Kind::callchain), 10u);
  for (auto* c : log.of(Kind::callchain)) EXPECT_LE(c->pcs.size(), 2u);

  // L2 allows 32 frames and has no PMCALLOCATEDYN: capped, and PMCALLOCATE instead.
  const std::string out2 = dir.file("l2.pmclog");
  auto r2 = run({kRecord, "--generation", "L2", "--depth", "100", "-o", out2, "--", kCpuHot, "0.3"});
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_NE(r2.err.find("capped at 32 (the depth limit of L2 logs)"), std::string::npos) << r2.err;
  Log l2 = read_log(out2);
  ASSERT_TRUE(l2.ok) << l2.error;
  EXPECT_EQ(l2.count(Kind::pmcallocatedyn), 0u);
  EXPECT_EQ(l2.count(Kind::pmcallocate), 1u);
  EXPECT_GE(l2.count(Kind::callchain), 10u);
  for (auto* c : l2.of(Kind::callchain)) EXPECT_LE(c->pcs.size(), 32u);
  // L2-era libpmc has no software events, so its pmcstat cannot name cpu-clock's code: that
  // one warning is the truth about such a log; anything else is not.
  std::string report;
  const int v = validate(out2, &report, false);
  if (v != -1) {
    EXPECT_EQ(v, 0) << report;
    std::istringstream lines(report);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(": warning:") != std::string::npos) {
        EXPECT_NE(line.find("[event-unknown-to-libpmc]"), std::string::npos) << line;
      }
    }
  }
}

// --depth up to the kernel's perf_event_max_stack records (the context markers are counted
// apart by the kernel); above it, the depth is capped at it and the message says by what.
TEST(RecordCli, DepthUpToTheKernelsMaximum) {
  uint32_t max_stack = 0;
  if (FILE* f = std::fopen("/proc/sys/kernel/perf_event_max_stack", "r")) {
    if (std::fscanf(f, "%u", &max_stack) != 1) max_stack = 0;
    std::fclose(f);
  }
  if (max_stack == 0 || max_stack >= 512) GTEST_SKIP() << "perf_event_max_stack " << max_stack;
  ScratchDir dir;
  for (uint32_t depth : {max_stack - 3, max_stack}) {
    SCOPED_TRACE(depth);
    const std::string out = dir.file(std::to_string(depth) + ".pmclog");
    auto r = run({kRecord, "--generation", "M10", "--depth", std::to_string(depth), "-o", out,
                  "--", kCpuHot, "0.1"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("capped"), std::string::npos) << r.err;
    EXPECT_GE(read_log(out).count(Kind::callchain), 10u);
  }
  const std::string out = dir.file("above");
  auto r = run({kRecord, "--generation", "M10", "--depth", std::to_string(max_stack + 1), "-o",
                out, "--", kCpuHot, "0.1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("capped at " + std::to_string(max_stack) +
                       " (kernel.perf_event_max_stack)"),
            std::string::npos) << r.err;
  const Log log = read_log(out);
  EXPECT_GE(log.count(Kind::callchain), 10u);
  for (auto* c : log.of(Kind::callchain)) EXPECT_LE(c->pcs.size(), max_stack);
}

TEST(RecordCli, CountingModeGivesEachProcessItsOwnTotal) {
  // The parent only waits while its child burns 0.5 s: each PROCEXIT holds its own count,
  // not the inherited sum.
  ScratchDir dir;
  const std::string out = dir.file("count-fork.pmclog");
  auto r = run({kRecord, "--count", "-e", "task-clock,page-faults", "-o", out, "--", kForkHot,
                "0.5"});
  if (skip_without_count_support(r)) GTEST_SKIP() << "this kernel lacks what --count needs: " << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "task-clock");
  expect_valid(out);
  uint64_t child = 0, child_cpu_ns = 0, child_faults = 0, cpu_ns = 0;
  ASSERT_TRUE(output_value(r.out, "child", child)) << r.out;
  ASSERT_TRUE(output_value(r.out, "child_cpu_ns", child_cpu_ns)) << r.out;
  ASSERT_TRUE(output_value(r.out, "child_faults", child_faults)) << r.out;
  ASSERT_TRUE(output_value(r.out, "cpu_ns", cpu_ns)) << r.out;
  const uint64_t parent = exec_pid(log, kForkHot);
  auto allocs = log.of(Kind::pmcallocatedyn);
  ASSERT_EQ(allocs.size(), 2u);
  const uint64_t clock_id = (*allocs[0])[Field::pmcid], faults_id = (*allocs[1])[Field::pmcid];
  EXPECT_EQ(log.count(Kind::procexit), 4u) << "two processes, two events";
  const uint64_t child_clock = procexit_value(log, child, clock_id);
  const uint64_t parent_clock = procexit_value(log, parent, clock_id);
  // The child's whole life is counted (its events are inherited at fork), as wait4 sees it;
  // the parent's check below is the sharp one.
  expect_counted(static_cast<double>(child_clock), static_cast<double>(child_cpu_ns),
                 "the child's task-clock");
  const double faults = static_cast<double>(procexit_value(log, child, faults_id));
  EXPECT_LE(std::abs(faults - static_cast<double>(child_faults)),
            2 + 0.1 * static_cast<double>(child_faults))
      << faults << " page faults vs " << child_faults << " from wait4";
  EXPECT_LT(parent_clock, child_clock / 2) << "the waiting parent";
  // wait4's CPU time may be sampled at the scheduler's tick (4 ms at HZ=250): a parent of a
  // few milliseconds is known to within one tick.
  EXPECT_LT(parent_clock, cpu_ns + cpu_ns / 10 + 4'000'000) << "at most the parent's own CPU time";
}

TEST(RecordCli, CountingModeTotalsIncludeDescendants) {
  // What perf stat reports for the command: the parent's and the child's time together.
  ScratchDir dir;
  auto r = run({kRecord, "--count", "--per-process", "-e", "task-clock,page-faults", "-o",
                dir.file("c.pmclog"), "--", kForkHot, "0.5"});
  if (skip_without_count_support(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t child = 0, child_cpu_ns = 0, cpu_ns = 0, child_faults = 0;
  ASSERT_TRUE(output_value(r.out, "child", child)) << r.out;
  ASSERT_TRUE(output_value(r.out, "child_cpu_ns", child_cpu_ns)) << r.out;
  ASSERT_TRUE(output_value(r.out, "child_faults", child_faults)) << r.out;
  ASSERT_TRUE(output_value(r.out, "cpu_ns", cpu_ns)) << r.out;
  const CountReport c = parse_count_report(r.err);
  EXPECT_EQ(c.processes, 2u) << r.err;
  ASSERT_TRUE(c.total.count("task-clock") && c.total.count("page-faults")) << r.err;
  EXPECT_EQ(c.unit.at("task-clock"), "msec") << r.err;
  expect_counted(c.total.at("task-clock") * 1e6, static_cast<double>(child_cpu_ns + cpu_ns),
                 "total task-clock");
  EXPECT_GE(c.total.at("page-faults"), static_cast<double>(child_faults)) << r.err;
  // --per-process: one row per process, its own counts, adding up to the totals.
  ASSERT_EQ(c.rows.size(), 2u) << r.err;
  ASSERT_TRUE(c.rows.count(child)) << r.err;
  ASSERT_EQ(c.rows.at(child).size(), 2u) << r.err;
  expect_counted(c.rows.at(child)[0] * 1e6, static_cast<double>(child_cpu_ns), "the child's row");
  double clock_sum = 0, faults_sum = 0;
  for (const auto& [pid, v] : c.rows) {
    clock_sum += v.at(0);
    faults_sum += v.at(1);
  }
  expect_near(clock_sum, c.total.at("task-clock"), 0.01, "rows vs total");
  EXPECT_EQ(faults_sum, c.total.at("page-faults")) << r.err;
}

TEST(RecordCli, PerProcessNeedsCount) {
  auto r = run({kRecord, "--per-process", "--", kCpuHot, "0.1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--count"), std::string::npos) << r.err;
}

// A process whose time is split over the CPUs' events is counted once, whether it
// is the command itself (final reads) or a child (its exit values).
class RecordMigrating : public ::testing::TestWithParam<bool> {};

TEST_P(RecordMigrating, CountedOnceWhileMovingBetweenCpus) {
  const bool child_mode = GetParam();
  ScratchDir dir;
  const std::string out = dir.file("migrate.pmclog");
  std::vector<std::string> argv = {kRecord, "--count", "-e", "task-clock", "-o", out, "--",
                                   kMigrateHot};
  if (child_mode) argv.push_back("--fork");
  argv.push_back("0.5");
  auto r = run(argv);
  if (skip_without_count_support(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t cpus = 0;
  ASSERT_TRUE(output_value(r.out, "cpus", cpus)) << r.out;
  if (cpus < 2) GTEST_SKIP() << "one CPU: nothing migrates";
  Log log = read_log(out);
  expect_frame(log, "task-clock");
  expect_valid(out);
  const uint64_t clock_id = (*log.of(Kind::pmcallocatedyn)[0])[Field::pmcid];
  uint64_t pid = 0, want = 0;
  if (child_mode) {
    ASSERT_TRUE(output_value(r.out, "child", pid)) << r.out;
    ASSERT_TRUE(output_value(r.out, "child_cpu_ns", want)) << r.out;
  } else {
    pid = exec_pid(log, kMigrateHot);
    ASSERT_TRUE(output_value(r.out, "cpu_ns", want)) << r.out;
  }
  const uint64_t got = procexit_value(log, pid, clock_id);
  expect_counted(static_cast<double>(got), static_cast<double>(want), "PROCEXIT");
  uint64_t slices = 0;
  for (auto* c : log.of(Kind::proccsw))
    if ((*c)[Field::pid] == pid) slices += (*c)[Field::value];
  EXPECT_LE(slices, got) << "slices add up to at most the total";
  const CountReport c = parse_count_report(r.err);
  ASSERT_TRUE(c.total.count("task-clock")) << r.err;
  expect_counted(c.total.at("task-clock") * 1e6, static_cast<double>(want), "the total");
}

INSTANTIATE_TEST_SUITE_P(Counting, RecordMigrating, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Child" : "Command"; });

// hwpmc writes the kernel stack of a kernel-mode sample, nothing more.
TEST(RecordCli, KernelSamplesHaveOnlyKernelFramesByDefault) {
  ScratchDir dir;
  const std::string out = dir.file("kernel.pmclog");
  auto r = run({kRecord, "--generation", "M10", "-o", out, "--", kKernelHot, "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  if (r.err.find("user-space callchains only") != std::string::npos)
    GTEST_SKIP() << "no kernel frames for this user: " << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  EXPECT_EQ((*log.of(Kind::pmcallocatedyn)[0])[Field::flags] & 0x100, 0u)
      << "no PMC_F_USERCALLCHAIN";
  size_t kernel = 0;
  for (auto* c : log.of(Kind::callchain)) {
    if ((*c)[Field::cpuflags] & 1u) continue;
    ++kernel;
    for (uint64_t pc : c->pcs) EXPECT_NE(pc >> 63, 0u) << std::hex << pc << " in a kernel record";
  }
  EXPECT_GE(kernel, 20u) << "the workload spends its time in read(2)";
}

// --kallsyms: the kernel's table saved with the log names its kernel frames as this boot's
// /proc/kallsyms does; with no kernel frames recorded there is nothing to save.
TEST(RecordCli, KallsymsCopyNamesTheLogsKernelFrames) {
  ScratchDir dir;
  const std::string out = dir.file("kernel.pmclog"), saved = dir.file("kallsyms");
  auto r = run({kRecord, "-o", out, "--kallsyms", saved, "--", kKernelHot, "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  if (r.err.find("user-space callchains only") != std::string::npos) {
    EXPECT_NE(r.err.find("--kallsyms: the log has no kernel frames to name"), std::string::npos)
        << r.err;
    EXPECT_FALSE(file_exists(saved));
    GTEST_SKIP() << "no kernel frames for this user: " << r.err;
  }
  if (pmcprofile::kernel_text_start() == 0) {
    EXPECT_EQ(r.status, 125) << r.err;  // a copy of zeros is refused, the log kept
    EXPECT_FALSE(file_exists(saved));
    GTEST_SKIP() << "/proc/kallsyms hides its addresses here";
  }
  EXPECT_EQ(dir.names().size(), 2u) << "the log and the copy, no temporary";
  EXPECT_EQ(pmcprofile::kernel_text_start(saved), pmcprofile::kernel_text_start());
  EXPECT_GT(pmcprofile::read_kernel_code_symbols(saved).size(), 1000u);
  const auto from_copy = run({kReport, "--format", "folded", "--kallsyms", saved, out});
  const auto from_boot = run({kReport, "--format", "folded", out});
  ASSERT_EQ(from_copy.status, 0) << from_copy.err;
  EXPECT_EQ(from_copy.out, from_boot.out);
  EXPECT_NE(from_copy.out.find("_[k]"), std::string::npos) << from_copy.out;
  EXPECT_EQ(from_copy.out.find("[kernel] 0x"), std::string::npos) << from_copy.out;
}

TEST(RecordCli, KallsymsCopyRefusedBeforeAnythingRuns) {
  ScratchDir dir;
  const std::string marker = dir.file("ran"), log = dir.file("x.pmclog");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-o", log, "--kallsyms", log},
           {"--kallsyms", "pmclog.out"},
           {"--count", "-o", log, "--kallsyms", dir.file("k")},
           {"--user-only", "-o", log, "--kallsyms", dir.file("k")}}) {
    std::vector<std::string> argv = {kRecord};
    argv.insert(argv.end(), args.begin(), args.end());
    for (const char* a : {"--", "sh", "-c"}) argv.push_back(a);
    argv.push_back("touch '" + marker + "'");
    RunOptions in_dir;
    in_dir.cwd = dir.str();
    const auto r = run(argv, in_dir);
    EXPECT_EQ(r.status, 2) << args[1] << "\n" << r.err;
    EXPECT_NE(r.err.find("--kallsyms"), std::string::npos) << r.err;
  }
  // A copy that cannot be created: the tool's own failure, nothing run, no log left.
  const auto r = run({kRecord, "-o", log, "--kallsyms", dir.file("no-dir/k"), "--", "sh", "-c",
                      "touch '" + marker + "'"});
  EXPECT_EQ(r.status, 125) << r.err;
  EXPECT_TRUE(dir.names().empty()) << "nothing was run or written";
}

TEST(RecordCli, UserCallchainMergesUserFramesIntoKernelSamples) {
  ScratchDir dir;
  const std::string out = dir.file("merged.pmclog");
  auto r = run({kRecord, "--generation", "M10", "--user-callchain", "-o", out, "--",
                kKernelHot, "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  if (r.err.find("user-space callchains only") != std::string::npos)
    GTEST_SKIP() << "no kernel frames for this user: " << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  EXPECT_EQ((*log.of(Kind::pmcallocatedyn)[0])[Field::flags] & 0x100, 0x100u);
  size_t kernel = 0, merged = 0;
  for (auto* c : log.of(Kind::callchain)) {
    if (((*c)[Field::cpuflags] & 1u) || c->pcs.empty()) continue;
    ++kernel;
    EXPECT_NE(c->pcs.front() >> 63, 0u) << "the kernel frames come first";
    merged += (c->pcs.back() >> 63) == 0;
  }
  ASSERT_GE(kernel, 20u);
  // Every kernel-mode sample of a user process has a user part (its pc at the syscall);
  // a few may lose it to the depth limit.
  EXPECT_GE(merged * 10, kernel * 8) << merged << " of " << kernel << " end in user space";
}

TEST(RecordCli, UserCallchainNeedsAModernGeneration) {
  for (const char* gen : {"L2", "L3"}) {
    ScratchDir dir;
    auto r = run({kRecord, "--generation", gen, "--user-callchain", "-o", dir.file("x"), "--",
                  kCpuHot, "0.1"});
    EXPECT_EQ(r.status, 2) << gen;
    EXPECT_NE(r.err.find("--user-callchain needs a modern generation"), std::string::npos)
        << r.err;
    EXPECT_TRUE(dir.names().empty());
  }
  ScratchDir dir;
  auto c = run({kRecord, "--generation", "M10", "--user-callchain", "--count", "-o",
                dir.file("x"), "--", kCpuHot, "0.1"});
  EXPECT_EQ(c.status, 2) << c.err;
}

// Frame-pointer unwinding through a frame pointer aimed at text yields return
// addresses that cannot be code; the chains stop before them and the count is printed.
TEST(RecordCli, ImpossibleReturnAddressesCutTheChain) {
  ScratchDir dir;
  const std::string out = dir.file("garbage.pmclog");
  auto r = run({kRecord, "-o", out, "--", kGarbageFp, "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  if (r.out.find("unsupported") != std::string::npos) GTEST_SKIP() << "x86-64 only";
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  const uint64_t pid = exec_pid(log, kGarbageFp);
  size_t samples = 0;
  for (auto* c : log.of(Kind::callchain)) {
    if ((*c)[Field::pid] != pid) continue;
    ++samples;
    ASSERT_FALSE(c->pcs.empty());
    for (uint64_t pc : c->pcs) {
      EXPECT_NE(pc, 0x4242424242424242u) << "non-canonical";
      EXPECT_NE(pc, 0x424242424242u) << "in no mapping";
    }
  }
  ASSERT_GE(samples, 100u);
  const size_t at = r.err.find(" callchains stop early");
  ASSERT_NE(at, std::string::npos) << r.err;
  const size_t line = r.err.rfind("pmclog-record: ", at) + 15;
  const uint64_t cut = std::strtoull(r.err.c_str() + line, nullptr, 10);
  // Nearly every sample lands in the spin loop, whose one unwound frame is garbage.
  EXPECT_GE(cut * 10, samples * 8) << r.err;
  EXPECT_LE(cut, log.count(Kind::callchain)) << r.err;
}

TEST(RecordCli, BigEndianOutputReadsBack) {
  ScratchDir dir;
  const std::string out = dir.file("be.pmclog");
  auto r = run({kRecord, "--byte-order", "big", "--generation", "M10", "-o", out, "--", kCpuHot,
                "0.3"});
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  EXPECT_EQ(log.abi.byte_order, pmclog::ByteOrder::big);
  EXPECT_NE(exec_pid(log, kCpuHot), 0u);
  EXPECT_GE(log.count(Kind::callchain), 10u);
  expect_valid(out);
}
