// The progress line: on a terminal's standard error only, once reading has taken longer than
// the delay (1 s; PMCLOG_REPORT_PROGRESS_AFTER_MS sets it for tests, so that a small log is
// enough). The terminal is a pseudo-terminal from util-linux script(1).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "report_support.h"

namespace {

const std::string kLog = std::string(REPORT_FIXTURES) + "/golden.pmclog";
const char* kScript = "/usr/bin/script";
const std::string kBar = "pmclog-report: reading " + kLog;

using pmclog_test::shell_quote;

struct Progress : ::testing::Test {
  reptest::ScratchDir dir;
  void SetUp() override {
    if (access(kScript, X_OK) != 0) GTEST_SKIP() << "no script(1)";
    if (reptest::run({kScript, "-qec", "test -t 2", "/dev/null"}).status != 0)
      GTEST_SKIP() << "no pseudo-terminal here";
  }
  // Runs the report with stderr on a terminal (stdout to a file): what the terminal showed.
  // script(1) runs the command line with a shell.
  reptest::Ran on_terminal(const std::string& env, const std::string& options) {
    const std::string cmd = env + " " + shell_quote(REPORT_EXE) + " " + options + " " +
                            shell_quote(kLog) + " > " + shell_quote(dir.file("out"));
    return reptest::run({kScript, "-qec", cmd, "/dev/null"});
  }
};

TEST_F(Progress, ShownOnATerminalOnceTheDelayIsOver) {
  const auto r = on_terminal("PMCLOG_REPORT_PROGRESS_AFTER_MS=0", "");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\r" + kBar + " 100%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\r\033[K"), std::string::npos) << r.out;  // and cleared after the log
  EXPECT_FALSE(reptest::slurp(dir.file("out")).empty());
}

TEST_F(Progress, NotBeforeTheDelay) {
  // The golden log takes far less than the default second.
  auto r = on_terminal("env -u PMCLOG_REPORT_PROGRESS_AFTER_MS", "");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("reading"), std::string::npos) << r.out;
  r = on_terminal("PMCLOG_REPORT_PROGRESS_AFTER_MS=60000", "");
  EXPECT_EQ(r.out.find("reading"), std::string::npos) << r.out;
}

TEST_F(Progress, NeverWithNoProgress) {
  const auto r = on_terminal("PMCLOG_REPORT_PROGRESS_AFTER_MS=0", "--no-progress");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("reading"), std::string::npos) << r.out;
}

// A compressed log whose bytes hold no record (zeros) is scanned for one by -k for a long
// time without a record offset: the line counts the decompressed bytes read, and moves.
TEST_F(Progress, MovesWhileACompressedLogIsScanned) {
  if (access("/usr/bin/zstd", X_OK) != 0) GTEST_SKIP() << "no zstd";
  const std::string z = dir.file("zeros.zst");
  // Through a pipe: zstd writes no content size, so the reader cannot know how much is left.
  ASSERT_EQ(pmclog_test::bash("head -c 256M /dev/zero | zstd -q > " + shell_quote(z)).status, 0);
  const std::string cmd = "PMCLOG_REPORT_PROGRESS_AFTER_MS=0 " + shell_quote(REPORT_EXE) +
                          " -k --format folded --generation M10 --byte-order little"
                          " --address-width 8 " + shell_quote(z) + " > /dev/null";
  const auto r = reptest::run({kScript, "-qec", cmd, "/dev/null"});
  EXPECT_EQ(r.status, 1) << r.out;  // all damage
  // Every figure the line showed, in order.
  const std::string bar = "pmclog-report: reading " + z + " ";
  std::vector<long> mb;
  for (size_t at = r.out.find(bar); at != std::string::npos; at = r.out.find(bar, at + 1))
    mb.push_back(std::strtol(r.out.c_str() + at + bar.size(), nullptr, 10));
  ASSERT_GE(mb.size(), 2u) << r.out;
  for (size_t i = 1; i < mb.size(); ++i) EXPECT_GE(mb[i], mb[i - 1]) << r.out;
  EXPECT_GE(mb.back(), 128) << r.out;  // well into the 256 MB
  EXPECT_LE(mb.back(), 256) << r.out;
  EXPECT_NE(r.out.find(" MB\033[K"), std::string::npos) << r.out;
}

TEST_F(Progress, NeverWhenStderrIsNotATerminal) {
  pmclog_test::RunOptions no_delay;
  no_delay.env = {"PMCLOG_REPORT_PROGRESS_AFTER_MS=0"};
  const auto r = pmclog_test::run({REPORT_EXE, kLog}, no_delay);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("reading"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

}  // namespace
