// File names are untrusted text: a name with a terminal escape, a carriage
// return, a newline and a bidi override is escaped in every message of the tool.
#include <gtest/gtest.h>

#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

// ESC [31m, CR, newline, RIGHT-TO-LEFT OVERRIDE.
const std::string kName = "x\x1b[31my\r\n\xe2\x80\xae.jsonl";
const std::string kShown = "x\\e[31my\\r\\n\\u202e.jsonl";

// No control byte but the newline that ends the message, no bidi control, one line.
void expect_one_clean_line(const std::string& err) {
  for (unsigned char c : err)
    EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << int(c) << ": " << err;
  EXPECT_EQ(err.find("\xe2\x80\xae"), std::string::npos) << err;
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.find('\n'), err.size() - 1) << err;
  EXPECT_EQ(err.rfind("pmclog-write: ", 0), 0u) << err;
}

TEST(FileNames, MissingInput) {
  ScratchDir d;
  const Ran r = run({write_bin(), d / kName, "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 2);
  expect_one_clean_line(r.err);
  EXPECT_NE(r.err.find((d / kShown).string() + ": "), std::string::npos) << r.err;
}

TEST(FileNames, BadLineNamesTheInputEscaped) {
  ScratchDir d;
  write_file(d / kName, "{\"type\":\"initialize\",\"version\":\"0x03010000\",\"arch\":1}\nnot json\n");
  const Ran r = run({write_bin(), d / kName, "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 1);
  expect_one_clean_line(r.err);
  EXPECT_NE(r.err.find((d / kShown).string() + ":2: "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d / "out.pmclog"));
}

TEST(FileNames, OutputThatCannotBeCreated) {
  ScratchDir d;
  const Ran r = run({write_bin(), "synth", "-q", "-n", "10", "-o", d / kName / "out.pmclog"});
  EXPECT_EQ(r.status, 2);
  expect_one_clean_line(r.err);
  EXPECT_NE(r.err.find(kShown), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pmclog::write_test
