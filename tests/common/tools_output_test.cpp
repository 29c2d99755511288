// Every tool that writes a file, run as a subprocess: devices stay devices, symlinks stay
// links, an input is never its own output, write errors are failures, a closed pipe is not,
// and nothing partial is left behind. Devices are made with mknod in a scratch folder (the
// machine's own /dev is never written); tests that need root skip without it.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "devices.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

using namespace common_test;
using namespace pmclog_test;
namespace fs = std::filesystem;

namespace {

const std::string kWrite = PMCLOG_WRITE_BIN, kValidate = PMCLOG_VALIDATE_BIN,
                  kRecord = PMCLOG_RECORD_BIN, kDump = PMCLOG_DUMP_BIN, kReport = PMCLOG_REPORT_BIN;

// A small valid log and a JSON Lines input of 40 records, in `d`.
void make_inputs(const ScratchDir& d) {
  fs::copy_file(fs::path(PMCLOG_FIXTURES_DIR) / "M10-64-le.pmclog", d / "x.pmclog");
  std::string lines;
  for (int i = 0; i < 40; ++i)
    lines += "{\"type\":\"callchain\",\"pid\":" + std::to_string(100 + i) +
             ",\"pcs\":[\"0x401000\",\"0x401200\"]}\n";
  write_file(d / "x.jsonl", lines);
}

// What `pmclog-record -q -o OUT -- true` needs: perf_event_open allowed here.
bool record_works() {
  ScratchDir d;
  return run({kRecord, "-q", "-o", d.file("probe.pmclog"), "--", "true"}).status == 0;
}

// Each tool's way of writing OUT: its argv for a scratch folder with make_inputs().
struct Writer {
  const char* name;
  std::vector<std::string> (*argv)(const ScratchDir& d, const fs::path& out);
};
const Writer kWriters[] = {
    {"write", [](const ScratchDir& d, const fs::path& out) {
       return std::vector<std::string>{kWrite, "-q", d.file("x.jsonl"), "-o", out};
     }},
    {"write_synth", [](const ScratchDir&, const fs::path& out) {
       return std::vector<std::string>{kWrite, "synth", "-q", "-n", "500", "-o", out};
     }},
    {"validate_junit", [](const ScratchDir& d, const fs::path& out) {
       return std::vector<std::string>{kValidate, "-q", "--format=junit", d.file("x.pmclog"), "-o", out};
     }},
    {"record", [](const ScratchDir&, const fs::path& out) {
       return std::vector<std::string>{kRecord, "-q", "-o", out, "--", "true"};
     }},
};

void PrintTo(const Writer& w, std::ostream* os) { *os << w.name; }

}  // namespace

class EveryWriter : public testing::TestWithParam<Writer> {
 protected:
  void SetUp() override {
    make_inputs(d_);
    if (std::string(GetParam().name) == "record" && !record_works())
      GTEST_SKIP() << "perf_event_open is not allowed here";
  }
  ScratchDir d_;
};

