// pmclog-validate on the shared command-line layer: exit statuses (a missing input or a
// folder 2, damaged compressed data 1, standard output that cannot be written 2 for --help,
// -V and --list-rules too), option values and combinations refused as usage errors, and the
// progress line: on a terminal only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace validate_test {
namespace {

namespace fs = std::filesystem;
using pmclog_test::concat;
using pmclog_test::Ran;
using pmclog_test::RunOptions;
using pmclog_test::shell_quote;
using pmclog_test::slurp;
using pmclog_test::words;

const std::string kSeed = std::string(PMCLOG_FIXTURES_DIR) + "/golden/seed-lp64-le.pmclog";
const std::string kTry = "Try 'pmclog-validate --help'.\n";

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    s += a;
  }
  return s;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class Statuses : public ::testing::Test {
 protected:
  static Ran run(const std::vector<std::string>& args, const RunOptions& o = {}) {
    return pmclog_test::run(concat({{PMCLOG_VALIDATE_EXE}, args}), o);
  }

  void expect_usage(const std::vector<std::string>& args, const std::vector<std::string>& parts) {
    SCOPED_TRACE(joined(args));
    const Ran r = run(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("pmclog-validate: ", 0), 0u) << r.err;
    for (const auto& p : parts) EXPECT_TRUE(has(r.err, p)) << p << " in: " << r.err;
    EXPECT_TRUE(has(r.err, "\n" + kTry)) << r.err;
  }

  std::string file(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    pmclog_test::write_file(p, bytes);
    return p.string();
  }
  // `command` (fixed option text) from stdin to stdout; "" when it failed.
  static std::string compress(const std::string& command, const std::string& bytes) {
    RunOptions o;
    o.stdin_data = bytes;
    const Ran r = pmclog_test::run(words(command), o);
    return r.status == 0 ? r.out : "";
  }

  pmclog_test::ScratchDir scratch_;
  const fs::path dir_ = scratch_.path();
};

TEST_F(Statuses, MissingInputOrFolderIsTwo) {
  Ran r = run({(dir_ / "no-such.pmclog").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "no-such.pmclog")) << r.err;
  r = run({dir_.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "irectory")) << r.err;
}

// Damaged compressed data is a finding about the log (1, rule compressed-damaged), met while
// the log is opened (a small log) or after records were checked; not an unreadable file (2).
TEST_F(Statuses, DamagedCompressedDataIsOne) {
  const std::string plain = slurp(kSeed);
  struct Codec {
    const char* command;
    size_t at;     // a header byte that fails the stream's checks
    uint8_t flip;  // the bits to flip in it
  };
  for (const Codec& c : {Codec{"gzip -c", 2, 0x0F}, Codec{"zstd -q -c", 4, 0x08},
                         Codec{"xz -c", 8, 0xFF}, Codec{"bzip2 -c", 4, 0xFF}}) {
    SCOPED_TRACE(c.command);
    const std::string packed = compress(c.command, plain);
    ASSERT_GT(packed.size(), 64u);
    std::string head = packed;
    head[c.at] = static_cast<char>(head[c.at] ^ c.flip);
    const Ran h = run({file("bad-head.bin", head)});
    EXPECT_EQ(h.status, 1) << h.out << h.err;
    EXPECT_TRUE(has(h.out, ":0x0 (0): error: ")) << h.out;
    EXPECT_TRUE(has(h.out, "corrupt compressed data")) << h.out;
    EXPECT_TRUE(has(h.out, "[compressed-damaged]")) << h.out;
    const std::string cut = file("cut.bin", packed.substr(0, packed.size() * 3 / 4));
    Ran r = run({cut});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "error:")) << r.out;
    EXPECT_TRUE(has(r.out, "[compressed-damaged]")) << r.out;
    EXPECT_FALSE(has(r.out, "unreadable")) << r.out;
    r = run({"--format=json", cut});
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_FALSE(has(r.out, "io_error")) << r.out;

    std::string second = packed;
    second[second.size() / 2] ^= 0x55;
    second.resize(second.size() - 4);
    r = run({file("two.bin", packed + second)});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "[compressed-damaged]")) << r.out;
  }
}

TEST_F(Statuses, UnwritableStandardOutputIsTwoForEveryMode) {
  RunOptions full;
  full.stdout_path = "/dev/full";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"-V"}, {"--version"}, {"--list-rules"},
        {"--list-rules", "--format=json"}, {kSeed}}) {
    const std::string opts = joined(args);
    const Ran r = run(args, full);
    EXPECT_EQ(r.status, 2) << opts << ": " << r.err;
    EXPECT_EQ(r.err, "pmclog-validate: standard output: No space left on device\n") << opts;
  }
}

