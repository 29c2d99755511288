// --call-graph dwarf on a program built without frame pointers: the known path of every
// sample in the hot leaf, through a deep chain, a libc callback and a signal handler, where
// frame-pointer chains stop after the leaf. And the option's spelling, as perf's.
#include <gtest/gtest.h>

#include "record_test_support.h"

using pmclog::Field;
using pmclog::Kind;
using namespace rectest;

namespace {

struct Recorded {
  Ran ran;
  std::string log;
};

Recorded record(const ScratchDir& dir, const std::string& name, const std::string& mode,
                const std::string& call_graph) {
  Recorded r;
  r.log = dir.file(name);
  r.ran = record_sampled(r.log, call_graph, {kNofpPaths, mode, "1"});
  return r;
}

TEST(RecordDwarf, TheDeepPathOfNearlyEverySample) {
  ScratchDir dir;
  const auto fp = record(dir, "fp.pmclog", "deep", "fp");
  ASSERT_EQ(fp.ran.status, 0) << fp.ran.err;
  const auto dw = record(dir, "dwarf.pmclog", "deep", "dwarf");
  ASSERT_EQ(dw.ran.status, 0) << dw.ran.err;
  EXPECT_NE(dw.ran.err.find("dwarf unwinding: "), std::string::npos) << dw.ran.err;
  const std::string path = "main;path_a;path_b;path_c;path_d;leaf_work";
  const LeafStacks with_fp = leaf_stacks(fp.log, path, ";leaf_work");
  const LeafStacks with_dwarf = leaf_stacks(dw.log, path, ";leaf_work");
  // Frame pointers lose the path in this build (the reason for the option)...
  EXPECT_LT(with_fp.matching * 2, with_fp.in_leaf);
  // ... which the CFI gives back for at least 99% of the samples in the leaf.
  EXPECT_TRUE(nearly_all_whole(with_dwarf, 300));
}

// Records MODE with --call-graph dwarf: at least 99% of the samples in leaf_work hold the
// path that reaches it (`prefix` somewhere, `suffix` at the leaf).
void expect_whole_paths(const std::string& mode, const std::string& prefix,
                        const std::string& suffix, uint64_t min_samples) {
  ScratchDir dir;
  const auto dw = record(dir, mode + ".pmclog", mode, "dwarf");
  ASSERT_EQ(dw.ran.status, 0) << dw.ran.err;
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(dw.log, prefix, suffix), min_samples));
}

TEST(RecordDwarf, ACallbackThroughLibc) {
  expect_whole_paths("callback", "main;through_qsort;", ";compare;leaf_work", 300);
}

TEST(RecordDwarf, ASignalHandlerOnTopOfTheInterruptedPath) {
  expect_whole_paths("signal", "main;wait_for_signals;", ";on_alarm;leaf_work", 100);
}

// With --user-callchain, a kernel-mode sample is the kernel's frames, then the unwound
// user stack, as FreeBSD writes PMC_F_USERCALLCHAIN chains.
TEST(RecordDwarf, KernelSamplesKeepTheirUnwoundUserPart) {
  ScratchDir dir;
  const std::string out = dir.file("merged.pmclog");
  const auto r = run({kRecord, "--user-callchain", "--call-graph", "dwarf", "-o", out, "--",
                      kKernelHot, "0.5"});
  ASSERT_EQ(r.status, 0) << r.err;
  if (r.err.find("user-space callchains only") != std::string::npos)
    GTEST_SKIP() << "no kernel frames for this user: " << r.err;
  Log log = read_log(out);
  size_t kernel = 0, whole = 0;
  for (auto* c : log.of(Kind::callchain)) {
    if (((*c)[Field::cpuflags] & 1u) || c->pcs.empty()) continue;
    ++kernel;
    EXPECT_NE(c->pcs.front() >> 63, 0u) << "the kernel frames come first";
    size_t user = 0;
    bool back_in_kernel = false;
    for (uint64_t pc : c->pcs) {
      if ((pc >> 63) == 0) ++user;
      else back_in_kernel = back_in_kernel || user > 0;
    }
    EXPECT_FALSE(back_in_kernel) << "kernel frames after user ones";
    // read() in libc, main, __libc_start_call_main, __libc_start_main, _start.
    whole += user >= 4;
  }
  ASSERT_GE(kernel, 20u);
  EXPECT_GE(whole * 10, kernel * 8) << whole << " of " << kernel << " have their user stack";
}

TEST(RecordDwarf, SpelledAsPerfSpellsIt) {
  ScratchDir dir;
  const std::string log = dir.file("x.pmclog");
  for (const char* bad : {"lbr", "dwarf,", "dwarf,0", "dwarf,65536", "dwarf,x", "dwarfy"}) {
    const auto r = run({kRecord, "--call-graph", bad, "-o", log, "--", "true"});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--call-graph"), std::string::npos) << bad << ": " << r.err;
  }
  const auto count = run({kRecord, "--count", "--call-graph", "dwarf", "-o", log, "--", "true"});
  EXPECT_EQ(count.status, 2);
  EXPECT_NE(count.err.find("--count and --call-graph"), std::string::npos) << count.err;
  // A size is rounded up to whole words, as perf does; the run works with it.
  const auto small = run({kRecord, "--call-graph", "dwarf,100", "-o", log, "--", kNofpPaths, "deep", "0.2"});
  EXPECT_EQ(small.status, 0) << small.err;
  const auto fp = run({kRecord, "--call-graph", "fp", "-o", log, "--", "true"});
  EXPECT_EQ(fp.status, 0) << fp.err;
}

}  // namespace
