// pmclog-validate on the shared command-line layer: exit statuses (a missing input or a
// folder 2, damaged compressed data 1, standard output that cannot be written 2 for --help,
// -V and --list-rules too), option values and combinations refused as usage errors, and the
// progress line: on a terminal only.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace validate_test {
namespace {

namespace fs = std::filesystem;

const std::string kSeed = std::string(PMCLOG_FIXTURES_DIR) + "/golden/seed-lp64-le.pmclog";
const std::string kTry = "Try 'pmclog-validate --help'.\n";

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string q(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class Statuses : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pmclog-validate-statuses-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A shell command line; VALIDATE stands for the tool. Its stdout and stderr, unless the
  // line redirects them itself.
  Outcome shell(std::string cmd) {
    for (size_t p; (p = cmd.find("VALIDATE")) != std::string::npos;)
      cmd.replace(p, 8, q(PMCLOG_VALIDATE_EXE));
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string full = "bash -c " + q(cmd) + " >" + q(out.string()) + " 2>" +
                             q(err.string()) + " </dev/null";
    const int rc = std::system(full.c_str());
    Outcome r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }
  Outcome run(const std::string& args) { return shell("VALIDATE " + args); }

  void expect_usage(const std::string& args, const std::vector<std::string>& parts) {
    SCOPED_TRACE(args);
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("pmclog-validate: ", 0), 0u) << r.err;
    for (const auto& p : parts) EXPECT_TRUE(has(r.err, p)) << p << " in: " << r.err;
    EXPECT_TRUE(has(r.err, "\n" + kTry)) << r.err;
  }

  std::string file(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  std::string compress(const std::string& command, const std::string& bytes) {
    const std::string in = file("plain.bin", bytes), out = (dir_ / "packed.bin").string();
    if (std::system((command + " < " + q(in) + " > " + q(out)).c_str()) != 0) return "";
    return slurp(out);
  }

  fs::path dir_;
};

TEST_F(Statuses, MissingInputOrFolderIsTwo) {
  Outcome r = run(q((dir_ / "no-such.pmclog").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "no-such.pmclog")) << r.err;
  r = run(q(dir_.string()));
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
    const Outcome h = run(q(file("bad-head.bin", head)));
    EXPECT_EQ(h.status, 1) << h.out << h.err;
    EXPECT_TRUE(has(h.out, ":0x0 (0): error: ")) << h.out;
    EXPECT_TRUE(has(h.out, "corrupt compressed data")) << h.out;
    EXPECT_TRUE(has(h.out, "[compressed-damaged]")) << h.out;
    const std::string cut = file("cut.bin", packed.substr(0, packed.size() * 3 / 4));
    Outcome r = run(q(cut));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "error:")) << r.out;
    EXPECT_TRUE(has(r.out, "[compressed-damaged]")) << r.out;
    EXPECT_FALSE(has(r.out, "unreadable")) << r.out;
    r = run("--format=json " + q(cut));
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_FALSE(has(r.out, "io_error")) << r.out;

    std::string second = packed;
    second[second.size() / 2] ^= 0x55;
    second.resize(second.size() - 4);
    r = run(q(file("two.bin", packed + second)));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "[compressed-damaged]")) << r.out;
  }
}

TEST_F(Statuses, UnwritableStandardOutputIsTwoForEveryMode) {
  for (const std::string& opts : {std::string("--help"), std::string("-V"), std::string("--version"),
                                  std::string("--list-rules"),
                                  std::string("--list-rules --format=json"), q(kSeed)}) {
    const Outcome r = shell("VALIDATE " + opts + " >/dev/full");
    EXPECT_EQ(r.status, 2) << opts << ": " << r.err;
    EXPECT_EQ(r.err, "pmclog-validate: standard output: No space left on device\n") << opts;
  }
}

TEST_F(Statuses, ListRulesTakesNoLog) {
  expect_usage("--list-rules " + q(kSeed), {"unexpected argument '" + kSeed + "'", "--list-rules"});
  expect_usage("--list-rules --format=github", {"--list-rules", "--format=github"});
  EXPECT_EQ(run("--list-rules --format=json").status, 0);
}

