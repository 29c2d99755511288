// What a recording is of, as perf's options choose it: -t, one thread of a running process
// (not its other threads), and -C, the whole system on some CPUs only.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>

#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using namespace rectest;

namespace {

// The thread ids of a process, from /proc/PID/task.
std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(
           "/proc/" + std::to_string(pid) + "/task", ec))
    out.push_back(static_cast<pid_t>(std::stol(e.path().filename().string())));
  return out;
}

TEST(RecordTargets, ATidRecordsThatThreadOnly) {
  ScratchDir dir;
  const std::string out = dir.file("tid.pmclog");
  Ran rec;
  pid_t worker = 0, main_thread = 0;
  run({kTwoThreads, "30"}, {}, [&](pid_t pid) {
    main_thread = pid;
    for (int i = 0; i < 50 && worker == 0; ++i) {
      usleep(20000);
      for (pid_t t : threads_of(pid))
        if (t != pid) worker = t;
    }
    if (worker != 0) rec = run({kRecord, "-t", std::to_string(worker), "--duration", "1", "-o", out});
    kill(pid, SIGKILL);
  });
  ASSERT_NE(worker, 0) << "the workload's second thread never showed";
  ASSERT_EQ(rec.status, 0) << rec.err;
  Log log = read_log(out);
  size_t samples = 0, others = 0;
  for (auto* c : log.of(Kind::callchain)) {
    if ((*c)[Field::tid] == static_cast<uint64_t>(worker)) ++samples;
    else ++others;
  }
  EXPECT_GE(samples, 20u) << "1 s of a spinning thread on a possibly busy machine";
  EXPECT_EQ(others, 0u) << "samples of other threads (main " << main_thread << ")";
  // Its process is named and mapped, as with -p.
  bool attach = false;
  for (auto* a : log.of(Kind::pmcattach))
    attach = attach || (*a)[Field::pid] == static_cast<uint64_t>(main_thread);
  EXPECT_TRUE(attach);
}

TEST(RecordTargets, ACpuListRecordsThoseCpusOnly) {
  if (geteuid() != 0) GTEST_SKIP() << "-C records the whole system: root (or paranoid <= 0)";
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "one CPU";
  ScratchDir dir;
  const std::string out = dir.file("cpu.pmclog");
  // A busy workload on both CPUs while the recorder looks at CPU 1 only.
  Ran rec;
  run({kTwoThreads, "30"}, {}, [&](pid_t pid) {
    rec = run({kRecord, "-C", "1", "--duration", "0.5", "-o", out});
    kill(pid, SIGKILL);
  });
  ASSERT_EQ(rec.status, 0) << rec.err;
  Log log = read_log(out);
  size_t on_1 = 0, elsewhere = 0;
  for (auto* c : log.of(Kind::callchain))
    ((((*c)[Field::cpuflags] >> 16) & 0xFFFF) == 1 ? on_1 : elsewhere) += 1;
  EXPECT_GE(on_1, 20u);
  EXPECT_EQ(elsewhere, 0u);
  // One system-wide pmc, for CPU 1.
  EXPECT_EQ(log.of(Kind::pmcallocatedyn).size(), 1u);
}

TEST(RecordTargets, TargetsThatDoNotGoTogetherAreUsageErrors) {
  ScratchDir dir;
  const std::string out = dir.file("x.pmclog");
  const std::vector<std::vector<std::string>> bad = {
      {"-C", "99"},          {"-C", "1-0"},         {"-C", "x"},        {"-C", ""},
      {"-C", "0,"},          {"-t", "0"},           {"-t", "-1"},       {"-t", "1", "-p", "1"},
      {"-t", "1", "--", "true"}, {"-C", "0", "-p", "1"}, {"-a", "-t", "1"}};
  for (const auto& args : bad) {
    std::vector<std::string> argv{kRecord, "-o", out};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run(argv);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find("Try 'pmclog-record --help'."), std::string::npos) << r.err;
  }
  EXPECT_TRUE(dir.names().empty()) << "nothing was written";
  // A thread that does not exist is no usage error: the recorder fails (125), as for -p.
  const auto gone = run({kRecord, "-o", out, "-t", "999999999"});
  EXPECT_EQ(gone.status, 125) << gone.err;
  EXPECT_NE(gone.err.find("no thread 999999999"), std::string::npos) << gone.err;
}

}  // namespace
