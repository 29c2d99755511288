// run_main, Diagnostics and the stdout sink (tools/common): every error type maps to its
// status and its one-line message, and standard output's failures are seen. Each case runs
// in a child process, whose stdout and stderr are captured.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/program_options.hpp>
#include <functional>
#include <new>
#include <string>

#include "run_main.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using namespace pmclog::tools;
using pmclog_test::Ran;

// Runs `body` under run_main in a forked child (not the shared runner: the body is this
// program's code, there is nothing to exec). `out_path` replaces standard output when given
// ("/dev/full"); "pipe-closed" gives a pipe whose reader is already gone.
Ran run(const std::function<int(int, char**)>& body, const std::string& out_path = "") {
  const pmclog_test::ScratchDir d;
  const std::string out_file = d.file("out"), err_file = d.file("err");
  const int out_fd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err_fd = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const pid_t pid = fork();
  if (pid == 0) {
    if (out_path == "pipe-closed") {
      int p[2];
      if (pipe(p) != 0) _exit(99);
      close(p[0]);
      dup2(p[1], 1);
    } else if (!out_path.empty()) {
      const int fd = open(out_path.c_str(), O_WRONLY);
      dup2(fd, 1);
    } else {
      dup2(out_fd, 1);
    }
    dup2(err_fd, 2);
    char name[] = "tool";
    char* argv[] = {name, nullptr};
    _exit(run_main({"pmclog-test"}, 1, argv, body));
  }
  close(out_fd);
  close(err_fd);
  Ran r;
  int ws = 0;
  waitpid(pid, &ws, 0);
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  r.signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
  r.out = pmclog_test::slurp(out_file);
  r.err = pmclog_test::slurp(err_file);
  return r;
}

TEST(RunMain, StatusOfTheBodyAndItsOutput) {
  const Ran r = run([](int, char**) {
    standard_output().write("hello\n");
    standard_output().stream() << "world " << 42 << '\n';
    return 1;
  });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "hello\nworld 42\n");
  EXPECT_EQ(r.err, "");
}

TEST(RunMain, UsageErrorGetsTheTryLineAndStatus2) {
  const Ran r = run([](int, char**) -> int { throw UsageError("--depth: bad\x1b[31m"); });
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "pmclog-test: --depth: bad\\e[31m\nTry 'pmclog-test --help'.\n");
}

TEST(RunMain, ProgramOptionsErrorsAreUsageErrors) {
  const Ran r = run([](int argc, char** argv) -> int {
    boost::program_options::options_description d;
    d.add_options()("n", boost::program_options::value<int>());
    boost::program_options::variables_map vm;
    char a0[] = "tool", a1[] = "--nosuch";
    char* args[] = {a0, a1, nullptr};
    (void)argc;
    (void)argv;
    boost::program_options::store(boost::program_options::parse_command_line(2, args, d), vm);
    return 0;
  });
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("pmclog-test: unrecognised option '--nosuch'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Try 'pmclog-test --help'."), std::string::npos);
}

TEST(RunMain, FailureCarriesItsStatus) {
  const Ran r = run([](int, char**) -> int { throw Failure(Exit::bad_data, "x.pmclog: bad"); });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "pmclog-test: x.pmclog: bad\n");
}

TEST(RunMain, OutOfMemoryAndInternalErrorsAreTheToolsFailure) {
  Ran r = run([](int, char**) -> int { throw std::bad_alloc(); });
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "pmclog-test: out of memory\n");
  r = run([](int, char**) -> int { throw std::logic_error("oops"); });
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "pmclog-test: internal error: oops\n");
}

TEST(RunMain, MessagesKeepTheirOrderWithStandardOutput) {
  const Ran r = run([](int, char**) {
    standard_output().write("first\n");
    diag().warning("second");
    diag().note_once("third");
    diag().note_once("third");
    standard_output().write("fourth\n");
    return 0;
  });
  EXPECT_EQ(r.out, "first\nfourth\n");
  EXPECT_EQ(r.err, "pmclog-test: warning: second\npmclog-test: note: third\n");
}

TEST(StdoutSink, AFullDiskFailsTheRunWith2EvenAfterSuccess) {
  const Ran r = run(
      [](int, char**) {
        standard_output().write("help text\n");
        return 0;
      },
      "/dev/full");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "pmclog-test: standard output: No space left on device\n");
}

TEST(StdoutSink, AClosedPipeEndsQuietlyWithTheStatusRaised) {
  Ran r = run(
      [](int, char**) {
        for (int i = 0; i < 100000 && !standard_output().closed(); ++i)
          standard_output().write("line of text\n");
        EXPECT_TRUE(standard_output().closed());
        return 0;
      },
      "pipe-closed");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  r = run(
      [](int, char**) -> int {
        diag().raise(Exit::bad_data);
        standard_output().write(std::string(1 << 17, 'x'));
        throw_if_failed(standard_output().error());
        return 0;
      },
      "pipe-closed");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "");
}

}  // namespace