TEST_F(Statuses, NumbersOutOfRangeAreQuoted) {
  expect_usage("--max-cpu -1 " + q(kSeed), {"--max-cpu: '-1' is not"});
  expect_usage("--max-cpu=-1 " + q(kSeed), {"--max-cpu: '-1' is not"});
  expect_usage("--max-cpu 4294967296 " + q(kSeed), {"--max-cpu: '4294967296' is not"});
  expect_usage("--max-cpu 70000 " + q(kSeed), {"--max-cpu: '70000' is not"});
  expect_usage("--max-cpu 1.5 " + q(kSeed), {"--max-cpu: '1.5' is not"});
  expect_usage("--max-errors -1 " + q(kSeed), {"--max-errors: '-1' is not"});
  EXPECT_EQ(run("--max-cpu 255 " + q(kSeed)).status, 0);
  EXPECT_EQ(run("--max-errors 0 " + q(kSeed)).status, 0);
}

TEST_F(Statuses, LibpmcAndSysrootMustNameWhatTheySay) {
  expect_usage("--libpmc " + q((dir_ / "no-such.so").string()) + " " + q(kSeed),
               {"--libpmc", "no-such.so", "No such file"});
  expect_usage("--libpmc " + q(dir_.string()) + " " + q(kSeed), {"--libpmc", "directory"});
  expect_usage("--sysroot " + q((dir_ / "no-root").string()) + " " + q(kSeed),
               {"--sysroot", "no-root"});
  expect_usage("--sysroot " + q(kSeed) + " " + q(kSeed), {"--sysroot", "not a directory"});
  EXPECT_EQ(run("--sysroot " + q(dir_.string()) + " " + q(kSeed)).status, 0);
}

class ValidateProgress : public Statuses {
 protected:
  void SetUp() override {
    Statuses::SetUp();
    if (access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "no script(1)";
    if (shell("/usr/bin/script -qec 'test -t 2' /dev/null").status != 0)
      GTEST_SKIP() << "no pseudo-terminal here";
  }
  // What the terminal showed (stdout to a file).
  Outcome on_terminal(const std::string& env, const std::string& args) {
    const std::string cmd = env + " " + q(PMCLOG_VALIDATE_EXE) + " " + args + " >" +
                            q((dir_ / "pty.out").string());
    return shell("/usr/bin/script -qec " + q(cmd) + " /dev/null");
  }
};

TEST_F(ValidateProgress, ShownOnATerminal) {
  const Outcome r = on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", q(kSeed));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\rpmclog-validate: reading " + kSeed + " 0%")) << r.out;
  EXPECT_TRUE(has(r.out, "\r\033[K")) << r.out;
  EXPECT_TRUE(has(slurp(dir_ / "pty.out"), "checked 1 file")) << "the report";
  // compressed: megabytes read, not a percentage that would stay at 0
  const std::string gz = file("seed.pmclog.gz", compress("gzip -c", slurp(kSeed)));
  const Outcome z = on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", q(gz));
  EXPECT_TRUE(has(z.out, "reading " + gz + " 0 MB")) << z.out;
  // not before the delay, nor with --quiet
  EXPECT_FALSE(has(on_terminal("PMCLOG_PROGRESS_AFTER_MS=60000", q(kSeed)).out, "reading"));
  EXPECT_FALSE(has(on_terminal("PMCLOG_PROGRESS_AFTER_MS=0", "-q " + q(kSeed)).out, "reading"));
}

TEST_F(Statuses, NoProgressWhenStderrIsNoTerminal) {
  Outcome r = shell("PMCLOG_PROGRESS_AFTER_MS=0 VALIDATE " + q(kSeed));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  r = shell("PMCLOG_PROGRESS_AFTER_MS=0 VALIDATE " + q(kSeed) + " 2>&1 >/dev/null | cat >&2");
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace validate_test
