// File names are untrusted text: a command or output name with a terminal
// escape, a carriage return, a newline and a bidi override is escaped in every message.
#include <gtest/gtest.h>

#include "record_test_support.h"

using namespace rectest;

namespace {

// ESC [31m, CR, newline, RIGHT-TO-LEFT OVERRIDE.
const std::string kName = "x\x1b[31my\r\n\xe2\x80\xae.pmclog";
const std::string kShown = "x\\e[31my\\r\\n\\u202e.pmclog";

// No control byte (newlines end messages only), no bidi control; every line is a message.
void expect_clean_messages(const std::string& err) {
  for (unsigned char c : err)
    EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << int(c) << ": " << err;
  EXPECT_EQ(err.find("\xe2\x80\xae"), std::string::npos) << err;
  size_t start = 0;
  for (size_t nl; (nl = err.find('\n', start)) != std::string::npos; start = nl + 1)
    EXPECT_EQ(err.compare(start, 15, "pmclog-record: "), 0) << err.substr(start, nl - start);
}

}  // namespace

TEST(RecordNames, MissingCommand) {
  ScratchDir dir;
  auto r = run({kRecord, "-o", dir.file("out.pmclog"), "--", dir.file(kName)});
  EXPECT_EQ(r.status, 127);
  expect_clean_messages(r.err);
  std::string quoted(1, '\'');  // appends: g++-12 warns falsely (-Wrestrict) on "'" + s
  quoted += dir.file(kShown);
  quoted += '\'';
  EXPECT_NE(r.err.find(quoted), std::string::npos) << r.err;
  EXPECT_TRUE(dir.names().empty());
}

TEST(RecordNames, OutputNamedInTheSummary) {
  ScratchDir dir;
  auto r = run({kRecord, "-e", "cpu-clock", "-o", dir.file(kName), "--", kCpuHot, "0.1"});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_clean_messages(r.err);
  EXPECT_NE(r.err.find("wrote " + dir.file(kShown) + " ("), std::string::npos) << r.err;
  EXPECT_TRUE(file_exists(dir.file(kName)));
}

TEST(RecordNames, OutputThatCannotBeCreated) {
  ScratchDir dir;
  auto r = run({kRecord, "-e", "cpu-clock", "-o", dir.file(kName + "/out.pmclog"), "--",
                kCpuHot, "0.1"});
  EXPECT_NE(r.status, 0);
  expect_clean_messages(r.err);
  EXPECT_NE(r.err.find(dir.file(kShown)), std::string::npos) << r.err;
}
