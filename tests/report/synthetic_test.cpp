// Synthetic logs (written by pmclog-write from JSON Lines) against a fake sysroot of small
// ELF files laid out as on FreeBSD (/lib/libc.so.7, /usr/bin/fakeprog). The expected frames
// come from nm and readelf, not from the code under test.
#include <gtest/gtest.h>

#include <unistd.h>

#include <sstream>

#include "pmclog/detect.h"
#include "pmclog/open.h"
#include "report_support.h"

namespace {

using reptest::hex;

using namespace reptest::synthetic;

std::string sample(uint32_t pid, uint32_t pmc, const std::vector<uint64_t>& pcs, bool user = true,
                   uint64_t tsc = 0) {
  std::string s = R"({"type":"callchain","pid":)" + std::to_string(pid) + R"(,"tid":)" +
                  std::to_string(pid) + R"(,"pmcid":)" + std::to_string(pmc) +
                  R"(,"cpu":0,"usermode":)" + (user ? "1" : "0") + R"(,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  s += "]";
  if (tsc != 0) s += R"(,"tsc":)" + std::to_string(tsc);
  return s + "}";
}

std::string exec(uint32_t pid, const std::string& path, uint64_t tsc = 0) {
  std::string s = R"({"type":"procexec","pid":)" + std::to_string(pid) +
                  R"(,"pmcid":4294053632,"entryaddr":0,"dynaddr":0,"path":")" + path + "\"";
  if (tsc != 0) s += R"(,"tsc":)" + std::to_string(tsc);
  return s + "}";
}

std::string map_in(uint32_t pid, uint64_t start, const std::string& path, uint64_t tsc = 0) {
  std::string s = R"({"type":"map-in","pid":)" + std::to_string(pid) + R"(,"start_hex":")" +
                  hex(start) + R"(","path":")" + path + "\"";
  if (tsc != 0) s += R"(,"tsc":)" + std::to_string(tsc);
  return s + "}";
}

struct Synthetic : ::testing::Test {
  reptest::ScratchDir dir;
  std::string root;
  uint64_t lib_exec = 0;  // the libc's first executable page (its MAP_IN start is base + this)
  uint64_t memcpy_ = 0, write_ = 0, qsort_ = 0, work = 0, child_work = 0;

  void SetUp() override {
    root = dir.file("root");
    reptest::copy_as_freebsd_elf(FAKE_LIBC, root + "/lib/libc.so.7");
    reptest::copy_as_freebsd_elf(FAKE_PROG, root + "/usr/bin/fakeprog");
    lib_exec = reptest::exec_segment_page(FAKE_LIBC);
    memcpy_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_memcpy");
    write_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_write");
    qsort_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_qsort_cmp");
    work = reptest::symbol_address(FAKE_PROG, "fakeprog_work");
    child_work = reptest::symbol_address(FAKE_PROG, "fakeprog_child_work");
    ASSERT_NE(memcpy_, kLibBase);
    ASSERT_NE(work, 0u);
  }

  // pid 100 runs fakeprog with libc; it forks 101; pid 102 is unknown; a missing library;
  // a kernel-mode record with kernel frames then user frames (PMC_F_USERCALLCHAIN).
  std::string main_log() {
    return reptest::write_log(dir, "main.pmclog", {
        kInit, kCpuClock, kInstructions,
        map_in(0xFFFFFFFFu, 0xffffffff80200000, "/boot/kernel/kernel"),
        exec(100, "/usr/bin/fakeprog"),
        map_in(100, kLibBase + lib_exec, "/lib/libc.so.7"),
        map_in(100, 0x900000000, "/lib/libmissing.so.1"),
        sample(100, kPmcA, {memcpy_ + 1, work + 2}),
        sample(100, kPmcA, {memcpy_ + 3, work + 2}),
        sample(100, kPmcB, {write_ + 1, work + 2}),
        R"({"type":"procfork","oldpid":100,"newpid":101})",
        sample(101, kPmcA, {qsort_ + 1, child_work + 2}),
        sample(102, kPmcA, {0x1234}),
        sample(100, kPmcA, {0x900000010, work + 2}),
        sample(100, kPmcA, {0xffffffff80300000, 0xffffffff80300100, memcpy_ + 2, work + 2}, false),
        R"({"type":"closelog"})"});
  }

