// --call-graph dwarf where unwinding has more to get right than one program's own frames,
// all in code built without frame pointers: a shared library called through the PLT and
// calling back, samples in a PLT stub and in its tiny callee, a stripped program whose
// symbols or CFI are in a separate debug file, two threads down to the clone at their root,
// and a child that execs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <sstream>

#include "record_test_support.h"
#include "support/elf.h"

using namespace rectest;

namespace {

// Records `command` with --call-graph dwarf into DIR/NAME; returns the log's path.
std::string record_dwarf(const ScratchDir& dir, const std::string& name,
                         const std::vector<std::string>& command, std::string* summary = nullptr) {
  const std::string log = dir.file(name);
  const Ran r = record_sampled(log, "dwarf", command);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("dwarf unwinding: "), std::string::npos) << r.err;
  if (summary) *summary = r.err;
  return log;
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// main's frames in the program, the library's in the library (entered through the PLT), and
// the program's again in a callback from it.
TEST(RecordDwarfPaths, ThroughASharedLibraryAndBack) {
  ScratchDir dir;
  const std::string log = record_dwarf(dir, "shlib.pmclog", {kNofpShlib, "path", "1"});
  const std::string into = "main;into_lib;lib_outer;";
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, into, into + "lib_inner;lib_leaf_work"), 150));
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, into, into + "back_in_exe;exe_leaf_work"), 150));
}

// A loop around a call of a three-instruction library function: many samples land in the
// program's PLT stub (no symbol: "program+0xOFFSET" in the report, the only unnamed code of
// the program) or in the callee, its first instruction included. The stub's CFI is the one
// the linker writes into .eh_frame; each of those samples must still have main and the loop
// under it. With the IBT layout, the stub called is in .plt.sec.
void expect_whole_through_the_plt(const std::string& program) {
  ScratchDir dir;
  const std::string log = record_dwarf(dir, "plt.pmclog", {program, "plt", "0.5"});
  const std::string caller = "main;plt_loop;";
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, caller, caller + "lib_tiny"), 50));
  const auto r = run({kReport, "--format", "folded", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string stub = base_name(program) + "+0x", under = ";main;plt_loop;";
  uint64_t in_stub = 0, whole = 0;
  std::string example;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.rfind(' '), leaf = line.rfind(';', sp);
    if (sp == std::string::npos || leaf == std::string::npos ||
        line.compare(leaf + 1, stub.size(), stub) != 0)
      continue;
    const uint64_t n = std::strtoull(line.c_str() + sp + 1, nullptr, 10);
    in_stub += n;
    // The stub's frame right above the loop's, main under it.
    if (leaf + 1 >= under.size() && line.compare(leaf + 1 - under.size(), under.size(), under) == 0)
      whole += n;
    else if (example.empty())
      example = line;
  }
  std::fprintf(stderr, "[ measured ] PLT stub of %s: %llu of %llu samples whole\n",
               base_name(program).c_str(), static_cast<unsigned long long>(whole),
               static_cast<unsigned long long>(in_stub));
  EXPECT_GT(in_stub, 20u) << "too few samples in the stub to tell\n" << r.out;
  EXPECT_EQ(whole, in_stub) << "e.g. " << example;
}

TEST(RecordDwarfPaths, SamplesInAPltStubAndItsTinyCallee) {
  expect_whole_through_the_plt(kNofpShlib);
}

TEST(RecordDwarfPaths, SamplesInAPltSecStubAndItsTinyCallee) {
  expect_whole_through_the_plt(kNofpShlibIbt);
}

