// Faults every tool meets: a full disk, a file size limit, unreadable
// inputs, SIGINT and SIGTERM in the middle of a run, a 4 GiB sparse file of zeros, records of
// the largest size, compressed bombs, too many distinct stacks for the report and a sysroot of
// symlink loops. Each tool is a subprocess; peak memory is wait4's ru_maxrss, checked against
// generous bounds (README.md, "Guarantees and limits", gives the measured figures).
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
#include <cstdlib>
#include <functional>
#include <iostream>
#include <cstring>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/sanitized.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace fs = std::filesystem;

namespace {

const std::string kDump = PMCLOG_DUMP_BIN, kWrite = PMCLOG_WRITE_BIN,
                  kValidate = PMCLOG_VALIDATE_BIN, kReport = PMCLOG_REPORT_BIN;

std::string cmd_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    s += a;
  }
  return s;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Standard output to /dev/null where the test does not read it: some runs print hundreds of
// megabytes.
RunOptions quiet(RunOptions o = {}) {
  if (o.stdout_path.empty() && o.stdout_fd < 0) o.stdout_path = "/dev/null";
  return o;
}

// A log from JSON Lines, through pmclog-write.
void write_log(const ScratchDir& d, const std::string& name, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  write_file(d / (name + ".jsonl"), text);
  const Ran r = run({kWrite, "-q", d.file(name + ".jsonl"), "-o", d.file(name)});
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
std::vector<uint64_t> record_offsets(const fs::path& log) {
  const Ran r = run({kDump, "--format", "jsonl", log});
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
  const auto offsets = record_offsets(d / "x.pmclog");
  ASSERT_EQ(offsets.size(), 302u) << "INITIALIZE, PMCALLOCATEDYN, 300 callchains";
  write_file(d / "out.txt", "previous report");
  const Ran r = run({kReport, "--max-stacks", "100", "--sysroot", d.path().string(), "-o",
                     (d / "out.txt").string(), (d / "x.pmclog").string()},
                    quiet());
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
  const Ran o = run({kReport, "--max-stacks", "100", "--format", "top,folded", d.file("x.pmclog")});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.out, "");
}

TEST(MaxStacks, ExactlyTheCapAndNoCapAreReports) {
  ScratchDir d;
  write_log(d, "x.pmclog", distinct_stacks(300));
  for (const char* cap : {"303", "0", "1000"}) {
    const Ran r = run({kReport, "--format", "folded", "--max-stacks", cap, "--sysroot", d.str(),
                       d.file("x.pmclog")});
    EXPECT_EQ(r.status, 0) << cap << ": " << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 300) << cap;
  }
  const Ran one_less = run({kReport, "--max-stacks", "302", d.file("x.pmclog")});
  EXPECT_EQ(one_less.status, 1) << one_less.err;
  // Samples of a stack seen before cost nothing: 300 samples of 3 stacks of 2 frames (the
  // root, the shared caller, 3 leaves) fit a cap of 5.
  std::vector<std::string> l{kInit, kCpuClock};
  for (int i = 0; i < 300; ++i) l.push_back(callchain(50, {0x401000u + 0x10u * (i % 3), 0x402000}, 2000 + i));
  write_log(d, "y.pmclog", l);
  const Ran r = run({kReport, "--format", "folded", "--max-stacks", "5", d.file("y.pmclog")});
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
  const Ran r = run({kReport, "--max-stacks", "100", d.file("a.pmclog"), d.file("b.pmclog")});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "b.pmclog: more than 100 distinct stacks")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(MaxStacks, BadValuesAreUsageErrors) {
  for (const char* v : {"x", "-1", ""}) {
    const Ran r = run({kReport, "--max-stacks", v, "/dev/null"});
    EXPECT_EQ(r.status, 2) << v;
    EXPECT_TRUE(has(r.err, "--max-stacks")) << r.err;
  }
}

// --- full disk and file size limit ----------------------------------------------------------