  reptest::Ran report(std::vector<std::string> args) {
    args.insert(args.begin(), REPORT_EXE);
    return reptest::run(args);
  }
};

TEST_F(Synthetic, FreeBsdLayoutResolvesUnderTheSysroot) {
  const std::string log = main_log();
  const auto r = report({"--format", "folded", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = reptest::parse_folded(r.out);
  const std::map<std::string, uint64_t> want = {
      {"cpu-clock;fakeprog_work;fbsd_memcpy", 2},
      {"instructions;fakeprog_work;fbsd_write", 1},
      {"cpu-clock;fakeprog_child_work;fbsd_qsort_cmp", 1},  // pid 101: inherited at fork
      {"cpu-clock;0x1234", 1},                              // no process 102 mapped
      {"cpu-clock;fakeprog_work;libmissing.so.1+0x10", 1},  // offset from its MAP_IN start
      {"cpu-clock;fakeprog_work;fbsd_memcpy;[kernel] 0xffffffff80300100_[k];"
       "[kernel] 0xffffffff80300000_[k]", 1},
  };
  EXPECT_EQ(f, want) << r.out;
  // What stayed unresolved, and why, closes the report (stderr without a top output).
  EXPECT_NE(r.err.find("# Unresolved: 3 of 7 samples (leaf frame): 1 outside every mapping, "
                       "2 object missing; 4 of 15 frames: 1 outside every mapping, 3 object missing"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/lib/libmissing.so.1: 1 frames, object missing"), std::string::npos);
}

TEST_F(Synthetic, WithoutTheSysrootTheObjectsAreMissing) {
  const std::string log = main_log();
  const auto r = report({"--format", "folded", "--event", "cpu-clock", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = reptest::parse_folded(r.out);
  // fakeprog is not on this machine: PROCEXEC cannot place it, so its frames are outside
  // every mapping; the libc MAP_IN still names the object and the offset in its mapping.
  const std::string lib = "libc.so.7+" + hex(memcpy_ + 1 - (kLibBase + lib_exec));
  EXPECT_EQ(f.count(hex(work + 2) + ";" + lib), 1u) << r.out;
  // The kernel image is named with --kernel, not found under a sysroot: the hint says so.
  // (libc: 2 samples of pid 100, 1 of its child, 1 under the kernel-mode record.)
  const size_t k = r.err.find("#   /boot/kernel/kernel: ");
  ASSERT_NE(k, std::string::npos) << r.err;
  const std::string line = r.err.substr(k, r.err.find('\n', k) - k);
  EXPECT_NE(line.find("object missing (give --kernel FILE?)"), std::string::npos) << line;
  EXPECT_NE(r.err.find("/lib/libc.so.7: 4 frames, object missing (give --sysroot?)"),
            std::string::npos) << r.err;
}

TEST_F(Synthetic, UnresolvedSummaryNamesTheReasonsOfEveryObject) {
  // 13 missing objects, object k with k + 1 samples; one path carries an escape sequence.
  std::vector<std::string> lines{kInit, kCpuClock};
  uint64_t beyond = 0;  // frames of the objects after the 10 listed
  for (int k = 0; k < 13; ++k) {
    const uint64_t at = 0x900000000 + uint64_t(k) * 0x1000000;
    const std::string path = k == 12 ? "/lib/\\u001b[31mred.so" : "/lib/libm" + std::to_string(k) + ".so";
    lines.push_back(map_in(100, at, path));
    for (int n = 0; n <= k; ++n) lines.push_back(sample(100, kPmcA, {at + 0x10}));
    if (k < 3) beyond += uint64_t(k) + 1;
  }
  lines.push_back(R"({"type":"closelog"})");
  const std::string log = reptest::write_log(dir, "many.pmclog", lines);
  const auto r = report({"--format", "folded", log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("#   ... and 3 more objects: " + std::to_string(beyond) + " frames, " +
                       std::to_string(beyond) + " object missing\n"),
            std::string::npos) << r.err;
  // Every listed object line states its reason.
  std::istringstream in(r.err);
  std::string line;
  int listed = 0;
  while (std::getline(in, line)) {
    if (line.rfind("#   /", 0) != 0) continue;
    ++listed;
    EXPECT_NE(line.find("object missing"), std::string::npos) << line;
  }
  EXPECT_EQ(listed, 10);
  // The log's path never reaches the terminal raw.
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("red.so: 13 frames, object missing"), std::string::npos) << r.err;
}

TEST_F(Synthetic, TwoEventsNeverMerge) {
  const std::string log = main_log();
  auto r = report({"--sysroot", root, "--by", "symbol", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = reptest::parse_top(r.out);
  uint64_t cpu_work = 0, ins_work = 0;
  for (const auto& row : rows) {
    if (row.symbol() == "fakeprog_work" && row.event == "cpu-clock") cpu_work = row.total;
    if (row.symbol() == "fakeprog_work" && row.event == "instructions") ins_work = row.total;
  }
  EXPECT_EQ(cpu_work, 4u) << r.out;  // 2 memcpy + missing lib + kernel record
  EXPECT_EQ(ins_work, 1u) << r.out;
  EXPECT_NE(r.out.find("# Event: cpu-clock, 6 samples"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# Event: instructions, 1 samples"), std::string::npos) << r.out;
  // One event selected: no event frame, and only its samples.
  r = report({"--format", "folded", "--sysroot", root, "--event", "instructions", log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "fakeprog_work;fbsd_write 1\n");
}

TEST_F(Synthetic, ForkChildrenUseInheritedMapsUntilTheyExec) {
  const std::string log = reptest::write_log(dir, "fork.pmclog", {
      kInit, kCpuClock,
      exec(100, "/usr/bin/fakeprog"),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7"),
      R"({"type":"procfork","oldpid":100,"newpid":101})",
      R"({"type":"procfork","oldpid":101,"newpid":102})",
      sample(102, kPmcA, {qsort_ + 1, child_work + 2}),  // grandchild: maps of 100
      R"({"type":"map-out","pid":101,"start_hex":")" + hex(kLibBase) + R"(","end_hex":")" +
          hex(kLibBase + 0x100000) + R"("})",
      sample(101, kPmcA, {qsort_ + 1, child_work + 2}),  // 101 unmapped its libc
      sample(100, kPmcA, {qsort_ + 1, child_work + 2}),  // the parent keeps its own
      exec(102, "/usr/bin/fakeprog"),
      sample(102, kPmcA, {qsort_ + 1, child_work + 2}),  // exec dropped the inherited libc
      R"({"type":"closelog"})"});
  const auto r = report({"--format", "folded", "--comm-frame", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = reptest::parse_folded(r.out);
  EXPECT_EQ(f.at("cpu-clock;fakeprog;fakeprog_child_work;fbsd_qsort_cmp"), 2u) << r.out;
  EXPECT_EQ(f.at("cpu-clock;fakeprog;fakeprog_child_work;" + hex(qsort_ + 1)), 2u) << r.out;
  EXPECT_EQ(f.size(), 2u) << r.out;
}

// A frame resolved once is remembered for the next stacks that share it, until a record
// changes the address spaces: the same caller address in libc, before and after libc is
// unmapped, under two different leaves (two stacks, so no whole stack is reused).
TEST_F(Synthetic, SharedCallerFramesAreResolvedAgainAfterAMapChange) {
  const std::string log = reptest::write_log(dir, "shared.pmclog", {
      kInit, kCpuClock,
      exec(100, "/usr/bin/fakeprog"),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7"),
      sample(100, kPmcA, {work + 2, memcpy_ + 1}),
      sample(100, kPmcA, {child_work + 2, memcpy_ + 1}),  // the caller, as remembered
      R"({"type":"map-out","pid":100,"start_hex":")" + hex(kLibBase) + R"(","end_hex":")" +
          hex(kLibBase + 0x100000) + R"("})",
      sample(100, kPmcA, {work + 3, memcpy_ + 1}),  // the same caller, now in no object
      R"({"type":"closelog"})"});
  const auto r = report({"--format", "folded", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = reptest::parse_folded(r.out);
  EXPECT_EQ(f.at("cpu-clock;fbsd_memcpy;fakeprog_work"), 1u) << r.out;
  EXPECT_EQ(f.at("cpu-clock;fbsd_memcpy;fakeprog_child_work"), 1u) << r.out;
  EXPECT_EQ(f.at("cpu-clock;" + hex(memcpy_ + 1) + ";fakeprog_work"), 1u) << r.out;
  EXPECT_EQ(f.size(), 3u) << r.out;
}

TEST_F(Synthetic, ModernLogsAreReplayedInTscOrder) {
  // Per-CPU buffers: the sample (tsc 200) is written before the MAP_IN (tsc 150) that it
  // needs, and a MAP_OUT (tsc 300) before a sample taken earlier (tsc 250).
  const std::string log = reptest::write_log(dir, "order.pmclog", {
      kInit, kCpuClock,
      exec(100, "/usr/bin/fakeprog", 1000000100),
      sample(100, kPmcA, {memcpy_ + 1, work + 2}, true, 1000000200),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7", 1000000150),
      R"({"type":"map-out","pid":100,"start_hex":")" + hex(kLibBase) + R"(","end_hex":")" +
          hex(kLibBase + 0x100000) + R"(","tsc":1000000300})",
      sample(100, kPmcA, {write_ + 1, work + 2}, true, 1000000250),
      sample(100, kPmcA, {qsort_ + 1, work + 2}, true, 1000000400),  // after the MAP_OUT
      R"({"type":"closelog","tsc":1000000500})"});
  const auto r = report({"--format", "folded", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = reptest::parse_folded(r.out);
  EXPECT_EQ(f.count("cpu-clock;fakeprog_work;fbsd_memcpy"), 1u) << r.out;
  EXPECT_EQ(f.count("cpu-clock;fakeprog_work;fbsd_write"), 1u) << r.out;
  EXPECT_EQ(f.count("cpu-clock;fakeprog_work;" + hex(qsort_ + 1)), 1u) << r.out;
}

TEST_F(Synthetic, TimeWindowAndModeFilters) {
  const std::string log = reptest::write_log(dir, "time.pmclog", {
      kInit, kCpuClock,
      exec(100, "/usr/bin/fakeprog", 1000000001),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7", 1000000002),
      sample(100, kPmcA, {memcpy_ + 1, work + 2}, true, 1500000000),  // 0.5 s
      sample(100, kPmcA, {write_ + 1, work + 2}, true, 2500000000),   // 1.5 s
      sample(100, kPmcA, {0xffffffff80300000, qsort_ + 2, work + 2}, false, 3500000000),  // 2.5 s
      R"({"type":"closelog","tsc":4000000000})"});
  auto r = report({"--format", "folded", "--sysroot", root, "--from", "1", "--to", "2", log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "cpu-clock;fakeprog_work;fbsd_write 1\n");
  r = report({"--format", "folded", "--sysroot", root, "--user-only", log});
  EXPECT_EQ(reptest::parse_folded(r.out).size(), 2u) << r.out;
  r = report({"--format", "folded", "--sysroot", root, "--kernel-only", log});
  EXPECT_EQ(r.out, "cpu-clock;[kernel] 0xffffffff80300000_[k] 1\n");
  r = report({"--format", "folded", "--sysroot", root, "--pid", "7", log});
  EXPECT_EQ(r.out, "");
}

// --comm and --cpu keep only what they name; --symfs is --sysroot under perf's name.
TEST_F(Synthetic, CommandAndCpuFiltersAndTheSymfsAlias) {
  std::string on_cpu1 = sample(100, kPmcA, {write_ + 1, work + 2}, true, 2500000000);
  on_cpu1.replace(on_cpu1.find("\"cpu\":0"), 7, "\"cpu\":1");
  const std::string log = reptest::write_log(dir, "filters.pmclog", {
      kInit, kCpuClock,
      exec(100, "/usr/bin/fakeprog", 1000000001),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7", 1000000002),
      exec(200, "/usr/bin/other", 1000000003),
      sample(100, kPmcA, {memcpy_ + 1, work + 2}, true, 1500000000),
      on_cpu1,
      sample(200, kPmcA, {0x500}, true, 3000000000),
      R"({"type":"closelog","tsc":4000000000})"});
  auto total = [](const std::string& folded) {
    uint64_t n = 0;
    for (const auto& [stack, c] : reptest::parse_folded(folded)) n += c;
    return n;
  };
  auto r = report({"--format", "folded", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(total(r.out), 3u) << r.out;
  r = report({"--format", "folded", "--sysroot", root, "--comm", "fakeprog", log});
  EXPECT_EQ(total(r.out), 2u) << r.out;
  EXPECT_EQ(r.out.find("0x500"), std::string::npos) << r.out;
  r = report({"--format", "folded", "--sysroot", root, "--comm", "other", log});
  EXPECT_EQ(r.out, "cpu-clock;0x500 1\n");
  r = report({"--format", "folded", "--sysroot", root, "--cpu", "1", log});
  EXPECT_EQ(r.out, "cpu-clock;fakeprog_work;fbsd_write 1\n");
  const auto symfs = report({"--format", "folded", "--symfs", root, log});
  EXPECT_EQ(symfs.out, report({"--format", "folded", "--sysroot", root, log}).out);
  EXPECT_NE(symfs.out.find("fbsd_memcpy"), std::string::npos) << symfs.out;
}

TEST_F(Synthetic, DamagedLogIsReportedAsFarAsGoodThenExitOne) {
  const std::string log = main_log();
  std::string bytes = reptest::slurp(log);
  // Cut the log inside the kernel-mode record (the last sample): 6 samples stay good.
  const std::string cut = dir.file("cut.pmclog");
  reptest::write_file(cut, bytes.substr(0, bytes.size() - 40));
  auto r = report({"--format", "folded", "--sysroot", root, cut});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cut.pmclog"), std::string::npos) << r.err;
  uint64_t n = 0;
  for (const auto& [s, c] : reptest::parse_folded(r.out)) n += c;
  EXPECT_EQ(n, 6u) << r.out;
}

TEST_F(Synthetic, KeepGoingStepsOverDamage) {
  const std::string log = main_log();
  // Break the magic of the second CALLCHAIN record (byte 3 of a little-endian header).
  std::vector<uint64_t> offsets;
  {
    auto opened = pmclog::open_log(log);
    ASSERT_TRUE(opened.ok());
    pmclog::Error err;
    opened->reader->for_each([&](const pmclog::Record& r) {
      if (r.kind == pmclog::Kind::callchain) offsets.push_back(r.offset);
    }, err);
  }
  ASSERT_EQ(offsets.size(), 7u);
  std::string bytes = reptest::slurp(log);
  bytes[offsets[1] + 3] = 0x12;
  const std::string bad = dir.file("bad.pmclog");
  reptest::write_file(bad, bytes);
  const auto count = [](const std::string& out) {
    uint64_t n = 0;
    for (const auto& [s, c] : reptest::parse_folded(out)) n += c;
    return n;
  };
  auto r = report({"--format", "folded", "--sysroot", root, bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(count(r.out), 1u) << r.out;  // what came before the damage
  r = report({"--format", "folded", "--sysroot", root, "--keep-going", bad});
  EXPECT_EQ(r.status, 1);  // as pmclog-dump: the damage still fails the run
  EXPECT_EQ(count(r.out), 6u) << r.out;  // every record but the broken one
  EXPECT_NE(r.err.find("damaged places skipped"), std::string::npos) << r.err;
}

TEST_F(Synthetic, KernelImageFromKernelOptionAndUserCallchains) {
  // The fake libc plays the kernel image: its first executable page is at the MAP_IN start.
  constexpr uint64_t kKernelAt = 0xffffffff80200000;
  const uint64_t text = reptest::exec_segment_page(FAKE_LIBC);
  const uint64_t kwrite = kKernelAt - text + reptest::symbol_address(FAKE_LIBC, "fbsd_write");
  const uint64_t kcmp = kKernelAt - text + reptest::symbol_address(FAKE_LIBC, "fbsd_qsort_cmp");
  const std::string log = reptest::write_log(dir, "kernel.pmclog", {
      kInit, kCpuClock,
      map_in(0xFFFFFFFFu, kKernelAt, "/boot/kernel/kernel"),
      exec(100, "/usr/bin/fakeprog"),
      map_in(100, kLibBase + lib_exec, "/lib/libc.so.7"),
      // PMC_F_USERCALLCHAIN: kernel frames, then the user frames, in one kernel-mode record.
      sample(100, kPmcA, {kwrite + 1, kcmp + 2, memcpy_ + 2, work + 2}, false),
      R"({"type":"closelog"})"});
  auto r = report({"--format", "folded", "--sysroot", root, "--kernel", root + "/lib/libc.so.7", log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "cpu-clock;fakeprog_work;fbsd_memcpy;fbsd_qsort_cmp_[k];fbsd_write_[k] 1\n");
  r = report({"--format", "folded", "--sysroot", root, log});
  EXPECT_EQ(r.out, "cpu-clock;fakeprog_work;fbsd_memcpy;[kernel] " + hex(kcmp + 2) +
                       "_[k];[kernel] " + hex(kwrite + 1) + "_[k] 1\n");
}

TEST_F(Synthetic, KallsymsOfThisMachine) {
  // pmclog-record's kernel mapping: "[kernel.kallsyms]" at this boot's _text.
  uint64_t text = 0, sym = 0;
  std::string name;
  {
    std::istringstream in(reptest::slurp("/proc/kallsyms"));
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string a, t, n;
      if (!(ls >> a >> t >> n)) continue;
      const uint64_t v = std::strtoull(a.c_str(), nullptr, 16);
      if (n == "_text") text = v;
      if (text != 0 && (t == "T" || t == "t") && v > text + 0x1000 && n.find('.') == std::string::npos) {
        sym = v;
        name = n;
        // The next symbol must start later, so that sym + 1 is inside this one.
        std::string l2;
        if (std::getline(in, l2) && std::strtoull(l2.c_str(), nullptr, 16) > v + 1) break;
        sym = 0;
      }
    }
  }
  if (text == 0 || sym == 0) GTEST_SKIP() << "/proc/kallsyms hides addresses here";
  const std::string log = reptest::write_log(dir, "kallsyms.pmclog", {
      kInit, kCpuClock, map_in(0xFFFFFFFFu, text, "[kernel.kallsyms]"),
      sample(100, kPmcA, {sym + 1}, false), R"({"type":"closelog"})"});
  auto r = report({"--format", "folded", log});
  EXPECT_EQ(r.out, "cpu-clock;" + name + "_[k] 1\n") << r.err;
  r = report({"--format", "folded", "--no-kallsyms", log});
  EXPECT_EQ(r.out, "cpu-clock;[kernel] " + hex(sym + 1) + "_[k] 1\n");
}

// A copy of kallsyms saved with the log (pmclog-record --kallsyms): its kernel's frames are
// named whatever this machine runs; a log whose kernel sits elsewhere is another boot's, and
// its frames stay unresolved rather than named from the wrong table.
TEST_F(Synthetic, SavedKallsymsNameOnlyTheKernelTheyDescribe) {
  const std::string saved = root + "/kallsyms.saved";
  reptest::write_file(saved,
                      "ffffffff81000000 T _text\n"
                      "ffffffff81000100 T first\n"
                      "ffffffff81000200 t second\n"
                      "ffffffff81000300 D some_data\n"
                      "ffffffff81000400 T third\n"
                      "ffffffffc0001000 t mod_func\t[ext4]\n");
  const auto log_at = [&](const std::string& name, uint64_t text) {
    return reptest::write_log(dir, name, {
        kInit, kCpuClock, map_in(0xFFFFFFFFu, text, "[kernel.kallsyms]"),
        sample(100, kPmcA, {text + 0x250, text + 0x110}, false),
        sample(100, kPmcA, {0xffffffffc0001010}, false), R"({"type":"closelog"})"});
  };
  auto r = report({"--format", "folded", "--kallsyms", saved,
                   log_at("saved.pmclog", 0xffffffff81000000u)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "cpu-clock;first_[k];second_[k] 1\ncpu-clock;mod_func_[k] 1\n");

  // kallsyms has no sizes: the last function of the kernel's text, or of a module, is taken
  // to end a page after the one it starts in; past that (here 0x2000 past the kernel's
  // third, 0x2000 past ext4's mod_func), no name is given rather than the last one's.
  const uint64_t text = 0xffffffff81000000u;
  const std::string ends = reptest::write_log(dir, "ends.pmclog", {
      kInit, kCpuClock, map_in(0xFFFFFFFFu, text, "[kernel.kallsyms]"),
      sample(100, kPmcA, {text + 0x1ff0}, false), sample(100, kPmcA, {text + 0x2000}, false),
      sample(100, kPmcA, {0xffffffffc0002ff0}, false),
      sample(100, kPmcA, {0xffffffffc0003000}, false), R"({"type":"closelog"})"});
  r = report({"--format", "folded", "--kallsyms", saved, ends});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "cpu-clock;[kernel] " + hex(text + 0x2000) + "_[k] 1\ncpu-clock;[kernel] " +
                       hex(0xffffffffc0003000) + "_[k] 1\ncpu-clock;mod_func_[k] 1\n" +
                       "cpu-clock;third_[k] 1\n");
  const uint64_t other = 0xffffffff9a000000u;
  r = report({"--format", "folded", "--kallsyms", saved, log_at("other.pmclog", other)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "cpu-clock;[kernel] " + hex(other + 0x110) + "_[k];[kernel] " +
                       hex(other + 0x250) + "_[k] 1\ncpu-clock;[kernel] " +
                       hex(0xffffffffc0001010) + "_[k] 1\n");
}

TEST_F(Synthetic, LogPathsCannotLeaveTheSysroot) {
  // The host's real fake libc, named through ".." and through a symlink in the sysroot.
  ASSERT_EQ(symlink(FAKE_LIBC, (root + "/lib/escape.so").c_str()), 0);
  const std::string up = std::string("/../../../../../../..") + FAKE_LIBC;
  const std::string log = reptest::write_log(dir, "escape.pmclog", {
      kInit, kCpuClock,
      map_in(100, kLibBase + lib_exec, up),
      map_in(100, 0x900000000 + lib_exec, "/lib/escape.so"),
      sample(100, kPmcA, {memcpy_ + 1}),
      sample(100, kPmcA, {memcpy_ - kLibBase + 0x900000000 + 1}),
      R"({"type":"closelog"})"});
  auto r = report({"--format", "folded", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("fbsd_memcpy"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("2 object missing"), std::string::npos) << r.err;
  // Without a sysroot the same host path is read, but this machine's (Linux) file is not the
  // object a FreeBSD log mapped: refused, with the reason.
  r = report({"--format", "folded", log});
  EXPECT_EQ(r.out.find("fbsd_memcpy"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("object missing: ELF not branded FreeBSD"), std::string::npos) << r.err;
}

// powerpc64 before FreeBSD 13 (format.md §19): 4-byte addresses in 8-byte slots,
// big-endian, M9. pmclog-write takes the ABI from the INITIALIZE line's address_slot; the
// report detects it from the bytes alone and resolves the 32-bit values.
TEST_F(Synthetic, NarrowAddressesResolve) {
  const uint64_t base = 0x28200000;  // a 32-bit libc load address
  const std::string init =
      R"({"type":"initialize","generation":"M9","byte_order":"big","address_width":4,)"
      R"("address_slot":8,"version":151191552,"arch":912,"tsc_freq":0,"cpuid":"POWER_004d","tsc":1000000000})";
  const std::string log = reptest::write_log(dir, "narrow.pmclog", {
      init, kCpuClock,
      R"({"type":"procexec","pid":100,"pmcid":4294053632,"entryaddr":0,"path":"/usr/bin/fakeprog"})",
      map_in(100, base + lib_exec, "/lib/libc.so.7"),
      sample(100, kPmcA, {base + memcpy_ - kLibBase + 1, work + 2}),
      sample(100, kPmcA, {base + write_ - kLibBase + 1, work + 2}),
      R"({"type":"closelog"})"});
  const auto bytes = reptest::slurp(log);
  auto det = pmclog::detect_abi({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  ASSERT_TRUE(det.ok()) << det.error().message;
  ASSERT_TRUE(det->abi.narrow()) << pmclog::describe(det->abi);
  ASSERT_EQ(det->abi.byte_order, pmclog::ByteOrder::big);
  // The MAP_IN is sized for an 8-byte start: 32 + strlen + 1, rounded (the path at 28).
  ASSERT_GT(bytes.size(), 112u + 40u);

  // This machine has no big-endian powerpc objects: the sysroot's little-endian x86 files
  // are refused, and the 32-bit values are checked through the unresolved names, which
  // count from the MAP_IN start (the program, placed by no record, keeps its raw address).
  const std::map<std::string, uint64_t> want = {
      {hex(work + 2) + ";libc.so.7+" + hex(memcpy_ - kLibBase + 1 - lib_exec), 1},
      {hex(work + 2) + ";libc.so.7+" + hex(write_ - kLibBase + 1 - lib_exec), 1}};
  for (bool with_root : {true, false}) {
    std::vector<std::string> args{"--format", "folded", "--event", "cpu-clock", log};
    if (with_root) args.insert(args.begin(), {"--sysroot", root});
    const auto r = report(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(reptest::parse_folded(r.out), want) << r.out << r.err;
    if (with_root) {
      EXPECT_NE(r.err.find("libc.so.7: 2 frames, object missing: little-endian ELF, log big-endian"),
                std::string::npos) << r.err;
    }
  }
}

// Stacks cut at a usual depth limit pile up at it: the report says so, once per log, and
// still writes the profile (exit 0). The same pile-up one frame short of it is a hot path.
TEST_F(Synthetic, StacksPiledUpAtADepthLimitAreCalledCut) {
  const auto log_up_to = [&](const std::string& name, size_t deepest) {
    std::vector<std::string> lines{kInit, kCpuClock, exec(100, "/usr/bin/fakeprog"),
                                   map_in(100, kLibBase + lib_exec, "/lib/libc.so.7")};
    const auto stack = [&](size_t n) {
      std::vector<uint64_t> pcs{memcpy_ + 1};
      while (pcs.size() < n) pcs.push_back(work + 2);
      return sample(100, kPmcA, pcs);
    };
    for (size_t n = 2; n < deepest; ++n) lines.push_back(stack(n));
    for (int i = 0; i < 12; ++i) lines.push_back(stack(deepest));
    lines.push_back(R"({"type":"closelog"})");
    return reptest::write_log(dir, name, lines);
  };
  const std::string cut = log_up_to("cut.pmclog", 32);
  const auto r = report({"--format", "folded", "--sysroot", root, cut});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("cut.pmclog: 12 of 42 samples have 32 frames, and none more"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("probably cut"), std::string::npos) << r.err;
  uint64_t samples = 0;
  for (const auto& [stack, n] : reptest::parse_folded(r.out)) samples += n;
  EXPECT_EQ(samples, 42u) << r.out;
  // Outputs outlive the run's messages: top's closing lines and the flame graph's subtitle
  // say it too.
  const auto top = report({"--sysroot", root, cut});
  ASSERT_EQ(top.status, 0) << top.err;
  EXPECT_NE(top.out.find("\n# Note: stacks of 12 samples probably cut at a depth limit of 32 "
                         "frames\n"),
            std::string::npos) << top.out;
  const auto ss = report({"--format", "speedscope", "--sysroot", root, cut});
  ASSERT_EQ(ss.status, 0) << ss.err;
  EXPECT_NE(ss.out.find(R"x(cut.pmclog (stacks of 12 samples probably cut at a depth limit )x"
                        R"x(of 32 frames)","shared")x"),
            std::string::npos) << ss.out.substr(0, 300);
  const std::string svg = dir.file("cut.svg");
  ASSERT_EQ(report({"--format", "svg", "-o", svg, "--sysroot", root, cut}).status, 0);
  EXPECT_NE(reptest::slurp(svg).find(
                "; stacks of 12 samples probably cut at a depth limit of 32 frames</text>"),
            std::string::npos);
  // Filters do not hide it: the limit is the recording's, whatever is reported of it.
  const auto other = report({"--format", "folded", "--event", "instructions", cut});
  EXPECT_NE(other.err.find("12 of 42 samples have 32 frames"), std::string::npos) << other.err;

  const std::string hot = log_up_to("hot.pmclog", 31);
  const auto h = report({"--format", "folded", "--sysroot", root, hot});
  ASSERT_EQ(h.status, 0) << h.err;
  EXPECT_EQ(h.err.find("frames, and none more"), std::string::npos) << h.err;
  const std::string hot_svg = dir.file("hot.svg");
  ASSERT_EQ(report({"--format", "svg", "-o", hot_svg, "--sysroot", root, hot}).status, 0);
  EXPECT_EQ(reptest::slurp(hot_svg).find("probably cut"), std::string::npos);
  EXPECT_EQ(report({"--sysroot", root, hot}).out.find("# Note:"), std::string::npos);
}

}  // namespace
