// File names are untrusted text too: a name with a terminal escape, a
// carriage return, a newline and a bidi override is shown escaped in every message and in
// text output, and as itself in JSON.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "run_tool.h"

using namespace dumptest;

namespace {

// ESC [31m, CR, newline, RIGHT-TO-LEFT OVERRIDE.
const std::string kName = "x\x1b[31my\r\n\xe2\x80\xae.pmclog";
const std::string kShown = "x\\e[31my\\r\\n\\u202e.pmclog";

// A fresh folder for each test: the names are the same in every test.
std::string folder(const std::string& test) {
  const std::string d = temp_dir() + "/names-" + test;
  ::mkdir(d.c_str(), 0700);
  return d;
}

// No control byte (a newline ends each line and nothing else), no bidi control, and every
// line is one message of the tool (or, in pmcstat's format, pmcstat's own error line).
void expect_clean_lines(const std::string& s, const std::string& prefix) {
  for (unsigned char c : s)
    EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << int(c) << ": " << s;
  EXPECT_EQ(s.find("\xe2\x80\xae"), std::string::npos) << s;
  for (const std::string& l : lines(s))
    EXPECT_TRUE(l.rfind(prefix, 0) == 0 || l.rfind("pmcstat: ERROR: ", 0) == 0) << l;
}

}  // namespace

TEST(FileNames, MissingFileMessageIsEscaped) {
  const std::string d = folder("missing");
  const Ran r = run_dump({d + "/" + kName});
  EXPECT_EQ(r.status, 2);
  expect_clean_lines(r.err, "pmclog-dump: ");
  EXPECT_NE(r.err.find(d + "/" + kShown + ": "), std::string::npos) << r.err;
}

TEST(FileNames, DirectoryMessageIsEscaped) {  // the library's open_log words this one
  const std::string d = folder("directory");
  ASSERT_EQ(::mkdir((d + "/" + kName).c_str(), 0700), 0);
  const Ran r = run_dump({d + "/" + kName});
  EXPECT_NE(r.status, 0);
  expect_clean_lines(r.err, "pmclog-dump: ");
  EXPECT_NE(r.err.find(d + "/" + kShown + ": "), std::string::npos) << r.err;
}

TEST(FileNames, EmptyAndDamagedLogMessagesAreEscaped) {
  const std::string d = folder("damaged");
  write_file(d + "/" + kName, "");
  const Ran e = run_dump({d + "/" + kName});
  EXPECT_EQ(e.status, 1);
  expect_clean_lines(e.err, "pmclog-dump: ");
  EXPECT_NE(e.err.find(d + "/" + kShown + ": "), std::string::npos) << e.err;

  const std::string log = slurp(fixture("L3-64-le.pmclog"));
  write_file(d + "/" + kName, log.substr(0, log.size() - 3));  // the last record cut short
  for (const char* format : {"--format=text", "--format=pmcstat", "--format=jsonl"}) {
    const Ran r = run_dump({format, "--keep-going", d + "/" + kName});
    EXPECT_EQ(r.status, 1) << format;
    expect_clean_lines(r.err, "pmclog-dump: ");
    EXPECT_NE(r.err.find(d + "/" + kShown + ": "), std::string::npos) << format << r.err;
  }
}

TEST(FileNames, ShowAbiAndStatsShowTheNameEscaped) {
  const std::string d = folder("stats");
  write_file(d + "/" + kName, slurp(fixture("L3-64-le.pmclog")));
  const Ran a = run_dump({"--show-abi", d + "/" + kName});
  ASSERT_EQ(a.status, 0) << a.err;
  expect_clean_lines(a.out, "");
  EXPECT_EQ(a.out.rfind(d + "/" + kShown + ": ", 0), 0u) << a.out;

  const Ran t = run_dump({"--stats", d + "/" + kName});
  ASSERT_EQ(t.status, 0) << t.err;
  expect_clean_lines(t.out, "");
  EXPECT_EQ(t.out.rfind("file: " + d + "/" + kShown + "\n", 0), 0u) << t.out;

  // JSON carries the name itself, as a valid string.
  const Ran j = run_dump({"--stats", "--format=json", d + "/" + kName});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(j.out.find("\xe2\x80\xae"), std::string::npos) << "escaped as \\u202e";
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc.at("file").get<std::string>(), d + "/" + kName);
}

TEST(FileNames, UsageErrorsEchoValuesEscaped) {
  const Ran r = run_dump({"--type", kName, fixture("L3-64-le.pmclog")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(kShown), std::string::npos) << r.err;
  for (unsigned char c : r.err) EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << int(c);
}