namespace {

// A small valid log and JSON Lines of 400 records, in `d`.
void make_inputs(const ScratchDir& d) {
  fs::copy_file(fs::path(PMCLOG_FIXTURES_DIR) / "M10-64-le.pmclog", d / "x.pmclog");
  std::string lines;
  for (int i = 0; i < 400; ++i)
    lines += "{\"type\":\"callchain\",\"pid\":" + std::to_string(100 + i) +
             ",\"pcs\":[\"0x401000\",\"0x401200\"]}\n";
  write_file(d / "x.jsonl", lines);
}

// Each tool that writes a file given by -o, as argv for a folder with make_inputs().
struct FileWriter {
  const char* name;
  std::vector<std::string> (*argv)(const ScratchDir& d, const std::string& out);
};
const FileWriter kFileWriters[] = {
    {"write", [](const ScratchDir& d, const std::string& out) {
       return std::vector<std::string>{kWrite, "-q", (d / "x.jsonl").string(), "-o", out};
     }},
    {"write_synth", [](const ScratchDir&, const std::string& out) {
       return std::vector<std::string>{kWrite, "synth", "-q", "-n", "2000", "-o", out};
     }},
    {"validate_junit", [](const ScratchDir& d, const std::string& out) {
       return std::vector<std::string>{kValidate, "-q", "--format=junit", (d / "x.pmclog").string(),
                                       "-o", out};
     }},
    {"report_folded", [](const ScratchDir& d, const std::string& out) {
       return std::vector<std::string>{kReport, "--no-progress", "--format", "folded", "--sysroot",
                                       d.path().string(), "-o", out, (d / "x.pmclog").string()};
     }},
    {"report_pprof", [](const ScratchDir& d, const std::string& out) {
       return std::vector<std::string>{kReport, "--no-progress", "--format", "pprof", "--sysroot",
                                       d.path().string(), "-o", out, (d / "x.pmclog").string()};
     }},
};

// Each tool writing to standard output, for a folder with make_inputs().
const FileWriter kStdoutWriters[] = {
    {"dump", [](const ScratchDir& d, const std::string&) {
       return std::vector<std::string>{kDump, (d / "x.pmclog").string()};
     }},
    {"validate", [](const ScratchDir& d, const std::string&) {
       return std::vector<std::string>{kValidate, "--format=json", (d / "x.pmclog").string()};
     }},
    {"write", [](const ScratchDir& d, const std::string&) {
       return std::vector<std::string>{kWrite, "-q", (d / "x.jsonl").string(), "-o", "-"};
     }},
    {"report", [](const ScratchDir& d, const std::string&) {
       return std::vector<std::string>{kReport, "--no-progress", "--format", "top,folded",
                                       "--sysroot", d.path().string(), (d / "x.pmclog").string()};
     }},
};

void PrintTo(const FileWriter& w, std::ostream* os) { *os << w.name; }
std::string writer_name(const testing::TestParamInfo<FileWriter>& i) { return i.param.name; }

}  // namespace

class FileOutput : public testing::TestWithParam<FileWriter> {
 protected:
  void SetUp() override { make_inputs(d_); }
  ScratchDir d_;
};

// /dev/full is a device: written through (never replaced), every write ENOSPC.
TEST_P(FileOutput, FullDeviceIsAnErrorWithNothingLeft) {
  const auto argv = GetParam().argv(d_, "/dev/full");
  const Ran r = run(argv, quiet());
  EXPECT_EQ(r.status, 2) << cmd_line(argv) << "\n" << r.err;
  EXPECT_TRUE(has(r.err, "No space left on device")) << r.err;
  EXPECT_TRUE(has(r.err, "/dev/full")) << "the message names the output: " << r.err;
  EXPECT_EQ(d_.listing(), "x.jsonl\nx.pmclog\n");
}

// A real write error on a regular file, without root: RLIMIT_FSIZE makes write(2) fail with
// EFBIG past 64 bytes (as ENOSPC would on a full file system, the same error path).
TEST_P(FileOutput, FileSizeLimitIsAnErrorAndTheOldFileStays) {
  write_file(d_ / "out", "previous");
  RunOptions o = quiet();
  o.file_size_limit = 64;
  const auto argv = GetParam().argv(d_, (d_ / "out").string());
  const Ran r = run(argv, o);
  EXPECT_EQ(r.status, 2) << cmd_line(argv) << "\n" << r.err;
  EXPECT_TRUE(has(r.err, "File too large")) << r.err;
  EXPECT_EQ(slurp(d_ / "out"), "previous");
  EXPECT_EQ(d_.listing(), "out\nx.jsonl\nx.pmclog\n") << "no temporary left";
}

