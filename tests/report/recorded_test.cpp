// Logs recorded by pmclog-record (cpu-clock) from the bundled workloads: the known hot
// function tops `top`, its whole stack is in `folded`, and the totals add up.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "pmcprofile/session.h"
#include "report_support.h"

namespace {

const std::string kLeaf = "hotspot::leaf_hot(unsigned long)";
const std::string kMiddle = "hotspot::middle_caller(unsigned long)";
const std::string kOuter = "hotspot::outer_caller(unsigned long)";
const std::string kChain = "main;" + kOuter + ";" + kMiddle + ";" + kLeaf;

// pmclog-record's log of `cmd` (a program and its arguments, after options) in `folder`.
std::string record(const std::string& folder, const std::string& name,
                   const std::vector<std::string>& cmd) {
  const std::string log = folder + "/" + name;
  std::vector<std::string> argv{RECORD_EXE, "-o", log};
  if (cmd.empty() || cmd[0].rfind("--", 0) != 0) argv.push_back("--");
  argv.insert(argv.end(), cmd.begin(), cmd.end());
  const auto r = reptest::run(argv);
  if (r.status != 0) ADD_FAILURE() << "pmclog-record: " << r.err;
  return log;
}

// Every recording the tests below read, in `folder` (see reptest::shared_recordings).
void make_recordings(const std::string& folder) {
  const auto in = [&](const std::string& name) { return folder + "/" + name; };
  record(folder, "pie.pmclog", {WORKLOAD_HOT, "0.6"});
  record(folder, "nopie.pmclog", {WORKLOAD_HOT_NOPIE, "0.6"});
  record(folder, "shlib.pmclog", {WORKLOAD_SHLIB, "0.6"});
  record(folder, "m10.pmclog", {"--generation", "M10", "--user-callchain", "--", WORKLOAD_HOT, "0.6"});
  // A stripped copy whose symbols are only in a separate debug file named by build id.
  const std::string bin = in("hot-stripped"), dbg = in("hot.debug");
  const std::string id = reptest::build_id(WORKLOAD_HOT);
  ASSERT_GT(id.size(), 2u) << "the workload has no build id";
  ASSERT_EQ(reptest::run({"/usr/bin/objcopy", "--only-keep-debug", WORKLOAD_HOT, dbg}).status, 0);
  ASSERT_EQ(reptest::run({"/usr/bin/objcopy", "--strip-all", WORKLOAD_HOT, bin}).status, 0);
  reptest::copy_file(dbg, in("debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug"));
  record(folder, "stripped.pmclog", {bin, "0.6"});
  // Another stripped copy with only a .gnu_debuglink to a debug file in its .debug folder.
  reptest::make_dirs(in("dl/.debug"));
  reptest::copy_file(dbg, in("dl/.debug/hot-dl.debug"));
  ASSERT_EQ(reptest::run({"/usr/bin/objcopy", "--strip-all", "--remove-section=.note.gnu.build-id",
                          "--add-gnu-debuglink=" + in("dl/.debug/hot-dl.debug"), WORKLOAD_HOT,
                          in("dl/hot-dl")}).status, 0);
  ASSERT_EQ(chmod(in("dl/hot-dl").c_str(), 0755), 0);
  record(folder, "linked.pmclog", {in("dl/hot-dl"), "0.6"});
}

// ctest's first report test when it runs any that read recordings: makes them, alone.
TEST(Recordings, Make) {
  const char* at = std::getenv("PMCLOG_TEST_RECORDINGS");
  if (at == nullptr || *at == '\0') GTEST_SKIP() << "made under ctest only (PMCLOG_TEST_RECORDINGS)";
  std::filesystem::remove_all(at);
  std::filesystem::create_directories(at);
  make_recordings(at);
  if (!HasFailure()) reptest::write_file(std::string(at) + "/complete", "");
  EXPECT_EQ(reptest::shared_recordings(), at);
}

struct Recorded : ::testing::Test {
  static reptest::ScratchDir* dir;
  static std::string pie, nopie, shlib, stripped, debug_dir, modern, linked;

