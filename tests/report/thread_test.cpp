// --by thread / --by tid: the names THR_CREATE gives threads, as perf report --sort comm,tid.
// Logs are written by pmclog-write from JSON Lines; the expected rows come from the records.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "report_support.h"

namespace {

const char* kInit =
    R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,)"
    R"("version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"test","tsc":1000000000})";
const char* kCpuClock =
    R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock"})";

std::string sample(uint32_t pid, uint32_t tid, const std::string& pcs) {
  return R"({"type":"callchain","pid":)" + std::to_string(pid) + R"(,"tid":)" +
         std::to_string(tid) + R"(,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":[)" + pcs +
         "]}";
}

std::string thr_create(uint32_t pid, uint32_t tid, const std::string& name) {
  return R"({"type":"thr-create","tid":)" + std::to_string(tid) + R"(,"pid":)" +
         std::to_string(pid) + R"(,"flags":0,"tdname":")" + name + "\"}";
}

// Two named threads and one never named, interleaved, all with the same stack: a stack
// reused across threads must still count for the thread that took the sample.
struct Threads : ::testing::Test {
  reptest::ScratchDir dir;
  const std::string stack = R"("0x1000","0x2000")";
  std::string log;
  void SetUp() override {
    log = reptest::write_log(dir, "threads.pmclog", {
        kInit, kCpuClock,
        R"({"type":"proc-create","pid":100,"flags":0,"pcomm":"server"})",
        thr_create(100, 100100, "worker"),
        thr_create(100, 100101, "io"),
        sample(100, 100100, stack), sample(100, 100101, stack), sample(100, 100100, stack),
        sample(100, 100101, stack), sample(100, 100100, stack), sample(100, 100102, stack),
        R"({"type":"closelog"})"});
  }
  // Self samples by the row's columns joined with '|'.
  std::map<std::string, uint64_t> self(const std::string& by) {
    const auto r = reptest::run({REPORT_EXE, "--by", by, log});
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, uint64_t> m;
    for (const auto& row : reptest::parse_top(r.out)) {
      std::string key;
      for (const auto& c : row.columns) key += (key.empty() ? "" : "|") + c;
      if (row.self != 0) m[key] += row.self;
    }
    return m;
  }
};

TEST_F(Threads, ThreadIsNameColonTidOrTheTid) {
  const std::map<std::string, uint64_t> want = {
      {"worker:100100|0x1000", 3}, {"io:100101|0x1000", 2}, {"100102|0x1000", 1}};
  EXPECT_EQ(self("thread,symbol"), want);
}

TEST_F(Threads, TidAlone) {
  const std::map<std::string, uint64_t> want = {{"100100", 3}, {"100101", 2}, {"100102", 1}};
  EXPECT_EQ(self("tid"), want);
}

TEST_F(Threads, CommandAndThreadTogether) {
  const std::map<std::string, uint64_t> want = {
      {"server|worker:100100", 3}, {"server|io:100101", 2}, {"server|100102", 1}};
  EXPECT_EQ(self("comm,thread"), want);
}

TEST_F(Threads, WithoutThreadKeysThreadsShareRows) {
  const std::map<std::string, uint64_t> want = {{"server|0x1000", 6}};
  EXPECT_EQ(self("comm,symbol"), want);
  // The header names the columns.
  const auto r = reptest::run({REPORT_EXE, "--by", "tid,thread", log});
  EXPECT_NE(r.out.find("  Tid  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  Thread"), std::string::npos) << r.out;
}

TEST_F(Threads, FilterByTidKeepsItsName) {
  const auto r = reptest::run({REPORT_EXE, "--by", "thread", "--tid", "100101", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = reptest::parse_top(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].columns, std::vector<std::string>{"io:100101"});
  EXPECT_EQ(rows[0].self, 2u);
}

// Names from a log are untrusted: an escape sequence, a newline or a ';' in a command or a
// thread name must not reach the terminal raw, split a top row or a folded line.
TEST(HostileNames, EscapedInTopAndFolded) {
  reptest::ScratchDir dir;
  const std::string log = reptest::write_log(dir, "hostile.pmclog", {
      kInit, kCpuClock,
      R"({"type":"proc-create","pid":7,"flags":0,"pcomm":"ev\u001b[31mil;x\ny"})",
      thr_create(7, 70, R"(t\u001b]0;owned\u0007)"),
      sample(7, 70, R"("0x1000")"), sample(7, 70, R"("0x1000")"),
      R"({"type":"closelog"})"});
  const auto top = reptest::run({REPORT_EXE, "--by", "comm,thread,symbol", log});
  ASSERT_EQ(top.status, 0) << top.err;
  const auto folded = reptest::run({REPORT_EXE, "--format", "folded", "--comm-frame", log});
  ASSERT_EQ(folded.status, 0) << folded.err;
  for (const std::string& out : {top.out, folded.out}) {
    for (unsigned char c : out) EXPECT_TRUE(c == '\n' || c >= 0x20) << "raw control byte " << int(c);
  }
  // One folded line holding both samples; its frames: event, command, the one pc.
  ASSERT_EQ(std::count(folded.out.begin(), folded.out.end(), '\n'), 1) << folded.out;
  const std::string line = folded.out.substr(0, folded.out.find('\n'));
  EXPECT_EQ(line.substr(line.rfind(' ') + 1), "2") << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), ';'), 2) << line;
  // Top: one row for the hot frame, with the two samples.
  const auto rows = reptest::parse_top(top.out);
  ASSERT_EQ(rows.size(), 1u) << top.out;
  EXPECT_EQ(rows[0].self, 2u);
}

}  // namespace