INSTANTIATE_TEST_SUITE_P(Tools, FileOutput, testing::ValuesIn(kFileWriters), writer_name);

class StdoutOutput : public testing::TestWithParam<FileWriter> {
 protected:
  void SetUp() override { make_inputs(d_); }
  ScratchDir d_;
};

TEST_P(StdoutOutput, FullDiskIsAnError) {
  RunOptions o;
  o.stdout_path = "/dev/full";
  const auto argv = GetParam().argv(d_, "-");
  const Ran r = run(argv, o);
  EXPECT_EQ(r.status, 2) << cmd_line(argv) << "\n" << r.err;
  EXPECT_TRUE(has(r.err, "No space left on device")) << r.err;
  EXPECT_EQ(d_.listing(), "x.jsonl\nx.pmclog\n");
}

TEST_P(StdoutOutput, FileSizeLimitIsAnError) {
  RunOptions o;
  o.stdout_path = (d_ / "out").string();
  o.file_size_limit = 64;
  const auto argv = GetParam().argv(d_, "-");
  const Ran r = run(argv, o);
  EXPECT_EQ(r.status, 2) << cmd_line(argv) << "\n" << r.err;
  EXPECT_TRUE(has(r.err, "File too large")) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Tools, StdoutOutput, testing::ValuesIn(kStdoutWriters), writer_name);

// --- unreadable inputs ----------------------------------------------------------------------

namespace {

struct Reader {
  const char* name;
  int status;  // the tool's documented status for an input that cannot be read
  std::vector<std::string> (*argv)(const std::string& input);
};
const Reader kReaders[] = {
    {"dump", 2, [](const std::string& in) { return std::vector<std::string>{kDump, in}; }},
    {"dump_stats", 2,
     [](const std::string& in) { return std::vector<std::string>{kDump, "--stats", in}; }},
    {"validate", 2, [](const std::string& in) { return std::vector<std::string>{kValidate, in}; }},
    {"write", 2,
     [](const std::string& in) { return std::vector<std::string>{kWrite, "-q", in, "-o", "-"}; }},
    {"report", 2,
     [](const std::string& in) { return std::vector<std::string>{kReport, "--no-progress", in}; }},
};
void PrintTo(const Reader& w, std::ostream* os) { *os << w.name; }

}  // namespace

