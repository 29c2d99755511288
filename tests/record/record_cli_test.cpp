// pmclog-record run as a subprocess on the bundled workloads, with software events (CI has
// no hardware counters); the logs are read back with the library and checked with
// pmclog-validate when it is built. Sampling is statistical, so thresholds are generous.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;
using namespace rectest;

namespace {

const std::string kRecord = PMCLOG_RECORD_EXE;
const std::string kCpuHot = real_path(WORKLOAD_CPU_HOT);
const std::string kForkHot = real_path(WORKLOAD_FORK_HOT);
const std::string kExecHot = real_path(WORKLOAD_EXEC_HOT);

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

// Point 8: a workload with a known hot function, in every generation we write.
TEST_P(RecordGenerations, HotFunctionWorkload) {
  TempDir dir;
  const std::string out = dir.file("hot.pmclog");
  auto r = run({kRecord, "--generation", GetParam(), "-F", "1000", "-o", out, "--", kCpuHot,
                "1.0", "7"});
  EXPECT_EQ(r.status, 7) << "the command's exit status is the tool's\n" << r.err;
  ASSERT_TRUE(file_exists(out)) << r.err;
  EXPECT_EQ(dir.entries().size(), 1u) << "no temporary file left behind";
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
  const std::string out = dir.file("count.pmclog");
  auto r = run({kRecord, "--count", "-e", "task-clock", "-o", out, "--", kCpuHot, "1.0"});
  if (r.status == 1 && r.err.find("inherited PERF_SAMPLE_READ") != std::string::npos)
    GTEST_SKIP() << "this kernel lacks what --count needs: " << r.err;
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
  // task-clock counts the task's CPU time in ns; the workload measured ~the same span.
  EXPECT_GT(total, cpu_ns / 2) << total << " vs " << cpu_ns;
  EXPECT_LT(total, cpu_ns * 2) << total << " vs " << cpu_ns;
  EXPECT_LE(csw_sum, total) << "slices add up to at most the total";
  auto alloc = log.of(Kind::pmcallocatedyn);
  EXPECT_EQ((*alloc[0])[Field::flags] & 0xC, 0xCu) << "LOG_PROCCSW|LOG_PROCEXIT";
}

TEST(RecordCli, SigintStopsCleanlyWithAValidLog) {
  TempDir dir;
  const std::string out = dir.file("int.pmclog");
  bool signalled = false;
  auto r = run({kRecord, "-o", out, "--", kCpuHot, "60"}, [&](pid_t pid) {
    // Wait (without a time limit of our own) for the recording to be under way: the
    // temporary file exists once the events are open.
    for (int i = 0; i < 6000 && !signalled; ++i) {
      for (const auto& e : dir.entries())
        if (e.find(".tmp.") != std::string::npos) signalled = true;
      usleep(10000);
    }
    usleep(300000);  // let some samples arrive; the check below does not depend on it
    kill(pid, SIGINT);
  });
  ASSERT_TRUE(signalled);
  EXPECT_EQ(r.status, 128 + SIGINT) << "the child died of the forwarded SIGINT\n" << r.err;
  ASSERT_TRUE(file_exists(out)) << r.err;
  EXPECT_EQ(dir.entries().size(), 1u);
  Log log = read_log(out);
  expect_frame(log, "cpu-clock");
  expect_valid(out);
  EXPECT_GE(log.count(Kind::sysexit), 1u);
}

TEST(RecordCli, MissingCommandFailsBeforeWriting) {
  TempDir dir;
  const std::string out = dir.file("none.pmclog");
  auto r = run({kRecord, "-o", out, "--", "/nonexistent/program-xyz"});
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("program-xyz"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty()) << "nothing written";
}

TEST(RecordCli, HardwareEventFailsClearlyWithoutPmu) {
  TempDir dir;
  const std::string out = dir.file("hw.pmclog");
  auto r = run({kRecord, "-e", "cycles", "-o", out, "--", kCpuHot, "0.1"});
  if (r.status == 0) GTEST_SKIP() << "this machine has hardware counters";
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("'cycles'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cpu-clock"), std::string::npos) << "suggests the software event";
  EXPECT_NE(r.err.find("--fallback"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(RecordCli, FallbackReplacesMissingHardwareEvent) {
  TempDir dir;
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
  TempDir dir;
  const std::string out = dir.file("attach.pmclog");
  RunResult rec;
  pid_t target = 0;
  // The target runs for a fixed CPU budget; the recorder attaches for 1 s of wall time.
  auto w = run({kCpuHot, "60"}, [&](pid_t pid) {
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

TEST(RecordCli, HelpAndVersion) {
  EXPECT_EQ(run({kRecord, "--help"}).status, 0);
  auto v = run({kRecord, "--version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("pmclog-record"), std::string::npos);
}

TEST(RecordCli, LostSamplesBecomeDropnotify) {
  // A one-page ring buffer at 20 kHz, drained only every 200 ms (the tool's slow-consumer
  // test hook), overflows on any machine; sampling is statistical, so allow a few attempts.
  setenv("PMCLOG_RECORD_DRAIN_DELAY_MS", "200", 1);
  struct Unset {
    ~Unset() { unsetenv("PMCLOG_RECORD_DRAIN_DELAY_MS"); }
  } unset;
  for (int attempt = 0; attempt < 3; ++attempt) {
    TempDir dir;
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
  TempDir dir;
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
  auto r = run({kRecord, "-a", "--duration", "0.2", "-o", "/tmp/never-written.pmclog"}, {}, 65534);
  if (r.status == 125 || r.status == 126) GTEST_SKIP() << "cannot run the tool as nobody";
  EXPECT_EQ(r.status, 1) << r.err;
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
  TempDir dir;
  chmod(dir.path.c_str(), 0777);
  const std::string out = dir.file("user.pmclog");
  auto r = run({kRecord, "-o", out, "--", kCpuHot, "0.5"}, {}, 65534);
  if (r.status >= 125) GTEST_SKIP() << "nobody cannot run the build tree's programs: " << r.err;
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
  TempDir dir;
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
  EXPECT_NE(r2.err.find("capped at 32"), std::string::npos) << r2.err;
  Log l2 = read_log(out2);
  ASSERT_TRUE(l2.ok) << l2.error;
  EXPECT_EQ(l2.count(Kind::pmcallocatedyn), 0u);
  EXPECT_EQ(l2.count(Kind::pmcallocate), 1u);
  EXPECT_GE(l2.count(Kind::callchain), 10u);
  for (auto* c : l2.of(Kind::callchain)) EXPECT_LE(c->pcs.size(), 32u);
  expect_valid(out2);
}

TEST(RecordCli, CountingModeGivesEachProcessItsOwnTotal) {
  // The parent only waits while its child burns 0.5 s: each PROCEXIT holds its own count,
  // not the inherited sum.
  TempDir dir;
  const std::string out = dir.file("count-fork.pmclog");
  auto r = run({kRecord, "--count", "-e", "task-clock,page-faults", "-o", out, "--", kForkHot,
                "0.5"});
  if (r.status == 1 && r.err.find("inherited PERF_SAMPLE_READ") != std::string::npos)
    GTEST_SKIP() << "this kernel lacks what --count needs: " << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  Log log = read_log(out);
  expect_frame(log, "task-clock");
  expect_valid(out);
  uint64_t child = 0;
  ASSERT_TRUE(output_value(r.out, "child", child)) << r.out;
  const uint64_t parent = exec_pid(log, kForkHot);
  const uint64_t clock_id = (*log.of(Kind::pmcallocatedyn)[0])[Field::pmcid];
  std::map<uint64_t, uint64_t> clock;
  size_t exits = 0;
  for (auto* e : log.of(Kind::procexit)) {
    ++exits;
    if ((*e)[Field::pmcid] == clock_id) clock[(*e)[Field::pid]] = (*e)[Field::value];
  }
  EXPECT_EQ(exits, 4u) << "two processes, two events";
  ASSERT_TRUE(clock.count(child) && clock.count(parent));
  EXPECT_GT(clock[child], 250000000u) << "the child's 0.5 s of CPU, in ns";
  EXPECT_LT(clock[child], 1000000000u);
  EXPECT_LT(clock[parent], clock[child] / 2) << "the waiting parent";
}

TEST(RecordCli, BigEndianOutputReadsBack) {
  TempDir dir;
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
