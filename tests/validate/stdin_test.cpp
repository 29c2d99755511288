// Standard input through the library's one opening path: `< file` (mapped),
// `| cat` (streamed), a compressed pipe and /dev/null give the same report, named "(stdin)"
// as in every tool's messages.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace {

namespace fs = std::filesystem;

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

std::string sh_quote(const std::string& s) {
  std::string q(1, '\'');
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  q += '\'';
  return q;
}

// Appends the pieces (literal + std::string trips g++-12's false -Wrestrict at -O3).
std::string join(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (auto p : parts) s += p;
  return s;
}

class ValidateStdin : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / join({"pmclog-validate-stdin-", std::to_string(::getpid())});
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `shell` runs with $V standing for the tool's path.
  Outcome run(std::string shell) {
    for (size_t p; (p = shell.find("$V")) != std::string::npos;)
      shell.replace(p, 2, sh_quote(PMCLOG_VALIDATE_EXE));
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd =
        join({"bash -c ", sh_quote(shell), " >", sh_quote(out.string()), " 2>", sh_quote(err.string())});
    const int rc = std::system(cmd.c_str());
    Outcome r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  // A log with findings: a copy of a fixture cut inside its last record.
  std::string damaged() {
    const std::string bytes = slurp(join({PMCLOG_FIXTURES_DIR, "/M10-64-le.pmclog"}));
    const fs::path p = dir_ / "damaged.pmclog";
    std::ofstream(p, std::ios::binary) << bytes.substr(0, bytes.size() - 5);
    return p.string();
  }

  fs::path dir_;
};

TEST_F(ValidateStdin, RedirectAndPipeGiveTheSameReport) {
  for (const std::string& path :
       {join({PMCLOG_FIXTURES_DIR, "/L3-32-be.pmclog"}), damaged()}) {
    SCOPED_TRACE(path);
    const Outcome file = run(join({"$V ", sh_quote(path)}));
    for (const std::string format : {"text", "json"}) {
      const Outcome redirected = run(join({"$V --format ", format, " - < ", sh_quote(path)}));
      const Outcome piped = run(join({"cat ", sh_quote(path), " | $V --format ", format, " -"}));
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
    EXPECT_EQ(run(join({"$V - < ", sh_quote(path)})).out, want);
  }
}

TEST_F(ValidateStdin, EveryReportFormatNamesStdinTheSameWay) {
  const std::string path = damaged();
  for (const std::string format : {"text", "json", "github", "junit"}) {
    SCOPED_TRACE(format);
    const Outcome r = run(join({"$V --format ", format, " - < ", sh_quote(path)}));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("(stdin)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\"-\""), std::string::npos) << "no file named \"-\": " << r.out;
    EXPECT_EQ(r.out.find("-:0x"), std::string::npos) << r.out;
  }
}

TEST_F(ValidateStdin, CompressedPipeIsRead) {
  const std::string path = damaged();
  const Outcome plain = run(join({"$V - < ", sh_quote(path)}));
  EXPECT_EQ(plain.status, 1);
  const Outcome gz = run(join({"gzip -c ", sh_quote(path), " | $V -"}));
  EXPECT_EQ(gz.status, plain.status);
  EXPECT_EQ(gz.out, plain.out);
}

TEST_F(ValidateStdin, DevNullIsNoLog) {
  const Outcome r = run("$V - < /dev/null");
  EXPECT_NE(r.status, 0);
  const Outcome f = run("$V /dev/null");
  EXPECT_EQ(r.status, f.status);
}

}  // namespace