class BadInput : public testing::TestWithParam<Reader> {
 protected:
  void check(const std::string& input, const std::string& why) {
    const Ran r = run(GetParam().argv(input), quiet());
    EXPECT_EQ(r.status, GetParam().status) << input << ": " << r.err;
    EXPECT_TRUE(has(r.err, input)) << "the message names the input: " << r.err;
    EXPECT_TRUE(has(r.err, why)) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  ScratchDir d_;
};

TEST_P(BadInput, MissingFile) { check((d_ / "nothing.pmclog").string(), "No such file"); }

TEST_P(BadInput, Directory) { check(d_.path().string(), "directory"); }

// Root reads a mode-000 file anyway, so this one needs an unprivileged run (CI runs as root:
// skipped there).
TEST_P(BadInput, UnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a mode-000 file";
  write_file(d_ / "locked.pmclog", "x");
  chmod((d_ / "locked.pmclog").c_str(), 0);
  check((d_ / "locked.pmclog").string(), "Permission denied");
}

INSTANTIATE_TEST_SUITE_P(Tools, BadInput, testing::ValuesIn(kReaders),
                         [](const testing::TestParamInfo<Reader>& i) { return std::string(i.param.name); });

// --- SIGINT and SIGTERM in the middle of a run ---------------------------------------------

namespace {

// A tool writing -o OUT from standard input (a pipe this test holds open, so that the run is
// still going when the signal comes), or synth, which runs long on its own.
struct LongRun {
  const char* name;
  std::vector<std::string> (*argv)(const std::string& out);
  bool from_pipe;
  bool opens_first = true;  // the output's temporary exists while the input is read
};
const LongRun kLongRuns[] = {
    {"write", [](const std::string& out) { return std::vector<std::string>{kWrite, "-q", "-", "-o", out}; },
     true},
    {"write_synth", [](const std::string& out) {
       return std::vector<std::string>{kWrite, "synth", "-q", "-s", "1GiB", "-o", out};
     }, false},
    {"validate_junit", [](const std::string& out) {
       return std::vector<std::string>{kValidate, "-q", "--format=junit", "-o", out, "-"};
     }, true, false},  // the report is written once the logs are read
    {"report", [](const std::string& out) {
       return std::vector<std::string>{kReport, "--no-progress", "--format", "top,folded", "-o", out,
                                       "-o", out + ".folded", "-"};
     }, true},
};
void PrintTo(const LongRun& w, std::ostream* os) { *os << w.name; }

// A peak-memory bound for the tools of this build. Under AddressSanitizer (the CI's second
// build) every tool carries its shadow memory, 20-40 MiB more (measured: 86-90 MiB where the
// plain build takes 6-10), so the bound doubles, which still fails a tool that holds its
// input; and freed blocks wait in a quarantine of 256 MiB by default, which a bzip2 bomb
// (3.6 MiB of decoder state per member) fills: the tools these tests start get 8 MiB.
long rss_bound_kib(long mib) { return mib * 1024 * (kSanitized ? 2 : 1); }
[[maybe_unused]] const bool small_quarantine = [] {
  if (!kSanitized) return false;
  std::string o = std::getenv("ASAN_OPTIONS") != nullptr ? std::getenv("ASAN_OPTIONS") : "";
  setenv("ASAN_OPTIONS", (o + (o.empty() ? "" : ":") + "quarantine_size_mb=8").c_str(), 1);
  return true;
}();

bool has_temporary(const ScratchDir& d) {
  for (const auto& e : fs::directory_iterator(d.path()))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  return false;
}

}  // namespace

class Interrupted : public testing::TestWithParam<std::tuple<LongRun, int>> {};

TEST_P(Interrupted, DiesByTheSignalLeavingNothingAndTheOldOutput) {
  // Not a structured binding: clang 14 cannot capture those in the lambda below.
  const LongRun& run_ = std::get<0>(GetParam());
  const int sig = std::get<1>(GetParam());
  ScratchDir d;
  write_file(d / "out", "previous");
  if (std::string(run_.name) == "report") write_file(d / "out.folded", "previous folded");
  const std::string before = d.listing();
  // Input for the pipe: the head of a log (or of JSON Lines) that is never finished.
  std::string head;
  if (std::string(run_.name) == "write") {
    for (int i = 0; i < 100; ++i) head += "{\"type\":\"callchain\",\"pid\":1,\"pcs\":[\"0x401000\"]}\n";
  } else if (run_.from_pipe) {
    head = slurp(fs::path(PMCLOG_FIXTURES_DIR) / "M10-64-le.pmclog");
  }
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  RunOptions o = quiet();
  o.stdin_fd = run_.from_pipe ? p[0] : -1;
  bool consumed = false, temporary = false;
  const Ran r = run(run_.argv((d / "out").string()), o, [&](pid_t pid) {
    close(p[0]);  // the child's alone
    if (run_.from_pipe) {
      EXPECT_EQ(write(p[1], head.data(), head.size()), static_cast<ssize_t>(head.size()));
      // Until the tool has read it all: it now waits for more.
      for (int i = 0; i < 20000; ++i) {
        int left = 0;
        if (ioctl(p[1], FIONREAD, &left) != 0 || left == 0) break;
        usleep(1000);
      }
      consumed = true;
      for (int i = 0; i < 2000 && !has_temporary(d); ++i) usleep(1000);
    } else {
      for (int i = 0; i < 20000 && !has_temporary(d); ++i) usleep(1000);
      consumed = has_temporary(d);
    }
    temporary = has_temporary(d);
    kill(pid, sig);
  });
  close(p[1]);
  EXPECT_TRUE(consumed) << "the run had not started when the signal came";
  // Those that open their output first: the signal finds a temporary to remove.
  EXPECT_EQ(temporary, run_.opens_first) << "a temporary when the signal came";
  EXPECT_EQ(r.signal, sig) << "a shell shows " << 128 + sig << "; status " << r.status << ": " << r.err;
  EXPECT_EQ(r.status, 128 + sig);
  EXPECT_EQ(slurp(d / "out"), "previous");
  EXPECT_EQ(d.listing(), before) << "no temporary left";
}

INSTANTIATE_TEST_SUITE_P(Tools, Interrupted,
                         testing::Combine(testing::ValuesIn(kLongRuns), testing::Values(SIGINT, SIGTERM)),
                         [](const testing::TestParamInfo<std::tuple<LongRun, int>>& i) {
                           return std::string(std::get<0>(i.param).name) +
                                  (std::get<1>(i.param) == SIGINT ? "_SIGINT" : "_SIGTERM");
                         });

// --- a 4 GiB sparse file of zeros ------------------------------------------------------------

// Zeros are no record: each reader says so at offset 0 at once, without reading (or keeping)
// 4 GiB. The file is sparse: no disk space is used.
TEST(SparseZeros, FourGibibytesFailAtOffsetZeroInLittleMemory) {
  ScratchDir d;
  const fs::path big = d / "zeros.pmclog";
  {
    const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, off_t{4} << 30), 0) << std::strerror(errno);
    close(fd);
  }
  const std::vector<std::vector<std::string>> runs = {
      {kDump, big.string()},
      {kDump, "--stats", big.string()},
      {kValidate, big.string()},
      {kReport, "--no-progress", big.string()},
  };
  for (const auto& argv : runs) {
    const Ran r = run(argv);  // stdout too: pmclog-validate's findings
    const std::string said = r.err + r.out;
    EXPECT_EQ(r.status, 1) << cmd_line(argv) << "\n" << said;
    EXPECT_TRUE(has(said, "zeros.pmclog")) << said;
    EXPECT_TRUE(has(said, "at byte 0")) << cmd_line(argv) << "\n" << said;
    EXPECT_LT(r.max_rss_kib, rss_bound_kib(64)) << cmd_line(argv);
  }
}