TEST_P(EveryWriter, CharacterDeviceStaysADevice) {
  if (!make_char_device(d_ / "dev")) GTEST_SKIP() << "mknod needs root";
  const Ran r = run(GetParam().argv(d_, d_ / "dev"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_char_device(d_ / "dev")) << "the device was replaced by a regular file";
  EXPECT_EQ(d_.listing(), "dev\nx.jsonl\nx.pmclog\n");
}

TEST_P(EveryWriter, SymlinkStaysALinkAndItsTargetGetsTheContent) {
  fs::create_directory(d_ / "logs");
  write_file(d_ / "logs" / "target", "old");
  fs::create_symlink("logs/target", d_ / "link");
  const Ran r = run(GetParam().argv(d_, d_ / "link"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(d_ / "link")) << "the link was replaced";
  const std::string got = slurp(d_ / "logs" / "target");
  EXPECT_NE(got, "old");
  EXPECT_GT(got.size(), 16u);
  EXPECT_EQ(d_.listing(), "link\nlogs\nx.jsonl\nx.pmclog\n");
}

TEST_P(EveryWriter, FullDeviceIsAFailureAndStaysADevice) {
  if (!make_char_device(d_ / "full", 7)) GTEST_SKIP() << "mknod needs root";
  const Ran r = run(GetParam().argv(d_, d_ / "full"));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_TRUE(is_char_device(d_ / "full"));
  EXPECT_EQ(d_.listing(), "full\nx.jsonl\nx.pmclog\n") << "no temporary left";
}

INSTANTIATE_TEST_SUITE_P(Tools, EveryWriter, testing::ValuesIn(kWriters),
                         [](const testing::TestParamInfo<Writer>& i) {
                           return std::string(i.param.name);
                         });

TEST(SameFile, WriteRefusesItsInputAsOutput) {
  ScratchDir d;
  make_inputs(d);
  const std::string before = slurp(d / "x.jsonl");
  const std::string in = d.file("x.jsonl");
  RunOptions from_in;
  from_in.stdin_path = in;
  struct Case {
    std::vector<std::string> argv;
    RunOptions o;
  };
  for (const Case& c : {Case{{kWrite, in, "-o", in}, {}},
                        Case{{kWrite, in, "-o", d / "." / "x.jsonl"}, {}},
                        Case{{kWrite, "-", "-o", in}, from_in}}) {
    const std::string cmd = c.argv[1] + " -o " + c.argv[3];
    const Ran r = run(c.argv, c.o);
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << r.err;
    ASSERT_TRUE(slurp(d / "x.jsonl") == before) << cmd << ": the input was overwritten";
  }
  EXPECT_EQ(d.listing(), "x.jsonl\nx.pmclog\n");
}

TEST(SameFile, ValidateRefusesItsInputAsReport) {
  ScratchDir d;
  make_inputs(d);
  const std::string before = slurp(d / "x.pmclog");
  fs::create_symlink("x.pmclog", d / "alias");
  for (const char* out : {"x.pmclog", "alias"}) {
    const Ran r = run({kValidate, "--format=junit", "-o", d.file(out), d.file("x.pmclog")});
    EXPECT_EQ(r.status, 2) << out;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << r.err;
    ASSERT_TRUE(slurp(d / "x.pmclog") == before) << out << ": the log was overwritten";
  }
}

TEST(WriteErrors, ValidateStandardOutputToAFullDisk) {
  ScratchDir d;
  make_inputs(d);
  RunOptions full;
  full.stdout_path = "/dev/full";
  const Ran r = run({kValidate, d.file("x.pmclog")}, full);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  const Ran rules = run({kValidate, "--list-rules"}, full);
  EXPECT_EQ(rules.status, 2);
}

TEST(WriteErrors, WriteStandardOutputToAFullDisk) {
  RunOptions full;
  full.stdout_path = "/dev/full";
  const Ran r = run({kWrite, "synth", "-q", "-n", "100", "-o", "-"}, full);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
}

// pmclog-dump's choice (tests/dump/io_test.cpp), now every tool's: the reader went away, so
// the run ends quietly with the status it had (0 for a valid log).
// The test below relies on run() giving the child the pipe: a tool writing to /dev/null
// instead would pass it too.
TEST(ClosedPipe, RunGivesTheChildThePipeAsStandardOutput) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  RunOptions o;
  o.stdout_fd = p[1];
  const Ran r = run({kWrite, "synth", "-q", "-n", "30", "-o", "-"}, o);  // < a pipe's 64 KiB
  close(p[1]);
  EXPECT_EQ(r.status, 0) << r.err;
  char buf[4096];
  const ssize_t n = read(p[0], buf, sizeof buf);  // the writer's end is closed: never blocks
  close(p[0]);
  ASSERT_GT(n, 4);
  EXPECT_EQ(static_cast<uint8_t>(buf[3]), 0xEEu) << "an hwpmc log's first header word";
}

TEST(ClosedPipe, EveryToolEndsQuietlyWithTheSameStatus) {
  ScratchDir d;
  make_inputs(d);
  const std::string log = (d / "x.pmclog").string();
  std::vector<std::vector<std::string>> runs = {
      {kValidate, log},
      {kWrite, "synth", "-q", "-n", "1000", "-o", "-"},
      {kWrite, "-q", (d / "x.jsonl").string(), "-o", "-"},
      {kDump, log},
      {kReport, "--no-progress", "--format", "top,folded", log},
  };
  if (record_works()) runs.push_back({kRecord, "-q", "-o", "/dev/fd/1", "--", "true"});
  for (const auto& argv : runs) {
    int p[2];  // standard output: a pipe whose reader is gone
    ASSERT_EQ(pipe(p), 0);
    close(p[0]);
    RunOptions o;
    o.stdout_fd = p[1];
    const Ran r = run(argv, o);
    close(p[1]);
    EXPECT_EQ(r.status, 0) << argv[0] << " " << argv[1];
    EXPECT_EQ(r.err, "") << argv[0] << " " << argv[1];
  }
}

TEST(NothingPartial, RejectedJsonLineLeavesNoOutput) {
  ScratchDir d;
  make_inputs(d);
  std::string lines = slurp(d / "x.jsonl");
  const size_t mid = lines.find('\n', lines.size() / 2) + 1;
  lines.insert(mid, "{\"type\": not json}\n");
  write_file(d / "bad.jsonl", lines);
  write_file(d / "kept.pmclog", "previous log");
  for (const char* out : {"new.pmclog", "kept.pmclog"}) {
    const Ran r = run({kWrite, "-q", d.file("bad.jsonl"), "-o", d.file(out)});
    EXPECT_EQ(r.status, 1) << r.err;
  }
  EXPECT_EQ(slurp(d / "kept.pmclog"), "previous log");
  EXPECT_EQ(d.listing(), "bad.jsonl\nkept.pmclog\nx.jsonl\nx.pmclog\n");
}

TEST(NothingPartial, SigtermDuringALongSynthLeavesNoFile) {
  ScratchDir d;
  const fs::path out = d / "big.pmclog";
  bool seen = false;
  const Ran r = run({kWrite, "synth", "-q", "-s", "200MiB", "-o", out.string()}, {},
                   [&](pid_t pid) {
    // Until the temporary exists (it is the first thing the run creates), or the run ended.
    while (!seen && !has_ended(pid)) {
      for (const auto& e : fs::directory_iterator(d.path()))
        if (e.path().filename().string().find(".big.pmclog.tmp.") == 0) seen = true;
      if (!seen) usleep(1000);
    }
    if (seen) kill(pid, SIGTERM);
  });
  ASSERT_TRUE(seen) << "the run ended before its temporary appeared";
  EXPECT_EQ(r.signal, SIGTERM) << "a shell shows 143; status " << r.status << ", " << r.err;
  EXPECT_EQ(d.listing(), "") << "neither the output nor its temporary remains";
}
