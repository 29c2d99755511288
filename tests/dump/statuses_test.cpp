// pmclog-dump on the shared command-line layer: exit statuses (a missing input or a folder 2,
// damaged compressed data 1, standard output that cannot be written 2 for every mode),
// option combinations that would have been ignored in silence (usage errors naming both
// options), and what the user is told: the -k hint after damage, a selection that matched
// nothing, the progress line of --stats on a terminal only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "run_tool.h"

namespace dumptest {
namespace {

const std::string kSeed = fixture("golden/seed-lp64-le.pmclog");
const std::string kTry = "Try 'pmclog-dump --help'.\n";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A usage error: status 2, nothing on stdout, the message naming every `part`, the Try line.
void expect_usage(const std::vector<std::string>& args, const std::vector<std::string>& parts) {
  std::string shown;
  for (const auto& a : args) shown += a + ' ';
  SCOPED_TRACE(shown);
  const Ran r = run_dump(args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("pmclog-dump: ", 0), 0u) << r.err;
  for (const auto& p : parts) EXPECT_TRUE(has(r.err, p)) << p << " in: " << r.err;
  EXPECT_TRUE(has(r.err, "\n" + kTry)) << r.err;
}

// `bytes` compressed with `command` (gzip -c, zstd -q -c, ...); "" when it failed.
std::string compress(const std::string& command, const std::string& bytes) {
  RunOptions o;
  o.stdin_data = bytes;
  const Ran r = run(words(command), o);
  return r.status == 0 ? r.out : "";
}

TEST(Statuses, MissingInputOrFolderIsTwo) {
  Ran r = run_dump({temp_dir() + "/no-such.pmclog"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "no-such.pmclog")) << r.err;
  r = run_dump({temp_dir()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "irectory")) << r.err;
  r = run_dump({"--stats", temp_dir()});
  EXPECT_EQ(r.status, 2) << r.err;
}

// Damage in the compressed bytes is bad data (1) as a damaged record is, whether it is met
// while the log is opened (a small log) or after records were printed.
TEST(Statuses, DamagedCompressedDataIsOne) {
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
    // damaged from its first bytes: the log cannot even be opened, still bad data
    std::string head = packed;
    head[c.at] = static_cast<char>(head[c.at] ^ c.flip);
    const std::string bad = temp_dir() + "/bad-head.bin";
    write_file(bad, head);
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{}, {"--stats"}, {"--show-abi"}}) {
      std::vector<std::string> args = mode;
      args.push_back(bad);
      const Ran r = run_dump(args);
      EXPECT_EQ(r.status, 1) << r.err;
      EXPECT_TRUE(has(r.err, "corrupt compressed data")) << r.err;
    }
    // cut: the data ends early
    const std::string cut = temp_dir() + "/cut.bin";
    write_file(cut, packed.substr(0, packed.size() * 3 / 4));
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{}, {"--stats"}, {"--format=jsonl", "-k"}}) {
      std::vector<std::string> args = mode;
      args.push_back(cut);
      const Ran r = run_dump(args);
      EXPECT_EQ(r.status, 1) << r.err;
      EXPECT_TRUE(has(r.err, "pmclog-dump: ")) << r.err;
    }
    // a good member, then a damaged one: the first member's records, then the error
    std::string second = packed;
    second[second.size() / 2] ^= 0x55;
    second.resize(second.size() - 4);
    const std::string two = temp_dir() + "/two.bin";
    write_file(two, packed + second);
    const Ran r = run_dump({"--format=jsonl", two});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_FALSE(r.out.empty());
  }
}

TEST(Statuses, UnwritableStandardOutputIsTwoInEveryMode) {
  RunOptions full;
  full.stdout_path = "/dev/full";
  for (const char* opts : {"--help", "-V", "--version", "--show-abi SEED", "SEED",
                                  "--stats SEED", "--format=jsonl SEED"}) {
    std::vector<std::string> args = words(opts);
    for (auto& a : args)
      if (a == "SEED") a = kSeed;
    const Ran r = run(concat({{kDump}, args}), full);
    EXPECT_EQ(r.status, 2) << opts << ": " << r.err;
    EXPECT_EQ(r.err, "pmclog-dump: standard output: No space left on device\n") << opts;
  }
}