// --- the largest records ----------------------------------------------------------------------

namespace {

// The readers over a log, each writing nothing but what it must.
std::vector<std::vector<std::string>> readers_of(const std::string& log) {
  return {{kDump, log},
          {kDump, "--stats", log},
          {kValidate, "-o", "/dev/stderr", log},  // its findings where Ran::err has them
          {kReport, "--no-progress", "--format", "top,folded", "-o", "/dev/null", "-o", "/dev/null", log}};
}

}  // namespace

// The largest record an M10 log can hold is a CALLCHAIN of the generation's depth limit
// (512 frames, format.md §10: 4128 bytes; paths stop at PATH_MAX). 20,000 of them (80 MB)
// are read with memory that does not grow with the log (the 100,000-record run, by hand, is
// in README.md). Their stacks are all distinct, 512 new stack-table nodes each: the report
// stops at its --max-stacks cap, which bounds its memory.
TEST(LargestRecords, DeepestCallchainsInBoundedMemory) {
  ScratchDir d;
  const fs::path log = d / "deep.pmclog";
  const Ran w = run({kWrite, "synth", "-q", "--depth", "512..512", "-n", "20000", "-o", log});
  ASSERT_EQ(w.status, 0) << w.err;
  ASSERT_GT(fs::file_size(log), 20000u * 3500u) << "mostly callchains of 512 frames";
  for (const std::string& in : {log.string(), std::string("-")}) {  // mapped, then streamed
    RunOptions o = quiet();
    o.stdin_path = log.string();
    for (auto argv : readers_of(in)) {
      const bool report = argv[0] == kReport;
      if (report) argv.insert(argv.begin() + 1, {"--max-stacks", "1000000"});
      const Ran r = run(argv, o);
      EXPECT_EQ(r.status, report ? 1 : 0) << cmd_line(argv) << "\n" << r.err;
      if (report) {
        EXPECT_TRUE(has(r.err, "more than 1000000 distinct stacks")) << r.err;
      }
      EXPECT_LT(r.max_rss_kib, rss_bound_kib(report ? 448 : 64)) << cmd_line(argv);
      std::cout << "peak RSS " << r.max_rss_kib << " KiB: " << cmd_line(argv) << "\n";
    }
  }
}