// `objcopy` a copy of `program` into DIR/NAME: `strip` gives what to remove (a list of
// objcopy options), and the debug file kept aside is returned. Not as NAME.debug: libdw
// looks for that name beside the program.
std::string stripped_copy(const ScratchDir& dir, const std::string& program,
                          const std::string& name, const std::vector<std::string>& strip) {
  const std::string bin = dir.file(name), dbg = dir.file(name + ".kept");
  EXPECT_EQ(run({"objcopy", "--only-keep-debug", program, dbg}).status, 0);
  std::vector<std::string> argv{"objcopy"};
  argv.insert(argv.end(), strip.begin(), strip.end());
  argv.insert(argv.end(), {program, bin});
  const Ran r = run(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(chmod(bin.c_str(), 0755), 0);
  return dbg;
}

// A stripped program keeps its .eh_frame (the unwinder needs nothing else); its names are in
// a debug file under DEBUG/.build-id/, which the report is given with --debug-dir.
TEST(RecordDwarfPaths, AStrippedProgramNamedByItsDebugFileFoundByBuildId) {
  ScratchDir dir;
  const std::string dbg = stripped_copy(dir, kNofpPaths, "stripped", {"--strip-all"});
  const std::string id = pmclog_test::build_id(kNofpPaths);
  ASSERT_GT(id.size(), 2u) << "the workload has no build id";
  const std::string debug_dir = dir.file("debug");
  const std::string by_id = debug_dir + "/.build-id/" + id.substr(0, 2) + "/" + id.substr(2);
  std::filesystem::create_directories(by_id.substr(0, by_id.rfind('/')));
  std::filesystem::copy_file(dbg, by_id + ".debug");
  const std::string log =
      record_dwarf(dir, "stripped.pmclog", {dir.file("stripped"), "deep", "0.6"});
  const std::string path = "main;path_a;path_b;path_c;path_d;leaf_work";
  EXPECT_TRUE(
      nearly_all_whole(leaf_stacks(log, path, ";leaf_work", {"--debug-dir", debug_dir}), 300));
  // Without the debug folder no frame has its name: the names above came from the file.
  EXPECT_EQ(leaf_stacks(log, path, ";leaf_work").in_leaf, 0u);
}

// A program whose CFI is only in .debug_frame (built with -g and no unwind tables),
// stripped: the CFI is in its separate debug file, which the unwinder finds through the
// .gnu_debuglink in the program's .debug folder, as libdw's standard search does (a
// debug file found by build id alone would have to be under /usr/lib/debug).
TEST(RecordDwarfPaths, CfiOnlyInTheSeparateDebugFileOfAStrippedProgram) {
  ScratchDir dir;
  std::filesystem::create_directories(dir.file(".debug"));
  const std::string kept = stripped_copy(dir, kNofpDebugFrame, "plain", {"--strip-all"});
  const std::string dbg = dir.file(".debug/linked.debug");
  std::filesystem::copy_file(kept, dbg);
  stripped_copy(dir, kNofpDebugFrame, "linked", {"--strip-all", "--add-gnu-debuglink=" + dbg});
  // Without its debug file the program has no CFI at all: the unwinder stops in it...
  std::string summary;
  record_dwarf(dir, "plain.pmclog", {dir.file("plain"), "deep", "0.3"}, &summary);
  EXPECT_NE(summary.find("no CFI for this address"), std::string::npos) << summary;
  // ... and with it, it has the whole path.
  const std::string log = record_dwarf(dir, "linked.pmclog", {dir.file("linked"), "deep", "0.6"});
  const std::string path = "main;path_a;path_b;path_c;path_d;leaf_work";
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, path, ";leaf_work"), 300));
}

// Each thread's path from its start routine, under glibc's start_thread and the clone that
// made the thread: the outermost frame (its CFI marks the end), as in perf's chains. clone3
// where the kernel has it; glibc falls back to clone where it has not.
TEST(RecordDwarfPaths, TwoThreadsEachDownToItsClone) {
  ScratchDir dir;
  const std::string log = record_dwarf(dir, "threads.pmclog", {kNofpThreads, "0.5"});
  for (const std::string path :
       {"run_one;one_a;one_b;one_c;one_leaf", "run_two;two_a;two_b;two_leaf"}) {
    LeafStacks best;
    for (const char* root : {"__clone3", "clone3", "__clone", "clone"}) {
      const LeafStacks s =
          leaf_stacks(log, "", std::string("cpu-clock;") + root + ";start_thread;" + path);
      if (s.matching >= best.matching) best = s;
    }
    EXPECT_TRUE(nearly_all_whole(best, 150)) << path;
  }
}

// A forked child's path before its exec (the parent's mappings, copied at the fork), and
// after it, in the same program loaded again at another address: the unwinder forgets the
// old image at the exec and learns the new one.
TEST(RecordDwarfPaths, AForkedChildBeforeAndAfterItsExec) {
  ScratchDir dir;
  const std::string log = record_dwarf(dir, "exec.pmclog", {kNofpExec, "0.8"});
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, "main;", "main;before_exec;before_leaf"), 100));
  const std::string after = "main;after_a;after_b;after_c;after_leaf";
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, "main;", after), 400));
}

// Deeper than fp's default of 32 frames: with dwarf the default is perf's 127, so a
// 60-deep recursion keeps main under it; an explicit --depth still cuts it.
TEST(RecordDwarfPaths, DeepRecursionIsWholeUnderTheDefaultDepth) {
  ScratchDir dir;
  const std::string log = record_dwarf(dir, "recurse.pmclog", {kNofpPaths, "recurse", "0.5"});
  std::string path = "main";
  for (int i = 0; i < 60; ++i) path += ";recurse";
  EXPECT_TRUE(nearly_all_whole(leaf_stacks(log, path + ";leaf_work", path + ";leaf_work"), 100));
  const std::string cut = dir.file("cut.pmclog");
  const Ran r = run({kRecord, "--call-graph", "dwarf", "--depth", "20", "-F", "999", "-o", cut,
                     "--", kNofpPaths, "recurse", "0.3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("depth limit"), std::string::npos) << r.err;
  // A sample in leaf_work is 61 frames from main: 20 cannot reach it (samples in main's own
  // loop, or high in the recursion, still can).
  const LeafStacks deep = leaf_stacks(cut, "main;", ";recurse;leaf_work");
  EXPECT_GT(deep.in_leaf, 50u);
  EXPECT_EQ(deep.matching, 0u) << "20 frames cannot reach main";
}

}  // namespace