TEST(Usage, FormatsThatCancelEachOtherAreRefused) {
  expect_usage({"--format=jsonl", "--explain", kSeed}, {"--explain", "--format=jsonl"});
  expect_usage({"--explain", "--format=pmcstat", kSeed}, {"--explain", "--format=pmcstat"});
  expect_usage({"--explain", "--stats", kSeed}, {"--explain", "--stats"});
  expect_usage({"--stats", "--format=pmcstat", kSeed}, {"--stats", "--format=pmcstat"});
  // the same format twice is no conflict
  EXPECT_EQ(run_dump({"--explain", "--format=explain", "--head", "1", kSeed}).status, 0);
}

TEST(Usage, ShowAbiTakesNoRecordOption) {
  expect_usage({"--show-abi", "--stats", kSeed}, {"--show-abi", "--stats"});
  expect_usage({"--show-abi", "--format=jsonl", kSeed}, {"--show-abi", "--format"});
  expect_usage({"--show-abi", "--explain", kSeed}, {"--show-abi", "--explain"});
  expect_usage({"--show-abi", "-k", kSeed}, {"--show-abi", "--keep-going"});
  expect_usage({"--show-abi", "--pid", "1", kSeed}, {"--show-abi", "--pid"});
  expect_usage({"--show-abi", "--type", "callchain", kSeed}, {"--show-abi", "--type"});
  expect_usage({"--show-abi", "--head", "3", kSeed}, {"--show-abi", "--head"});
  expect_usage({"--show-abi", "--from-offset", "8", kSeed}, {"--show-abi", "--from-offset"});
  EXPECT_EQ(run_dump({"--show-abi", kSeed}).status, 0);
}

TEST(Usage, EmptyOffsetRangeIsRefused) {
  expect_usage({"--from-offset", "5000", "--to-offset", "100", kSeed},
               {"--from-offset 5000", "--to-offset 100"});
  expect_usage({"--from-offset", "0x40", "--to-offset", "64", kSeed},
               {"--from-offset 0x40", "--to-offset 64"});
  EXPECT_EQ(run_dump({"--from-offset", "4784", "--to-offset", "4808", kSeed}).status, 0);
}

TEST(Usage, LibpmcAndSysrootMustNameWhatTheySay) {
  const std::string missing = temp_dir() + "/no-such-libpmc.so";
  expect_usage({"--libpmc", missing, kSeed}, {"--libpmc", "no-such-libpmc.so", "No such file"});
  expect_usage({"--libpmc", temp_dir(), kSeed}, {"--libpmc", temp_dir(), "directory"});
  expect_usage({"--sysroot", temp_dir() + "/no-root", kSeed}, {"--sysroot", "no-root"});
  expect_usage({"--sysroot", kSeed, kSeed}, {"--sysroot", "not a directory"});
  // an existing folder without a libpmc stays fine: EV_PMU events are only left unnamed
  EXPECT_EQ(run_dump({"--sysroot", temp_dir(), "--head", "1", kSeed}).status, 0);
}

// A log cut inside its last record: one error, then the hint, once.
std::string damaged_log() {
  std::string b = slurp(kSeed);
  b.resize(b.size() - 2);
  const std::string path = temp_dir() + "/cut-record.pmclog";
  write_file(path, b);
  return path;
}