// --- compressed bombs -------------------------------------------------------------------------

namespace {

struct Compressor {
  const char* name;
  std::vector<std::string> argv;  // stdin to stdout
  int mib;                        // of the bomb's records (bzip2 decompresses at ~20 MB/s)
};
const Compressor kCompressors[] = {{"gzip", {"gzip", "-c"}, 256},
                                   {"zstd", {"zstd", "-q", "-c"}, 256},
                                   {"xz", {"xz", "-c"}, 256},
                                   {"bzip2", {"bzip2", "-c"}, 64}};

void PrintTo(const Compressor& c, std::ostream* os) { *os << c.name; }

// `c` compresses file `in` into file `out`.
Ran compress(const Compressor& c, const fs::path& in, const fs::path& out) {
  RunOptions o;
  o.stdin_path = in.string();
  o.stdout_path = out.string();
  return run(c.argv, o);
}

// A log's first records and 254 CALLCHAINs of 512 frames (1 MiB), then `members` - 1 more
// members of the same 254 records, each compressed on its own and concatenated (gzip -c a
// >> b, pbzip2, ... every reader takes such members): 1 MiB * members of valid records from
// a few MiB at most, compressed only twice.
void write_bomb(const ScratchDir& d, const Compressor& c, int members, const fs::path& out) {
  std::vector<std::string> l{kInit, kCpuClock};
  std::vector<uint64_t> pcs;
  for (uint64_t k = 0; k < 512; ++k) pcs.push_back(0x401000 + 16 * k);
  l.push_back(callchain(50, pcs, 2000));
  write_log(d, "one.pmclog", l);
  const std::string one = slurp(d / "one.pmclog");
  const auto offsets = record_offsets(d / "one.pmclog");
  const std::string rec = one.substr(offsets.at(2));
  std::string chunk;
  while (chunk.size() + rec.size() <= (size_t{1} << 20)) chunk += rec;
  write_file(d / "first", one.substr(0, offsets.at(2)) + chunk);
  write_file(d / "chunk", chunk);
  const Ran r = compress(c, d / "first", d / "first.c");
  ASSERT_EQ(r.status, 0) << r.err;
  const Ran r2 = compress(c, d / "chunk", d / "chunk.c");
  ASSERT_EQ(r2.status, 0) << r2.err;
  const std::string first = slurp(d / "first.c"), more = slurp(d / "chunk.c");
  std::string bomb = first;
  for (int i = 1; i < members; ++i) bomb += more;
  write_file(out, bomb);
  for (const char* f : {"one.pmclog", "first", "chunk", "first.c", "chunk.c"}) fs::remove(d / f);
}

}  // namespace

class Bomb : public testing::TestWithParam<Compressor> {};

// 256 MiB of records (64 for bzip2): the decoders hold a buffer, pmclog-report its
// reordering window of 65,536 records (Options::reorder_window), here the largest
// callchains (4 KiB of frames each: the window's most, about 290 MiB).
TEST_P(Bomb, RepeatedRecordsInBoundedMemory) {
  ScratchDir d;
  const fs::path log = d / (std::string("bomb.") + GetParam().name);
  write_bomb(d, GetParam(), GetParam().mib, log);
  ASSERT_LT(fs::file_size(log), 16u << 20);
  for (const auto& argv : readers_of(log.string())) {
    const Ran r = run(argv, quiet());
    EXPECT_EQ(r.status, 0) << cmd_line(argv) << "\n" << r.err;
    const bool report = argv[0] == kReport;
    EXPECT_LT(r.max_rss_kib, rss_bound_kib(report ? 400 : 64)) << cmd_line(argv);
    std::cout << "peak RSS " << r.max_rss_kib << " KiB: " << argv[0].substr(argv[0].rfind('/') + 1)
              << " " << argv[1] << "\n";
  }
}

