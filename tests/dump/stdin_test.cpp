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
      const Ran file = run_dump(args);
      ASSERT_EQ(file.status, 0) << file.err;
      args.pop_back();  // not back() = "-": g++-12 -O3 warns falsely there (-Wrestrict)
      args.emplace_back("-");
      const Ran redirected = run_dump(args, path);
      EXPECT_EQ(redirected.status, 0) << redirected.err;
      EXPECT_EQ(redirected.out, as_stdin(file.out, path));
      const Ran piped = run(concat({{kDump}, args}), stdin_piped(slurp(path)));
      EXPECT_EQ(piped.status, 0) << piped.err;
      EXPECT_EQ(piped.out, redirected.out);
    }
  }
}

// `{ dd bs=24 count=1 of=/dev/null; pmclog-dump -; } < f`: the dump starts where the shell's
// descriptor is, as `tail -c +25 f | pmclog-dump -` does.
TEST(Stdin, RedirectedFileIsReadFromItsOffset) {
  const std::string path = temp_dir() + "/stdin-prefixed.pmclog";
  write_file(path, std::string(24, '#') + slurp(fixture(kModern)));
  const std::string want = run_dump({"--format=jsonl", fixture(kModern)}).out;
  // A shell on purpose: the dd and the dump share the descriptor and its offset.
  const Ran r = run_shell("{ dd bs=24 count=1 of=/dev/null status=none; $DUMP --format=jsonl -; } < " +
                              shell_quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want);
  const Ran t = run({kDump, "--format=jsonl", "-"}, stdin_piped(slurp(path).substr(24)));
  EXPECT_EQ(t.out, want);
}

TEST(Stdin, DevNullIsAnEmptyInputNamedStdin) {
  const Ran r = run_dump({"-"}, "/dev/null");
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
    RunOptions pack;
    pack.stdin_path = path;
    pack.stdout_path = packed;
    ASSERT_EQ(run(concat({words(tool), {"-c"}}), pack).status, 0);
    const Ran redirected = run_dump({"--format=jsonl", "-"}, packed);
    EXPECT_EQ(redirected.status, 0) << redirected.err;
    EXPECT_EQ(redirected.out, want);
    const Ran piped = run({kDump, "--format=jsonl"}, stdin_piped(slurp(packed)));
    EXPECT_EQ(piped.status, 0) << piped.err;
    EXPECT_EQ(piped.out, want);
  }
}

TEST(Stdin, MessagesCallItStdin) {
  const Ran dir = run_dump({"-"}, temp_dir());  // < a folder: open(2) allows it, read(2) fails
  EXPECT_EQ(dir.status, 2);
  EXPECT_EQ(dir.err, "pmclog-dump: (stdin): is a directory\n");
  const std::string zip = temp_dir() + "/stdin.zip";
  write_file(zip, std::string("PK\x03\x04\x14\0\0\0", 8));
  const Ran z = run_dump({"-"}, zip);
  EXPECT_EQ(z.status, 1);
  EXPECT_EQ(z.err.rfind("pmclog-dump: (stdin): this is a zip archive", 0), 0u) << z.err;
}

// Standard input is read once, redirected or piped: a second "-" finds it at its end.
TEST(Stdin, SecondDashSeesTheRest) {
  const std::string path = fixture(kModern);
  const Ran redirected = run_dump({"--format=jsonl", "-", "-"}, path);
  const Ran piped = run({kDump, "--format=jsonl", "-", "-"}, stdin_piped(slurp(path)));
  EXPECT_EQ(redirected.status, 1);  // the second is an empty input
  EXPECT_EQ(redirected.status, piped.status);
  EXPECT_EQ(redirected.out, piped.out);
  EXPECT_EQ(redirected.err, piped.err);
  EXPECT_EQ(lines(redirected.out).size(), lines(run_dump({"--format=jsonl", path}).out).size());
}
