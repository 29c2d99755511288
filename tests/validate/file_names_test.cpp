// File names are untrusted text: a name with a terminal escape, a carriage
// return, a newline and a bidi override is escaped on stderr and in the text, GitHub and
// JUnit reports, and is itself (a valid JSON string, bidi control as \u202e) in JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

namespace fs = std::filesystem;
using pmclog_test::Ran;
using pmclog_test::slurp;

// ESC [31m, CR, newline, RIGHT-TO-LEFT OVERRIDE.
const std::string kName = "x\x1b[31my\r\n\xe2\x80\xae.pmclog";
const std::string kShown = "x\\e[31my\\r\\n\\u202e.pmclog";

// No control byte but newlines (and tabs, which XML allows), no bidi control.
void expect_no_raw_controls(const std::string& s) {
  for (unsigned char c : s)
    EXPECT_FALSE((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) << int(c);
  EXPECT_EQ(s.find("\xe2\x80\xae"), std::string::npos) << s;
}

class FileNames : public ::testing::Test {
 protected:
  // The tool with `args`: the hostile names reach it as they are, with no shell between.
  static Ran run(const std::vector<std::string>& args) {
    return pmclog_test::run(pmclog_test::concat({{PMCLOG_VALIDATE_EXE}, args}));
  }
  // The bundled L3 log under the hostile name, cut short so that it has an error.
  fs::path damaged() {
    const std::string log = slurp(std::string(PMCLOG_FIXTURES_DIR) + "/L3-64-le.pmclog");
    const fs::path p = dir_ / kName;
    pmclog_test::write_file(p, log.substr(0, log.size() - 3));
    return p;
  }
  std::string shown(const std::string& leaf) const { return dir_.string() + "/" + leaf; }

  pmclog_test::ScratchDir scratch_;
  const fs::path dir_ = scratch_.path();
};

TEST_F(FileNames, UnreadableFileOnStderrAndInEveryReport) {
  const fs::path missing = dir_ / kName;
  const Ran t = run({missing});
  EXPECT_EQ(t.status, 2);
  expect_no_raw_controls(t.err);
  EXPECT_EQ(t.err.rfind("pmclog-validate: " + shown(kShown) + ": ", 0), 0u) << t.err;

  const Ran j = run({"--format=json", missing});
  EXPECT_EQ(j.status, 2);
  EXPECT_EQ(j.out.find("\xe2\x80\xae"), std::string::npos) << "escaped as \\u202e";
  const auto doc = nlohmann::json::parse(j.out);  // throws (fails the test) when invalid
  EXPECT_EQ(doc["files"][0]["file"].get<std::string>(), missing.string());
  EXPECT_NE(doc["files"][0]["io_error"].get<std::string>().find(missing.string()),
            std::string::npos);

  const Ran x = run({"--format=junit", missing});
  EXPECT_EQ(x.status, 2);
  expect_no_raw_controls(x.out);
  EXPECT_NE(x.out.find("name=\"" + shown(kShown) + "\""), std::string::npos) << x.out;
  EXPECT_NE(x.out.find("<error message=\"" + shown(kShown) + ": "), std::string::npos) << x.out;

  const Ran g = run({"--format=github", missing});
  EXPECT_EQ(g.status, 2);
  expect_no_raw_controls(g.out);
  EXPECT_NE(g.out.find("::" + shown(kShown) + ": "), std::string::npos) << g.out;
}

TEST_F(FileNames, DiagnosticLinesInEveryReport) {
  const fs::path log = damaged();
  const Ran t = run({log});
  EXPECT_EQ(t.status, 1);
  expect_no_raw_controls(t.out);
  std::stringstream lines(t.out);
  std::string first;
  std::getline(lines, first);
  EXPECT_EQ(first.rfind(shown(kShown) + ":0x", 0), 0u) << t.out;

  const Ran x = run({"--format=junit", log});
  EXPECT_EQ(x.status, 1);
  expect_no_raw_controls(x.out);
  EXPECT_NE(x.out.find("name=\"" + shown(kShown) + "\""), std::string::npos) << x.out;

  const Ran g = run({"--format=github", log});
  EXPECT_EQ(g.status, 1);
  expect_no_raw_controls(g.out);

  const Ran j = run({"--format=json", log});
  EXPECT_EQ(j.status, 1);
  EXPECT_EQ(j.out.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(j.out)["files"][0]["file"].get<std::string>(), log.string());
}

TEST_F(FileNames, ReportFileThatCannotBeWritten) {
  const fs::path out = dir_ / kName / "report.xml";  // no such folder
  const Ran r = run({"--format=junit", "-o", out, damaged()});
  EXPECT_EQ(r.status, 2);
  expect_no_raw_controls(r.err);
  EXPECT_NE(r.err.find(shown(kShown)), std::string::npos) << r.err;
}

}  // namespace