// Zeros are no record: the reader stops at offset 0 of the decompressed bytes, long before
// the end of the bomb.
TEST_P(Bomb, ZerosStopAtOffsetZero) {
  ScratchDir d;
  const fs::path log = d / (std::string("zeros.") + GetParam().name);
  // Through a pipe, so that the compressor cannot size its output to the input.
  std::string line;
  for (const auto& a : GetParam().argv) {
    line += ' ';
    line += shell_quote(a);
  }
  const Ran c = bash("head -c 64M /dev/zero |" + line + " > " + shell_quote(log.string()));
  ASSERT_EQ(c.status, 0) << c.err;
  for (const auto& argv : readers_of(log.string())) {
    const Ran r = run(argv, quiet());
    EXPECT_EQ(r.status, 1) << cmd_line(argv) << "\n" << r.err;
    EXPECT_TRUE(has(r.err, "at byte 0")) << cmd_line(argv) << "\n" << r.err;
    EXPECT_LT(r.max_rss_kib, rss_bound_kib(64)) << cmd_line(argv);
  }
}

INSTANTIATE_TEST_SUITE_P(Compressions, Bomb, testing::ValuesIn(kCompressors),
                         [](const testing::TestParamInfo<Compressor>& i) { return std::string(i.param.name); });

// A zstd frame that asks for a 1 GiB window (zstd --long=30 over a pipe, whose size it
// cannot know) is refused with the cap, instead of allocating the window.
TEST(Bomb, ZstdWindowAboveTheCapIsRefused) {
  ScratchDir d;
  write_file(d / "raw", std::string(1 << 20, 'x'));
  const fs::path log = d / "long.zst";
  // Through a pipe on purpose: zstd cannot know the size, so it keeps the window it was given.
  const Ran c = bash("cat " + shell_quote(d.file("raw")) + " | zstd -q --long=30 -c > " +
                     shell_quote(log.string()));
  ASSERT_EQ(c.status, 0) << c.err;
  for (const auto& argv : readers_of(log.string())) {
    const Ran r = run(argv, quiet());
    EXPECT_NE(r.status, 0) << cmd_line(argv) << "\n" << r.err;
    EXPECT_TRUE(has(r.err, "128 MiB")) << cmd_line(argv) << "\n" << r.err;
    EXPECT_LT(r.max_rss_kib, rss_bound_kib(64)) << cmd_line(argv);
  }
}

// --- a sysroot of symlink loops -------------------------------------------------------------

// Every path of the log lands in a loop (a link to itself, two links to each other, a folder
// link to its parent, an absolute link to the root): each object is missing, the report is
// written, nothing hangs.
TEST(SysrootLoops, ObjectsAreMissingAndTheReportIsWritten) {
  ScratchDir d;
  fs::create_directories(d / "root" / "lib");
  fs::create_directories(d / "root" / "usr" / "bin");
  fs::create_symlink("libc.so.7", d / "root" / "lib" / "libc.so.7");
  fs::create_symlink("b", d / "root" / "usr" / "bin" / "a");
  fs::create_symlink("a", d / "root" / "usr" / "bin" / "b");
  fs::create_symlink(".", d / "root" / "usr" / "deep");  // usr/deep/deep/... is usr
  fs::create_symlink("/boot", d / "root" / "boot");
  const std::vector<std::string> l{
      kInit, kCpuClock,
      R"({"type":"map-in","pid":4294967295,"start_hex":"0xffffffff80200000","path":"/boot/kernel/kernel","tsc":1003})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/a","tsc":1004})",
      R"({"type":"map-in","pid":50,"start_hex":"0x800400000","path":"/lib/libc.so.7","tsc":1005})",
      R"({"type":"map-in","pid":50,"start_hex":"0x800800000","path":"/usr/deep/deep/deep/x.so","tsc":1006})",
      callchain(50, {0x800400010, 0x800800010, 0x1000010}, 2000),
      callchain(50, {0x1000020}, 2001)};
  write_log(d, "x.pmclog", l);
  ScratchDir out;
  RunOptions o;
  o.stdout_path = (out / "top.txt").string();
  const Ran r = run({kReport, "--no-progress", "--no-kallsyms", "--sysroot",
                     (d / "root").string(), (d / "x.pmclog").string()}, o);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string top = slurp(out / "top.txt");
  EXPECT_TRUE(has(top, "2 samples")) << top;
  for (const char* object : {"/lib/libc.so.7", "/usr/bin/a", "/usr/deep/deep/deep/x.so"})
    EXPECT_TRUE(has(top, object)) << object << " is listed as unresolved:\n" << top;
}
