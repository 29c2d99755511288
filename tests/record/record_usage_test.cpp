// pmclog-record's command line as the other tools have it: usage errors for what cannot mean
// anything, a command without "--", standard output through the shared sink (a full disk
// fails --help too), and a reader of -o - that goes away.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "record_test_support.h"

using namespace rectest;

namespace {

// A usage error: the message on the first line, the Try line after it, status 2.
void expect_usage_error(const Ran& r, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("pmclog-record: ", 0), 0u) << r.err;
  const size_t nl = r.err.find('\n');
  ASSERT_NE(nl, std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(nl + 1), "Try 'pmclog-record --help'.\n") << r.err;
}

// `args`, then a command that leaves a marker if it runs at all.
Ran run_marked(const ScratchDir& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {kRecord, "-o", dir.file("x.pmclog")};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const char* a : {"--", "sh", "-c"}) argv.push_back(a);
  argv.push_back("touch '" + dir.file("ran") + "'");
  return run(argv);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

// --count counts: a sampling rate, a period, a callchain depth or user frames in callchains
// would be ignored in silence. The message names --count and the option as typed.
TEST(RecordUsage, CountRefusesSamplingOptions) {
  ScratchDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-F", "100"}, "-F/--freq"},        {{"--freq=100"}, "-F/--freq"},
      {{"-c", "1000"}, "-c/--period"},     {{"--period", "1000"}, "-c/--period"},
      {{"--depth", "5"}, "--depth"},       {{"--user-callchain"}, "--user-callchain"}};
  for (const auto& [args, named] : cases) {
    std::vector<std::string> a = {"--count"};
    a.insert(a.end(), args.begin(), args.end());
    auto r = run_marked(dir, a);
    expect_usage_error(r, join(a));
    EXPECT_NE(r.err.find("--count"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << r.err;
  }
  EXPECT_TRUE(dir.names().empty()) << "nothing was run or written";
}

// Values that used to be taken in silence: a zero duration (which meant "no limit"), values
// that wrapped around (-1 as an unsigned is 2^64-1), durations no clock can count to.
TEST(RecordUsage, OutOfRangeValuesNameTheOptionAndTheValue) {
  ScratchDir dir;
  const std::vector<std::vector<std::string>> bad = {
      {"--duration", "0"},      {"--duration", "-1"},        {"--duration", "nan"},
      {"--duration", "inf"},    {"--duration", "1e30"},      {"--duration", "abc"},
      {"-F", "-5"},             {"-c", "-1"},                {"--depth", "-1"},
      {"--depth", "0"},         {"--mmap-pages", "-1"},      {"--mmap-pages", "0"},
      {"--mmap-pages", "3"},    {"--mmap-pages", "1073741824"}, {"-p", "-1"},
      {"-p", "99999999999"}};
  for (const auto& args : bad) {
    auto r = run_marked(dir, args);
    expect_usage_error(r, join(args));
    EXPECT_NE(r.err.find("'" + args[1] + "'"), std::string::npos)
        << "the value is quoted: " << r.err;
    EXPECT_NE(r.err.find(args[0]), std::string::npos) << "the option is named: " << r.err;
  }
  EXPECT_TRUE(dir.names().empty()) << "nothing was run or written";
}

// A binary log on a terminal is refused before anything runs, as gzip refuses to write
// compressed data there; the message names -o.
TEST(RecordUsage, BinaryLogOnATerminalIsRefused) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminal here: " << std::strerror(errno);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  const std::string slave_name = ptsname(master);
  const int slave = open(slave_name.c_str(), O_RDWR | O_NOCTTY);
  ASSERT_GE(slave, 0);
  ScratchDir dir;
  const std::string marker = dir.file("ran");
  for (const std::string& out : {std::string("-"), slave_name}) {
    auto r = run({kRecord, "-o", out, "--", "sh", "-c", "touch '" + marker + "'"}, stdout_to(slave));
    expect_usage_error(r, "-o " + out);
    EXPECT_NE(r.err.find("-o"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("terminal"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(file_exists(marker)) << "the command did not run";
  // Nothing of the log reached the terminal.
  fcntl(master, F_SETFL, O_NONBLOCK);
  char buf[256];
  EXPECT_LE(read(master, buf, sizeof buf), 0);
  close(slave);
  close(master);
}

// The help lists for --generation what the recorder accepts, and nothing else.
TEST(RecordUsage, HelpListsTheGenerationsItAccepts) {
  auto h = run({kRecord, "--help"});
  ASSERT_EQ(h.status, 0);
  const size_t at = h.out.find("--generation");
  ASSERT_NE(at, std::string::npos) << h.out;
  const std::string text = h.out.substr(at, h.out.find("(default", at) - at);
  std::istringstream words(text);
  std::vector<std::string> listed;
  for (std::string w; words >> w;) {
    while (!w.empty() && (w.back() == ',' || w.back() == ')')) w.pop_back();
    if (w.size() >= 1 && w.size() <= 3 && (w[0] == 'L' || w[0] == 'M') &&
        w.find_first_not_of("LM0123456789") == std::string::npos)
      listed.push_back(w);
  }
  ASSERT_GE(listed.size(), 4u) << text;
  ScratchDir dir;
  for (const auto& g : listed) {
    auto r = run({kRecord, "-q", "--generation", g, "-o", dir.file("g.pmclog"), "--", "true"});
    EXPECT_EQ(r.status, 0) << "the help lists " << g << ": " << r.err;
  }
  auto l1 = run({kRecord, "--generation", "L1", "-o", dir.file("l1.pmclog"), "--", "true"});
  expect_usage_error(l1, "--generation L1");
}

// As perf: the first argument that is not an option starts the command, whose own options
// are its own; "--" still works; an option's value is never taken for the command.
TEST(RecordArgs, CommandWithoutDoubleDash) {
  ScratchDir dir;
  const std::string out = dir.file("c.pmclog");
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string printed;
  };
  const std::string print = "printf '%s\\n' \"$0\" \"$@\"";
  const std::vector<Case> cases = {
      {{"-q", "-o", out, "sh", "-c", print + "; exit 3", "--help", "-la"}, 3, "--help\n-la\n"},
      {{"-q", "-e", "cpu-clock", "-o", out, "sh", "-c", print, "x", "-e"}, 0, "x\n-e\n"},
      {{"-qo", out, "-ecpu-clock", "sh", "-c", print, "x", "--", "-F", "5"}, 0,
       "x\n--\n-F\n5\n"},
      {{"-q", "--output=" + out, "--duration", "5", "sh", "-c", print, "ok"}, 0, "ok\n"},
      {{"-q", "-o", out, "--", "sh", "-c", print, "-la"}, 0, "-la\n"}};
  for (const auto& c : cases) {
    std::vector<std::string> argv = {kRecord};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    unlink(out.c_str());
    auto r = run(argv);
    SCOPED_TRACE(join(c.args));
    EXPECT_EQ(r.status, c.status) << r.err;
    EXPECT_EQ(r.out, c.printed) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(read_log(out).ok);
  }
}

// Standard output through the shared sink: a full disk fails --help, -V and --list-events
// with 2 and the reason, instead of 0 and nothing shown.
TEST(RecordOutput, FullStandardOutputFails) {
  const int full = open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  for (const char* opt : {"--help", "-V", "--list-events"}) {
    auto r = run({kRecord, opt}, stdout_to(full));
    EXPECT_EQ(r.status, 2) << opt << ": " << r.err;
    EXPECT_EQ(r.err, "pmclog-record: standard output: No space left on device\n") << opt;
  }
  close(full);
}

// A log that cannot be written (a full disk) is the recorder's own failure while the command
// ran: 125, the reason named, and no claim to have written anything.
TEST(RecordOutput, FullLogOutputIs125) {
  auto r = run({kRecord, "-o", "/dev/full", "--", "sh", "-c", "exit 3"});
  EXPECT_EQ(r.status, 125) << r.err;
  EXPECT_NE(r.err.find("/dev/full: No space left on device"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("wrote"), std::string::npos) << r.err;
}

// `-o - | head -c 10`: the reader goes away. The recorder says nothing of having written the
// log (no byte count that was not delivered), and its status is the command's.
TEST(RecordOutput, ReaderThatGoesAwayGetsNoClaim) {
  for (bool read_some : {false, true}) {
    SCOPED_TRACE(read_some ? "head -c 10" : "closed at once");
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);  // the reader's end is the test's alone
    // A small pipe, so that the log does not fit and the writer sees the reader go.
    fcntl(p[1], F_SETPIPE_SZ, 4096);
    std::vector<std::string> argv = {kRecord, "-F", "1000", "-o", "-", "--", "sh", "-c",
                                     "'" + kCpuHot + "' 0.2 >/dev/null; exit 3"};
    auto r = run(argv, stdout_to(p[1]), [&](pid_t) {
      close(p[1]);
      if (read_some) {
        char buf[10];
        size_t got = 0;
        while (got < sizeof buf) {
          const ssize_t n = read(p[0], buf + got, sizeof buf - got);
          if (n <= 0) break;
          got += static_cast<size_t>(n);
        }
        EXPECT_EQ(got, sizeof buf);
      }
      close(p[0]);
    });
    EXPECT_EQ(r.status, 3) << "the command's status: " << r.err;
    EXPECT_EQ(r.err.find("wrote"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("bytes"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("Broken pipe"), std::string::npos) << r.err;
  }
}
