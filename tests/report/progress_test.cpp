// The progress line: on a terminal's standard error only, once reading has taken longer than
// the delay (1 s; PMCLOG_REPORT_PROGRESS_AFTER_MS sets it for tests, so that a small log is
// enough). The terminal is a pseudo-terminal from util-linux script(1).
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>

#include "report_support.h"

namespace {

const std::string kLog = std::string(REPORT_FIXTURES) + "/golden.pmclog";
const char* kScript = "/usr/bin/script";
const std::string kBar = "pmclog-report: reading " + kLog;

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Progress : ::testing::Test {
  reptest::TempDir dir;
  void SetUp() override {
    if (access(kScript, X_OK) != 0) GTEST_SKIP() << "no script(1)";
    if (reptest::run({kScript, "-qec", "test -t 2", "/dev/null"}).status != 0)
      GTEST_SKIP() << "no pseudo-terminal here";
  }
  // Runs the report with stderr on a terminal (stdout to a file): what the terminal showed.
  reptest::RunResult on_terminal(const std::string& env, const std::string& options) {
    const std::string cmd = env + " " + quoted(REPORT_EXE) + " " + options + " " + quoted(kLog) +
                            " > " + quoted(dir.file("out"));
    return reptest::run({kScript, "-qec", cmd, "/dev/null"});
  }
};

TEST_F(Progress, ShownOnATerminalOnceTheDelayIsOver) {
  const auto r = on_terminal("PMCLOG_REPORT_PROGRESS_AFTER_MS=0", "");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\r" + kBar + " 100%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\r\033[K"), std::string::npos) << r.out;  // and cleared after the log
  EXPECT_FALSE(reptest::read_file(dir.file("out")).empty());
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

TEST_F(Progress, NeverWhenStderrIsNotATerminal) {
  const auto r = reptest::run({"/usr/bin/env", "PMCLOG_REPORT_PROGRESS_AFTER_MS=0", REPORT_EXE, kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("reading"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

}  // namespace