  static void SetUpTestSuite() {
    std::string at = reptest::shared_recordings();
    if (at.empty()) {
      dir = new reptest::ScratchDir;
      at = dir->str();
      make_recordings(at);
    }
    pie = at + "/pie.pmclog";
    nopie = at + "/nopie.pmclog";
    shlib = at + "/shlib.pmclog";
    modern = at + "/m10.pmclog";
    stripped = at + "/stripped.pmclog";
    debug_dir = at + "/debug";
    linked = at + "/linked.pmclog";
  }
  static void TearDownTestSuite() {
    delete dir;
    dir = nullptr;
  }

  static reptest::Ran report(std::vector<std::string> args) {
    args.insert(args.begin(), REPORT_EXE);
    return reptest::run(args);
  }

  // The checks every hot_chain recording must pass.
  static void expect_hot_chain(const std::string& log, const std::string& object,
                               std::vector<std::string> extra = {}) {
    std::vector<std::string> args = extra;
    args.push_back(log);
    auto r = report(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = reptest::parse_top(r.out);
    ASSERT_FALSE(rows.empty()) << r.out;
    uint64_t samples = 0;
    for (const auto& row : rows) samples += row.self;  // each sample has one leaf
    ASSERT_GT(samples, 100u) << r.out;
    EXPECT_EQ(rows[0].symbol(), kLeaf) << r.out;
    EXPECT_EQ(rows[0].columns[1], object) << r.out;
    EXPECT_GT(rows[0].self * 10, samples * 8) << r.out;  // > 80% of the samples
    EXPECT_NE(r.out.find("# Event: cpu-clock, " + std::to_string(samples) + " samples"),
              std::string::npos) << r.out;
    // Callers' totals include their callees'.
    const auto total = [&](const std::string& sym) {
      for (const auto& row : rows)
        if (row.symbol() == sym) return row.total;
      return uint64_t{0};
    };
    EXPECT_GE(total(kOuter), total(kMiddle));
    // folded: the whole chain, and the same counts.
    args.insert(args.begin(), {"--format", "folded"});
    r = report(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ends_with = [](const std::string& s, const std::string& end) {
      return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
    };
    // A sample in the leaf's first or last instructions (before it pushes its frame
    // pointer, or after it pops it) unwinds from its caller's frame and loses
    // middle_caller, as with any frame-pointer unwinder, perf's included: rare, allowed.
    // The same in outer_caller's first or last instruction loses main.
    const std::string skipped_middle = "main;" + kOuter + ";" + kLeaf;
    uint64_t chain = 0, all = 0, through_middle = 0, kernel_above = 0, skipped = 0;
    uint64_t skipped_main = 0;
    for (const auto& [stack, n] : reptest::parse_folded(r.out)) {
      all += n;
      // A kernel-mode record with user frames (--user-callchain) taken in the leaf: kernel
      // frames above it, the only frames a leaf can have above it.
      if (stack.find(kChain + ";") != std::string::npos) kernel_above += n;
      EXPECT_EQ(stack.rfind("cpu-clock;", 0), 0u) << stack;
      if (ends_with(stack, kChain)) chain += n;
      if (ends_with(stack, ";" + skipped_middle)) skipped += n;
      if (stack.find(";" + kMiddle) != std::string::npos) through_middle += n;
      if (stack.find(";" + kOuter) != std::string::npos &&
          stack.find(";main;" + kOuter) == std::string::npos)
        skipped_main += n;
    }
    EXPECT_EQ(all, samples);
    EXPECT_LE(skipped * 100, samples) << r.out;  // at most 1%
    EXPECT_LE(skipped_main * 100, samples) << r.out;
    EXPECT_GE(total("main") + skipped_main, total(kOuter));
    EXPECT_GE(total(kMiddle) + skipped, total(kLeaf));
    EXPECT_EQ(chain + skipped, rows[0].self) << r.out;
    EXPECT_EQ(through_middle, total(kMiddle));
    EXPECT_EQ(total(kLeaf), rows[0].self + kernel_above);  // a leaf calls nothing
  }
};

reptest::ScratchDir* Recorded::dir = nullptr;
std::string Recorded::pie, Recorded::nopie, Recorded::shlib, Recorded::stripped, Recorded::debug_dir,
    Recorded::modern, Recorded::linked;

TEST_F(Recorded, PieHotFunctionTopsTopWithItsWholeStack) {
  expect_hot_chain(pie, "report-workload-hot");
}

TEST_F(Recorded, ModernLogWithUserCallchains) {
  // M10: TSC order, two-address PROCEXEC; kernel-mode records carry user frames too.
  expect_hot_chain(modern, "report-workload-hot");
}

TEST_F(Recorded, FixedAddressExecutable) {
  expect_hot_chain(nopie, "report-workload-hot-nopie");
}

TEST_F(Recorded, StrippedBinaryFindsItsDebugFileByBuildId) {
  expect_hot_chain(stripped, "hot-stripped", {"--debug-dir", debug_dir});
  // Without the debug folder the hot function has no name, and the report says why.
  const auto r = report({stripped});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find(kLeaf), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hot-stripped: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no symbols"), std::string::npos) << r.out;
}

TEST_F(Recorded, StrippedBinaryFindsItsDebugFileByDebuglink) {
  expect_hot_chain(linked, "hot-dl");
}

TEST_F(Recorded, SharedLibraryFunction) {
  auto r = report({shlib});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = reptest::parse_top(r.out);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].symbol(), "lib_hot") << r.out;
  EXPECT_EQ(rows[0].columns[1], "libreport_hot.so") << r.out;
  r = report({"--format", "folded", shlib});
  uint64_t via = 0, all = 0;
  for (const auto& [stack, n] : reptest::parse_folded(r.out)) {
    all += n;
    if (stack.find("main;call_lib;lib_hot") != std::string::npos) via += n;
  }
  EXPECT_GT(via * 10, all * 8) << r.out;
}

TEST_F(Recorded, DemangleLinesAndInlines) {
  auto r = report({"--no-demangle", "--limit", "1", pie});
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = reptest::parse_top(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].symbol(), "_ZN7hotspot8leaf_hotEm");
  r = report({"--lines", "--by", "symbol", pie});
  EXPECT_NE(r.out.find(kLeaf + " (hot_chain.cpp:"), std::string::npos) << r.out;
  // The loop body is hotspot::mix, inlined into the leaf.
  r = report({"--inline", "--format", "folded", pie});
  uint64_t inl = 0;
  for (const auto& [stack, n] : reptest::parse_folded(r.out))
    if (stack.find(kLeaf + ";hotspot::mix(unsigned long, unsigned long)_[i]") != std::string::npos) inl += n;
  EXPECT_GT(inl, 0u) << r.out;
}

