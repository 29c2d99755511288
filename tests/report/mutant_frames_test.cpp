// Frames and totals on logs whose every answer is known by construction
// (known/known_code.h): a caller's frame is named after the call it made, and a function's
// Total counts each sample once however often the stack holds it.
#include <gtest/gtest.h>

#include "mutant_support.h"

namespace {

using reptest::hex;

constexpr uint64_t kT0 = known::kT0;
constexpr uint64_t kText = known::kExecText;

struct KnownFrames : known::SysrootTest {
  // A log of these stacks (leaf first) of the ET_EXEC, mapped by a MAP_IN at its own address.
  std::string log(const std::vector<std::vector<uint64_t>>& stacks) {
    std::vector<std::string> lines = known::modern_log_start();
    lines.push_back(known::map_in(kT0 + 1, kText, known::kExecPath));
    uint64_t tsc = kT0 + 2;
    for (const auto& s : stacks) lines.push_back(known::sample(tsc++, s));
    lines.push_back(known::closelog(tsc));
    return reptest::write_log(dir, "k.pmclog", lines);
  }
};

// known_caller's last instruction is a call, so the return address a stack holds for it is
// the first byte of known_next: the caller is the function holding the byte before (the call),
// on the call's line. A leaf at that same address is known_next itself.
TEST_F(KnownFrames, CallerWhoseReturnAddressStartsTheNextFunction) {
  const uint64_t ret = kText + KNOWN_NEXT;
  const std::string l = log({{kText + KNOWN_LEAF + 1, ret}, {ret, kText + KNOWN_MAIN + 5}});
  const auto f = reptest::parse_folded(report_on({"--format", "folded"}, l).out);
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_caller;known_leaf", 1},
                                             {"cpu-clock;known_main;known_next", 1}};
  EXPECT_EQ(f, want);

  // The caller's line: the call's, from the source (known_code.S's line table).
  const int call_line = known::line_of("known_caller");
  const int next_line = known::line_of("known_next");
  ASSERT_GT(call_line, 0);
  ASSERT_GT(next_line, 0);
  const auto lines = reptest::parse_folded(report_on({"--format", "folded", "--lines"}, l).out);
  bool caller_seen = false;
  for (const auto& [stack, n] : lines) {
    if (stack.find("known_caller") == std::string::npos) continue;
    caller_seen = true;
    EXPECT_NE(stack.find("known_code.S:" + std::to_string(call_line)), std::string::npos) << stack;
  }
  EXPECT_TRUE(caller_seen) << lines.size() << " stacks";
}

// The first byte past a function's size is not the function's: in the gap after known_leaf
// no symbol covers it.
TEST_F(KnownFrames, AFunctionEndsWhereItsSizeSays) {
  const uint64_t end = kText + KNOWN_LEAF + KNOWN_SIZE;
  static_assert(KNOWN_LEAF + KNOWN_SIZE == KNOWN_GAP);
  const std::string l = log({{end - 1, kText + KNOWN_MAIN + 5}, {end, kText + KNOWN_MAIN + 5}});
  const auto r = report_on({"--format", "top", "--by", "symbol"}, l);
  std::map<std::string, uint64_t> self;
  for (const auto& row : reptest::parse_top(r.out)) self[row.symbol()] = row.self;
  EXPECT_EQ(self["known_leaf"], 1u) << r.out;
  EXPECT_NE(r.out.find("1 no symbols"), std::string::npos) << r.out;  // the gap's sample
}

// A recursive function's Total is the samples whose stack holds it, once each: never more
// than all samples. Self is the samples where it is the leaf.
TEST_F(KnownFrames, RecursionCountsOncePerSampleInTotal) {
  const uint64_t rec = kText + KNOWN_REC + 5, main = kText + KNOWN_MAIN + 5;  // return addresses
  const uint64_t leaf = kText + KNOWN_LEAF + 1, in_rec = kText + KNOWN_REC + 1;
  const std::string l = log({{leaf, rec, rec, rec, main},   // three deep, then the leaf
                             {in_rec, rec, rec, main},      // known_rec itself sampled
                             {in_rec, main},
                             {leaf, main}});
  const auto r = report_on({"--format", "top", "--by", "symbol"}, l);
  struct Counts {
    uint64_t self = 0, total = 0;
  };
  std::map<std::string, Counts> got;
  for (const auto& row : reptest::parse_top(r.out)) got[row.symbol()] = {row.self, row.total};
  EXPECT_EQ(got["known_rec"].total, 3u) << r.out;
  EXPECT_EQ(got["known_rec"].self, 2u) << r.out;
  EXPECT_EQ(got["known_main"].total, 4u) << r.out;
  EXPECT_EQ(got["known_leaf"].total, 2u) << r.out;
  EXPECT_EQ(got["known_leaf"].self, 2u) << r.out;
  for (const auto& [name, c] : got) EXPECT_LE(c.total, 4u) << name << "\n" << r.out;
}

}  // namespace
