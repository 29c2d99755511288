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

#include "scratch.h"
#include "spawn.h"

using namespace common_test;

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
  spit(d / "x.jsonl", lines);
}

// What `pmclog-record -q -o OUT -- true` needs: perf_event_open allowed here.
bool record_works() {
  ScratchDir d;
  return run(kRecord + " -q -o " + q(d / "probe.pmclog") + " -- true", d).status == 0;
}

// Each tool's way of writing OUT: the command line for a scratch folder with make_inputs().
struct Writer {
  const char* name;
  std::string (*command)(const ScratchDir& d, const fs::path& out);
};
const Writer kWriters[] = {
    {"write", [](const ScratchDir& d, const fs::path& out) {
       return kWrite + " -q " + q(d / "x.jsonl") + " -o " + q(out);
     }},
    {"write_synth", [](const ScratchDir&, const fs::path& out) {
       return kWrite + " synth -q -n 500 -o " + q(out);
     }},
    {"validate_junit", [](const ScratchDir& d, const fs::path& out) {
       return kValidate + " -q --format=junit " + q(d / "x.pmclog") + " -o " + q(out);
     }},
    {"record", [](const ScratchDir&, const fs::path& out) {
       return kRecord + " -q -o " + q(out) + " -- true";
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
  const Outcome r = run(GetParam().command(d_, d_ / "dev"), d_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_char_device(d_ / "dev")) << "the device was replaced by a regular file";
  EXPECT_EQ(d_.listing(), "dev\nx.jsonl\nx.pmclog\n");
}

TEST_P(EveryWriter, SymlinkStaysALinkAndItsTargetGetsTheContent) {
  fs::create_directory(d_ / "logs");
  spit(d_ / "logs" / "target", "old");
  fs::create_symlink("logs/target", d_ / "link");
  const Outcome r = run(GetParam().command(d_, d_ / "link"), d_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(d_ / "link")) << "the link was replaced";
  const std::string got = slurp(d_ / "logs" / "target");
  EXPECT_NE(got, "old");
  EXPECT_GT(got.size(), 16u);
  EXPECT_EQ(d_.listing(), "link\nlogs\nx.jsonl\nx.pmclog\n");
}

TEST_P(EveryWriter, FullDeviceIsAFailureAndStaysADevice) {
  if (!make_char_device(d_ / "full", 7)) GTEST_SKIP() << "mknod needs root";
  const Outcome r = run(GetParam().command(d_, d_ / "full"), d_);
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
  for (const std::string& cmd :
       {kWrite + " " + q(d / "x.jsonl") + " -o " + q(d / "x.jsonl"),
        kWrite + " " + q(d / "x.jsonl") + " -o " + q(d / "." / "x.jsonl"),
        kWrite + " - -o " + q(d / "x.jsonl") + " < " + q(d / "x.jsonl")}) {
    const Outcome r = run(cmd, d);
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
    const Outcome r = run(kValidate + " --format=junit -o " + q(d / out) + " " + q(d / "x.pmclog"), d);
    EXPECT_EQ(r.status, 2) << out;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << r.err;
    ASSERT_TRUE(slurp(d / "x.pmclog") == before) << out << ": the log was overwritten";
  }
}

TEST(WriteErrors, ValidateStandardOutputToAFullDisk) {
  ScratchDir d;
  make_inputs(d);
  const Outcome r = run(kValidate + " " + q(d / "x.pmclog") + " > /dev/full", d);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  const Outcome rules = run(kValidate + " --list-rules > /dev/full", d);
  EXPECT_EQ(rules.status, 2);
}

TEST(WriteErrors, WriteStandardOutputToAFullDisk) {
  ScratchDir d;
  const Outcome r = run(kWrite + " synth -q -n 100 -o - > /dev/full", d);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
}

// pmclog-dump's choice (tests/dump/io_test.cpp), now every tool's: the reader went away, so
// the run ends quietly with the status it had (0 for a valid log).
// The test below relies on spawn() giving the child the pipe: a tool writing to /dev/null
// instead would pass it too.
TEST(ClosedPipe, SpawnGivesTheChildThePipeAsStandardOutput) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  SpawnOptions o;
  o.stdout_fd = p[1];
  const Spawned r = spawn({kWrite, "synth", "-q", "-n", "30", "-o", "-"}, o);  // < a pipe's 64 KiB
  EXPECT_EQ(r.status, 0) << r.err;
  char buf[4096];
  const ssize_t n = read(p[0], buf, sizeof buf);  // the parent's copy of p[1] is closed
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
    SpawnOptions o;
    o.stdout_fd = p[1];
    const Spawned r = spawn(argv, o);
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
  spit(d / "bad.jsonl", lines);
  spit(d / "kept.pmclog", "previous log");
  for (const char* out : {"new.pmclog", "kept.pmclog"}) {
    const Outcome r = run(kWrite + " -q " + q(d / "bad.jsonl") + " -o " + q(d / out), d);
    EXPECT_EQ(r.status, 1) << r.err;
  }
  EXPECT_EQ(slurp(d / "kept.pmclog"), "previous log");
  EXPECT_EQ(d.listing(), "bad.jsonl\nkept.pmclog\nx.jsonl\nx.pmclog\n");
}

TEST(NothingPartial, SigtermDuringALongSynthLeavesNoFile) {
  ScratchDir d;
  const fs::path out = d / "big.pmclog";
  bool seen = false;
  const Spawned r = spawn({kWrite, "synth", "-q", "-s", "200MiB", "-o", out.string()}, {},
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