// The model keeps each function of a frame with its inline depth: the function the address is
// in first (depth 0), then each call inlined into it one deeper; the workload's leaf holds
// hotspot::mix at depth 1.
TEST_F(Recorded, FunctionsOfAFrameKeepTheirInlineDepth) {
  pmcprofile::Options opt;
  opt.symbols.inlines = true;
  pmcprofile::Session s(opt);
  ASSERT_TRUE(s.add_log(pie).error.empty());
  s.symbolize();
  const pmcprofile::Tables& t = s.tables();
  size_t with_inlines = 0;
  for (const auto& refs : t.frame_functions) {
    for (size_t i = 0; i < refs.size(); ++i) {
      EXPECT_EQ(refs[i].inline_depth, i) << t.functions[refs[i].id].name;
      EXPECT_EQ(refs[i].inlined(), i != 0);
    }
    if (refs.size() >= 2 && t.functions[refs[0].id].name == kLeaf &&
        t.functions[refs[1].id].name == "hotspot::mix(unsigned long, unsigned long)")
      ++with_inlines;
  }
  EXPECT_GT(with_inlines, 0u) << "no frame of the leaf with hotspot::mix inlined";
}

TEST_F(Recorded, FleetViewMergesLogsOfDifferentBinaries) {
  const auto one = [&](const std::string& log) {
    const auto rows = reptest::parse_top(report({"--by", "symbol", log}).out);
    for (const auto& row : rows)
      if (row.symbol() == kLeaf) return row.self;
    return uint64_t{0};
  };
  const auto rows = reptest::parse_top(report({"--by", "symbol", pie, nopie}).out);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].symbol(), kLeaf);
  EXPECT_EQ(rows[0].self, one(pie) + one(nopie));
}

}  // namespace