TEST(Telling, StoppedByDamageSaysKeepGoingGoesOn) {
  const std::string cut = damaged_log();
  const std::string note =
      "pmclog-dump: note: stopped at the first damage; -k/--keep-going skips it and goes on\n";
  const Ran r = run_dump({cut, cut});
  EXPECT_EQ(r.status, 1);
  const size_t at = r.err.find(note);
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(note, at + 1), std::string::npos) << "once per run: " << r.err;
  for (const std::vector<std::string>& with : {std::vector<std::string>{"-k"}, {"--keep-going"}}) {
    std::vector<std::string> args = with;
    args.push_back(cut);
    const Ran k = run_dump(args);
    EXPECT_EQ(k.status, 1);
    EXPECT_FALSE(has(k.err, "note: stopped")) << k.err;
  }
  EXPECT_FALSE(has(run_dump({kSeed}).err, "note:"));
}

TEST(Telling, SelectionThatMatchesNothingWarns) {
  Ran r = run_dump({"--pid", "999999", kSeed});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "pmclog-dump: warning: no record matched --pid 999999\n");
  r = run_dump({"--stats", "--pmcid", "0x1", "--type", "callchain", kSeed});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "pmclog-dump: warning: no record matched --type callchain --pmcid 0x1\n");
  // one match in any file is enough; --head 0 asked for nothing
  r = run_dump({"--type", "initialize", kSeed, kSeed});
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(run_dump({"--pid", "999999", "--head", "0", kSeed}).err, "");
}

// script(1) gives the tool a pseudo-terminal; what it showed comes back on stdout.
struct ProgressLine : ::testing::Test {
  void SetUp() override {
    if (access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "no script(1)";
    if (run({"/usr/bin/script", "-qec", "test -t 2", "/dev/null"}).status != 0)
      GTEST_SKIP() << "no pseudo-terminal here";
  }
  // `options` and the redirection are a shell command line: script(1) runs it with a shell.
  Ran on_terminal(const std::string& options) {
    const std::string cmd = "PMCLOG_PROGRESS_AFTER_MS=0 " + shell_quote(PMCLOG_DUMP_EXE) + " " +
                            options + " >" + shell_quote(temp_dir() + "/pty.out");
    return run({"/usr/bin/script", "-qec", cmd, "/dev/null"});
  }
};

TEST_F(ProgressLine, StatsShowsItOnATerminal) {
  for (const std::string k : {"-k ", ""}) {
    const Ran r = on_terminal(k + "--stats " + shell_quote(kSeed));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(has(r.out, "\rpmclog-dump: reading " + kSeed)) << r.out;
    EXPECT_TRUE(has(r.out, "\r\033[K")) << r.out;  // erased before the summary
    EXPECT_TRUE(has(slurp(temp_dir() + "/pty.out"), "records")) << "the summary";
  }
  // compressed: no size to set the offset against, megabytes read instead
  const std::string gz = temp_dir() + "/seed.pmclog.gz";
  write_file(gz, compress("gzip -c", slurp(kSeed)));
  const Ran r = on_terminal("-k --stats " + shell_quote(gz));
  EXPECT_TRUE(has(r.out, "reading " + gz + " 0 MB")) << r.out;
}

TEST_F(ProgressLine, NotForRecordsNorWhenStderrIsNoTerminal) {
  const Ran r = on_terminal("--format=jsonl " + shell_quote(kSeed));
  EXPECT_FALSE(has(r.out, "reading")) << r.out;
  // stderr a file (the shell's redirection), then a pipe (the runner's own)
  const std::string err_file = temp_dir() + "/stderr";
  const Ran file = run_shell("PMCLOG_PROGRESS_AFTER_MS=0 $DUMP -k --stats " + shell_quote(kSeed) +
                             " 2>" + shell_quote(err_file));
  EXPECT_EQ(file.status, 0);
  EXPECT_EQ(slurp(err_file), "");
  RunOptions no_delay;
  no_delay.env = {"PMCLOG_PROGRESS_AFTER_MS=0"};
  no_delay.stdout_path = "/dev/null";
  const Ran pipe = run({kDump, "-k", "--stats", kSeed}, no_delay);
  EXPECT_EQ(pipe.err, "");
}

}  // namespace
}  // namespace dumptest
