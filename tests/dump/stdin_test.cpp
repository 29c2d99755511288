// Standard input of every kind through the library's one opening path: a regular
// file (`< file`, also one read partly already), a pipe (`| cat`), /dev/null, and every
// compression, all giving what the file itself gives.
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

namespace {

const std::string kSeed = "golden/seed-lp64-le.pmclog";
const std::string kModern = "golden/modern-lp64-le.pmclog";

const std::vector<std::vector<std::string>> kModes = {
    {}, {"--format=pmcstat"}, {"--format=jsonl"}, {"--explain"}, {"--stats"}, {"--show-abi"}};

// --stats and --show-abi name the file: standard input is "(stdin)" there.
std::string as_stdin(std::string out, const std::string& path) {
  for (size_t p; (p = out.find(path)) != std::string::npos;) out.replace(p, path.size(), "(stdin)");
  return out;
}

}  // namespace

TEST(Stdin, RedirectedFileAndPipeGiveTheFilesOutput) {
  for (const auto& rel : {kSeed, kModern}) {
    const std::string path = fixture(rel);
    for (const auto& mode : kModes) {
      SCOPED_TRACE(rel + (mode.empty() ? "" : " " + mode[0]));
      std::vector<std::string> args = mode;
      args.push_back(path);
      const ToolRun file = run_dump(args);
      ASSERT_EQ(file.status, 0) << file.err;
      args.back() = "-";
      const ToolRun redirected = run_dump(args, path);
      EXPECT_EQ(redirected.status, 0) << redirected.err;
      EXPECT_EQ(redirected.out, as_stdin(file.out, path));
      std::string cmd = "cat " + shell_quote(path) + " | $DUMP";
      for (const auto& a : args) {
        cmd += ' ';
        cmd += shell_quote(a);
      }
      const ToolRun piped = run_shell(cmd);
      EXPECT_EQ(piped.status, 0) << piped.err;
      EXPECT_EQ(piped.out, redirected.out);
    }
  }
}

// `{ dd bs=24 count=1 of=/dev/null; pmclog-dump -; } < f`: the dump starts where the shell's
// descriptor is, as `tail -c +25 f | pmclog-dump -` does.
TEST(Stdin, RedirectedFileIsReadFromItsOffset) {
  const std::string path = temp_dir() + "/stdin-prefixed.pmclog";
  write_file(path, std::string(24, '#') + read_file(fixture(kModern)));
  const std::string want = run_dump({"--format=jsonl", fixture(kModern)}).out;
  const ToolRun r = run_shell("{ dd bs=24 count=1 of=/dev/null status=none; $DUMP --format=jsonl -; } < " +
                              shell_quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want);
  const ToolRun t = run_shell("tail -c +25 " + shell_quote(path) + " | $DUMP --format=jsonl -");
  EXPECT_EQ(t.out, want);
}

TEST(Stdin, DevNullIsAnEmptyInputNamedStdin) {
  const ToolRun r = run_dump({"-"}, "/dev/null");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("pmclog-dump: (stdin): empty input", 0), 0u) << r.err;
}

TEST(Stdin, EveryCompressionFromARedirectAndAPipe) {
  const std::string path = fixture(kSeed);
  const std::string want = run_dump({"--format=jsonl", path}).out;
  for (const std::string tool : {"gzip", "zstd -q", "xz", "bzip2"}) {
    SCOPED_TRACE(tool);
    const std::string packed = temp_dir() + "/stdin-packed-" + tool.substr(0, 2);
    ASSERT_EQ(run_shell(tool + " -c < " + shell_quote(path) + " > " + shell_quote(packed)).status, 0);
    const ToolRun redirected = run_dump({"--format=jsonl", "-"}, packed);
    EXPECT_EQ(redirected.status, 0) << redirected.err;
    EXPECT_EQ(redirected.out, want);
    const ToolRun piped = run_shell("cat " + shell_quote(packed) + " | $DUMP --format=jsonl");
    EXPECT_EQ(piped.status, 0) << piped.err;
    EXPECT_EQ(piped.out, want);
  }
}

TEST(Stdin, MessagesCallItStdin) {
  const ToolRun dir = run_shell("$DUMP - < " + shell_quote(temp_dir()));
  EXPECT_EQ(dir.status, 2);
  EXPECT_EQ(dir.err, "pmclog-dump: (stdin): is a directory\n");
  const std::string zip = temp_dir() + "/stdin.zip";
  write_file(zip, std::string("PK\x03\x04\x14\0\0\0", 8));
  const ToolRun z = run_dump({"-"}, zip);
  EXPECT_EQ(z.status, 1);
  EXPECT_EQ(z.err.rfind("pmclog-dump: (stdin): this is a zip archive", 0), 0u) << z.err;
}

// Standard input is read once, redirected or piped: a second "-" finds it at its end.
TEST(Stdin, SecondDashSeesTheRest) {
  const std::string path = fixture(kModern);
  const ToolRun redirected = run_dump({"--format=jsonl", "-", "-"}, path);
  const ToolRun piped = run_shell("cat " + shell_quote(path) + " | $DUMP --format=jsonl - -");
  EXPECT_EQ(redirected.status, 1);  // the second is an empty input
  EXPECT_EQ(redirected.status, piped.status);
  EXPECT_EQ(redirected.out, piped.out);
  EXPECT_EQ(redirected.err, piped.err);
  EXPECT_EQ(lines(redirected.out).size(), lines(run_dump({"--format=jsonl", path}).out).size());
}