TEST_F(Statuses, ListRulesTakesNoLog) {
  expect_usage({"--list-rules", kSeed}, {"unexpected argument '" + kSeed + "'", "--list-rules"});
  expect_usage({"--list-rules", "--format=github"}, {"--list-rules", "--format=github"});
  EXPECT_EQ(run({"--list-rules", "--format=json"}).status, 0);
}

TEST_F(Statuses, NumbersOutOfRangeAreQuoted) {
  expect_usage({"--max-cpu", "-1", kSeed}, {"--max-cpu: '-1' is not"});
  expect_usage({"--max-cpu=-1", kSeed}, {"--max-cpu: '-1' is not"});
  expect_usage({"--max-cpu", "4294967296", kSeed}, {"--max-cpu: '4294967296' is not"});
  expect_usage({"--max-cpu", "70000", kSeed}, {"--max-cpu: '70000' is not"});
  expect_usage({"--max-cpu", "1.5", kSeed}, {"--max-cpu: '1.5' is not"});
  expect_usage({"--max-errors", "-1", kSeed}, {"--max-errors: '-1' is not"});
  EXPECT_EQ(run({"--max-cpu", "255", kSeed}).status, 0);
  EXPECT_EQ(run({"--max-errors", "0", kSeed}).status, 0);
}

TEST_F(Statuses, LibpmcAndSysrootMustNameWhatTheySay) {
  expect_usage({"--libpmc", (dir_ / "no-such.so").string(), kSeed},
               {"--libpmc", "no-such.so", "No such file"});
  expect_usage({"--libpmc", dir_.string(), kSeed}, {"--libpmc", "directory"});
  expect_usage({"--sysroot", (dir_ / "no-root").string(), kSeed},
               {"--sysroot", "no-root"});
  expect_usage({"--sysroot", kSeed, kSeed}, {"--sysroot", "not a directory"});
  EXPECT_EQ(run({"--sysroot", dir_.string(), kSeed}).status, 0);
}

class ValidateProgress : public Statuses {
 protected:
  void SetUp() override {
    Statuses::SetUp();
    if (access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "no script(1)";
    if (pmclog_test::run({"/usr/bin/script", "-qec", "test -t 2", "/dev/null"}).status != 0)
      GTEST_SKIP() << "no pseudo-terminal here";
  }
  // What the terminal showed (stdout to a file); script(1) runs a shell command line.
  Ran on_terminal(const std::string& env, const std::string& args) {
    const std::string cmd = env + " " + shell_quote(PMCLOG_VALIDATE_EXE) + " " + args + " >" +
                            shell_quote((dir_ / "pty.out").string());
    return pmclog_test::run({"/usr/bin/script", "-qec", cmd, "/dev/null"});
  }
};

TEST_F(ValidateProgress, ShownOnATerminal) {
  const Ran r = on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", shell_quote(kSeed));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\rpmclog-validate: reading " + kSeed + " 0%")) << r.out;
  EXPECT_TRUE(has(r.out, "\r\033[K")) << r.out;
  EXPECT_TRUE(has(slurp(dir_ / "pty.out"), "checked 1 file")) << "the report";
  // compressed: megabytes read, not a percentage that would stay at 0
  const std::string gz = file("seed.pmclog.gz", compress("gzip -c", slurp(kSeed)));
  const Ran z = on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", shell_quote(gz));
  EXPECT_TRUE(has(z.out, "reading " + gz + " 0 MB")) << z.out;
  // not before the delay, nor with --quiet
  EXPECT_FALSE(has(on_terminal("PMCLOG_PROGRESS_AFTER_MS=60000", shell_quote(kSeed)).out, "reading"));
  EXPECT_FALSE(has(on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", "-q " + shell_quote(kSeed)).out, "reading"));
}

TEST_F(Statuses, NoProgressWhenStderrIsNoTerminal) {
  // stderr a file (the shell's redirection), then a pipe (the runner's own)
  const Ran f = pmclog_test::bash("PMCLOG_PROGRESS_AFTER_MS=0 " + shell_quote(PMCLOG_VALIDATE_EXE) +
                                  " " + shell_quote(kSeed) + " 2>" +
                                  shell_quote((dir_ / "stderr").string()));
  EXPECT_EQ(f.status, 0);
  EXPECT_EQ(slurp(dir_ / "stderr"), "");
  RunOptions no_delay;
  no_delay.env = {"PMCLOG_PROGRESS_AFTER_MS=0"};
  no_delay.stdout_path = "/dev/null";
  const Ran p = run({kSeed}, no_delay);
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.err, "");
}

}  // namespace
}  // namespace validate_test
