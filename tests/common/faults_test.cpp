// Faults every tool meets (issue 16, point 5): too many distinct stacks for the report.
// Each tool is a subprocess; peak memory is wait4's ru_maxrss.
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <cstring>
#include <string>
#include <vector>

#include "scratch.h"

using namespace common_test;

namespace {

const std::string kDump = PMCLOG_DUMP_BIN, kWrite = PMCLOG_WRITE_BIN,
                  kValidate = PMCLOG_VALIDATE_BIN, kReport = PMCLOG_REPORT_BIN;

struct Spawned {
  int status = -1;  // exit status, or 128 + signal
  int signal = 0;   // the signal that ended it, 0 when it exited
  long max_rss_kib = 0;
  std::string out, err;  // out: with SpawnOptions::capture_stdout
};

struct SpawnOptions {
  std::string stdin_path = "/dev/null";
  std::string stdout_path = "/dev/null";
  rlim_t file_size_limit = RLIM_INFINITY;  // RLIMIT_FSIZE: writes past it fail with EFBIG
  int stdin_fd = -1;                       // instead of stdin_path (a pipe's read end)
  bool capture_stdout = false;             // into Spawned::out, instead of stdout_path
};

// Runs argv with its stderr through a pipe (never a file: RLIMIT_FSIZE would cut it).
// `during` runs in the parent while the child runs (the child's pid), before the stderr read.
Spawned spawn(const std::vector<std::string>& argv, const SpawnOptions& o = {},
              const std::function<void(pid_t)>& during = {}) {
  int ep[2];
  if (pipe(ep) != 0) return {};
  std::string capture = (fs::temp_directory_path() / "pmclog-faults-out.XXXXXX").string();
  const int capture_fd = o.capture_stdout ? mkstemp(capture.data()) : -1;
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = o.stdin_fd >= 0 ? o.stdin_fd : ::open(o.stdin_path.c_str(), O_RDONLY);
    const int out = o.capture_stdout ? capture_fd
                                     : ::open(o.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(ep[1], STDERR_FILENO);
    close(ep[0]);
    if (o.file_size_limit != RLIM_INFINITY) {
      signal(SIGXFSZ, SIG_IGN);  // ignored across exec: EFBIG instead of a core dump
      const rlimit lim{o.file_size_limit, o.file_size_limit};
      setrlimit(RLIMIT_FSIZE, &lim);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(ep[1]);
  if (o.stdin_fd >= 0) close(o.stdin_fd);
  if (during) during(pid);
  Spawned r;
  char buf[4096];
  for (ssize_t n; (n = read(ep[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    r.err.append(buf, static_cast<size_t>(n));
  }
  close(ep[0]);
  int st = 0;
  rusage ru{};
  while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  r.max_rss_kib = ru.ru_maxrss;
  if (o.capture_stdout) {
    close(capture_fd);
    r.out = slurp(capture);
    fs::remove(capture);
  }
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A log from JSON Lines, through pmclog-write.
void write_log(const ScratchDir& d, const std::string& name, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  spit(d / (name + ".jsonl"), text);
  const Outcome r = run(kWrite + " -q " + q(d / (name + ".jsonl")) + " -o " + q(d / name), d);
  ASSERT_EQ(r.status, 0) << r.err;
  fs::remove(d / (name + ".jsonl"));
}

const char* const kInit =
    R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,)"
    R"("version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"test","tsc":1000})";
const char* const kCpuClock =
    R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,)"
    R"("evname":"cpu-clock","tsc":1001})";

std::string callchain(uint32_t pid, const std::vector<uint64_t>& pcs, uint64_t tsc) {
  std::string s = R"({"type":"callchain","pid":)" + std::to_string(pid) + R"(,"tid":)" +
                  std::to_string(pid + 100000) +
                  R"(,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs":[)";
  for (size_t k = 0; k < pcs.size(); ++k) {
    if (k != 0) s += ',';
    s += std::to_string(pcs[k]);
  }
  return s + R"(],"tsc":)" + std::to_string(tsc) + "}";
}

// `n` samples, each its own stack (the leaf differs), over `shared` common frames.
std::vector<std::string> distinct_stacks(int n) {
  std::vector<std::string> l{kInit, kCpuClock};
  for (int i = 0; i < n; ++i)
    l.push_back(callchain(50, {0x401000u + 0x10u * static_cast<uint64_t>(i), 0x402000, 0x403000},
                          2000 + static_cast<uint64_t>(i)));
  return l;
}

// The byte offsets of a log's records, from pmclog-dump's JSON Lines.
std::vector<uint64_t> record_offsets(const ScratchDir& d, const fs::path& log) {
  const Outcome r = run(kDump + " --format jsonl " + q(log), d);
  std::vector<uint64_t> out;
  size_t at = 0;
  while ((at = r.out.find("\"offset\":", at)) != std::string::npos) {
    at += 9;
    out.push_back(std::stoull(r.out.substr(at, 24)));
  }
  return out;
}

}  // namespace

// --- --max-stacks (pmclog-report) -----------------------------------------------------------

TEST(MaxStacks, OneStackTooManyStopsWithTheCapTheFileAndTheOffset) {
  ScratchDir d;
  write_log(d, "x.pmclog", distinct_stacks(300));
  const auto offsets = record_offsets(d, d / "x.pmclog");
  ASSERT_EQ(offsets.size(), 302u) << "INITIALIZE, PMCALLOCATEDYN, 300 callchains";
  spit(d / "out.txt", "previous report");
  const Spawned r = spawn({kReport, "--max-stacks", "100", "--sysroot", d.path().string(), "-o",
                           (d / "out.txt").string(), (d / "x.pmclog").string()});
  EXPECT_EQ(r.status, 1) << r.err;
  // Stacks are counted as stack-table nodes: the first sample makes 4 (the root, the two
  // shared frames, its leaf), each next one 1, so the 98th callchain (record 99) makes 101.
  EXPECT_TRUE(has(r.err, "x.pmclog: more than 100 distinct stacks (stack-table nodes): the "
                         "sample at offset " + std::to_string(offsets[99]) + " is one more"))
      << r.err;
  EXPECT_TRUE(has(r.err, "--max-stacks N (0: no cap)")) << r.err;
  EXPECT_EQ(slurp(d / "out.txt"), "previous report") << "nothing is written";
  EXPECT_EQ(d.listing(), "out.txt\nx.pmclog\n") << "no temporary left";
  // Standard output gets nothing either.
  const Outcome o = run(kReport + " --max-stacks 100 --output top,folded " + q(d / "x.pmclog"), d);
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.out, "");
}

TEST(MaxStacks, ExactlyTheCapAndNoCapAreReports) {
  ScratchDir d;
  write_log(d, "x.pmclog", distinct_stacks(300));
  for (const char* cap : {"303", "0", "1000"}) {
    const Outcome r = run(kReport + " --output folded --max-stacks " + cap + " --sysroot " +
                              q(d.path()) + " " + q(d / "x.pmclog"),
                          d);
    EXPECT_EQ(r.status, 0) << cap << ": " << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 300) << cap;
  }
  const Outcome one_less = run(kReport + " --max-stacks 302 " + q(d / "x.pmclog"), d);
  EXPECT_EQ(one_less.status, 1) << one_less.err;
  // Samples of a stack seen before cost nothing: 300 samples of 3 stacks of 2 frames (the
  // root, the shared caller, 3 leaves) fit a cap of 5.
  std::vector<std::string> l{kInit, kCpuClock};
  for (int i = 0; i < 300; ++i) l.push_back(callchain(50, {0x401000u + 0x10u * (i % 3), 0x402000}, 2000 + i));
  write_log(d, "y.pmclog", l);
  const Outcome r = run(kReport + " --output folded --max-stacks 5 " + q(d / "y.pmclog"), d);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);
}

// The cap is over every input: two logs of 63 and 61 nodes pass 100 in the second one.
TEST(MaxStacks, CountsOverEveryInput) {
  ScratchDir d;
  write_log(d, "a.pmclog", distinct_stacks(60));
  std::vector<std::string> l{kInit, kCpuClock};
  for (int i = 0; i < 60; ++i) l.push_back(callchain(51, {0x501000u + 0x10u * i}, 2000 + i));
  write_log(d, "b.pmclog", l);
  const Outcome r =
      run(kReport + " --max-stacks 100 " + q(d / "a.pmclog") + " " + q(d / "b.pmclog"), d);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "b.pmclog: more than 100 distinct stacks")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(MaxStacks, BadValuesAreUsageErrors) {
  ScratchDir d;
  for (const char* v : {"x", "-1", ""}) {
    const Outcome r = run(kReport + " --max-stacks '" + v + "' /dev/null", d);
    EXPECT_EQ(r.status, 2) << v;
    EXPECT_TRUE(has(r.err, "--max-stacks")) << r.err;
  }
}
