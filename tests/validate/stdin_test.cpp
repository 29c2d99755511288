// Standard input through the library's one opening path: `< file` (mapped),
// `| cat` (streamed), a compressed pipe and /dev/null give the same report, named "(stdin)"
// as in every tool's messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

namespace fs = std::filesystem;
using pmclog_test::Ran;
using pmclog_test::RunOptions;
using pmclog_test::slurp;
using pmclog_test::stdin_piped;

class ValidateStdin : public ::testing::Test {
 protected:
  // The tool with `args`, standard input as `o` gives it.
  static Ran run(std::vector<std::string> args, const RunOptions& o = {}) {
    args.insert(args.begin(), PMCLOG_VALIDATE_EXE);
    return pmclog_test::run(args, o);
  }
  // `< path`: a regular file the tool may map.
  static RunOptions redirect_from(const std::string& path) {
    RunOptions o;
    o.stdin_path = path;
    return o;
  }

  // A log with findings: a copy of a fixture cut inside its last record.
  std::string damaged() {
    const std::string bytes = slurp(std::string(PMCLOG_FIXTURES_DIR) + "/M10-64-le.pmclog");
    const fs::path p = dir_.path() / "damaged.pmclog";
    pmclog_test::write_file(p, bytes.substr(0, bytes.size() - 5));
    return p.string();
  }

  pmclog_test::ScratchDir dir_;
};

TEST_F(ValidateStdin, RedirectAndPipeGiveTheSameReport) {
  for (const std::string& path :
       {std::string(PMCLOG_FIXTURES_DIR) + "/L3-32-be.pmclog", damaged()}) {
    SCOPED_TRACE(path);
    const Ran file = run({path});
    for (const std::string format : {"text", "json"}) {
      const Ran redirected = run({"--format", format, "-"}, redirect_from(path));
      const Ran piped = run({"--format", format, "-"}, stdin_piped(slurp(path)));
      EXPECT_EQ(redirected.status, file.status);
      EXPECT_EQ(piped.status, file.status);
      EXPECT_EQ(redirected.out, piped.out);
      EXPECT_EQ(redirected.err, piped.err);
    }
    // The text report is the file's with the name replaced by "(stdin)".
    std::string want;
    for (size_t from = 0;;) {  // built anew: replace() in place trips g++-12's -Wrestrict
      const size_t at = file.out.find(path, from);
      want.append(file.out, from, at == std::string::npos ? std::string::npos : at - from);
      if (at == std::string::npos) break;
      want += "(stdin)";
      from = at + path.size();
    }
    EXPECT_EQ(run({"-"}, redirect_from(path)).out, want);
  }
}

TEST_F(ValidateStdin, EveryReportFormatNamesStdinTheSameWay) {
  const std::string path = damaged();
  for (const std::string format : {"text", "json", "github", "junit"}) {
    SCOPED_TRACE(format);
    const Ran r = run({"--format", format, "-"}, redirect_from(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("(stdin)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\"-\""), std::string::npos) << "no file named \"-\": " << r.out;
    EXPECT_EQ(r.out.find("-:0x"), std::string::npos) << r.out;
  }
}

TEST_F(ValidateStdin, CompressedPipeIsRead) {
  const std::string path = damaged();
  const Ran plain = run({"-"}, redirect_from(path));
  EXPECT_EQ(plain.status, 1);
  const Ran packed = pmclog_test::run({"gzip", "-c", path});
  ASSERT_EQ(packed.status, 0) << packed.err;
  const Ran gz = run({"-"}, stdin_piped(packed.out));
  EXPECT_EQ(gz.status, plain.status);
  EXPECT_EQ(gz.out, plain.out);
}

TEST_F(ValidateStdin, DevNullIsNoLog) {
  const Ran r = run({"-"}, redirect_from("/dev/null"));
  EXPECT_NE(r.status, 0);
  const Ran f = run({"/dev/null"});
  EXPECT_EQ(r.status, f.status);
}

}  // namespace
