// --format=text (the default): lines checked by hand against the golden listings
// (fixtures/golden/*.expected.txt) and format.md §9 (pmc id layouts, flags, cpuflags).
#include <gtest/gtest.h>

#include "build_log.h"
#include "run_tool.h"

using namespace dumptest;

namespace {

bool has_line(const std::string& out, const std::string& line) {
  for (const auto& l : lines(out))
    if (l == line) return true;
  return false;
}

}  // namespace

TEST(Text, LegacyLinesNameEveryField) {
  const Ran r = run_dump({fixture("golden/seed-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* want : {
           // version 3.1.0, cputype 0x8b = COREI7 (format.md §9.4)
           "         0 INITIALIZE     ts=1700000000.000000001 version=0x03010000 (3.1.0) arch=0x8b (INTEL_COREI7)",
           // pmc id layout I: cpu 3, mode 1 = SC, class 7, row 2; cpuflags cpu 3, USERSPACE
           "        20 CALLCHAIN      ts=1700000001.123456789 pid=286331153 pmcid=0x03010702 (cpu=3 mode=SC class=7 row=2) cpuflags=0x00030001 (cpu=3 user) npc=1",
           "             [0] 0x7fffdeadbee0 user",
           "       420 CALLCHAIN      ts=1700000004.000000004 pid=-1 pmcid=0x03010705 (cpu=3 mode=SC class=7 row=5) cpuflags=0x00000000 (cpu=0 kernel) npc=1",
           "             [0] 0xffffffff80abcdef kernel",
           "       452 DROPNOTIFY     ts=1700000005.000000005",
           // 0xff = PMC_CPU_ANY; flags 0x20086 = DESCENDANTS 0x2 | LOG_PROCCSW 0x4 | CALLCHAIN 0x80 | NEEDS_LOGFILE 0x20000
           "      4808 PMCALLOCATE    ts=1700000015.000000022 pmcid=0xff030602 (cpu=any mode=TC class=6 row=2) event=0x10000 (INSTR_RETIRED_ANY) flags=0x20086 (DESCENDANTS|LOG_PROCCSW|CALLCHAIN|NEEDS_LOGFILE)",
           // 0x8000000000000001 unsigned
           "      5228 PROCCSW        ts=1700000024.000000031 pmcid=0x0503070a (cpu=5 mode=TC class=7 row=10) value=9223372036854775809 pid=1717960706",
           "      5256 PROCEXEC       ts=1700000025.000000032 pid=2004287489 entryaddr=0x800a1b2c3 pmcid=0x0603070b (cpu=6 mode=TC class=7 row=11) path=\"/usr/local/bin/peer-golden-exec\"",
           "      5344 PROCFORK       ts=1700000027.000000034 oldpid=1145307137 newpid=1145307138",
           "      5380 USERDATA       ts=1700000029.000000036 userdata=0xdeadbeef",
           // the 28-bit nanosecond mask (format.md §3.2)
           "      5396 CLOSELOG       ts=4294967295.194693631",
       }) {
    EXPECT_TRUE(has_line(r.out, want)) << want;
  }
}

TEST(Text, ModernLinesShowTscAndSecondsFromInitialize) {
  const Ran r = run_dump({fixture("golden/modern-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* want : {
           // tsc_freq 0xb2d05e00 = 3 GHz: 0x0011223344556600 / 3e9 = 1607559.396401664 s
           "         0 INITIALIZE     tsc=4822678189204992 (1607559.396401664s) version=0x09030000 (9.3.0) arch=0x98 (INTEL_SKYLAKE) tsc_freq=3000000000 init_ts_sec=1700000000 init_ts_nsec=123456789 cpuid=\"GenuineIntel-6-55-4\"",
           // pmc id layout II: cpu 31..20 = 3, mode 19..12 = 2 (TS), class 11..8 = 7, row 2
           "       112 CALLCHAIN      tsc=48057234611896321 (16019078.203965440s) pid=286331153 tid=100865 pmcid=0x00302702 (cpu=3 mode=TS class=7 row=2) cpuflags=0x00030001 (cpu=3 user) npc=1",
           "      9152 PROCCSW        tsc=4822678189209360 (1607559.396403120s) value=81985529216486895 pmcid=0x00503709 (cpu=5 mode=TC class=7 row=9) pid=1717960705 tid=100001",
           "      9456 THR_EXIT       tsc=4822678189211544 (1607559.396403848s) tid=100002",
       }) {
    EXPECT_TRUE(has_line(r.out, want)) << want;
  }
}

// A kernel-flagged record with user frames after the kernel ones (PMC_F_USERCALLCHAIN, or a
// recorder that merges them): each frame is labelled by its own address in 64-bit logs.
TEST(Text, MergedCallchainFramesLabelledByAddress) {
  using pmclog::Field;
  using pmclog::Kind;
  auto build = [](uint8_t width, const std::vector<uint64_t>& pcs, uint64_t cpuflags) {
    LogBuilder b(pmclog::Abi::make(pmclog::Generation::M10, width, pmclog::ByteOrder::little));
    b.add(Kind::initialize)[Field::version] = 0x0A000000;
    auto& c = b.add(Kind::callchain);
    c[Field::pid] = 1234;
    c[Field::tid] = 100001;
    c[Field::pmcid] = 0xfff20f00;
    c[Field::cpuflags] = cpuflags;
    c.pcs = pcs;
    const std::string path = temp_dir() + "/merged-" + std::to_string(width) + "-" +
                             std::to_string(cpuflags) + ".pmclog";
    write_file(path, b.finish());
    return run_dump({path}).out;
  };
  const std::string merged = build(8, {0xffffffff80b3c9f1, 0x800a01234, 0x400b2c}, 0x10000);
  EXPECT_TRUE(has_line(merged, "             [0] 0xffffffff80b3c9f1 kernel")) << merged;
  EXPECT_TRUE(has_line(merged, "             [1] 0x800a01234 user")) << merged;
  EXPECT_TRUE(has_line(merged, "             [2] 0x400b2c user")) << merged;
  // A user-mode record is all user, whatever its addresses.
  const std::string user = build(8, {0x400b2c, 0xffffffff80b3c9f1}, 0x10001);
  EXPECT_TRUE(has_line(user, "             [1] 0xffffffff80b3c9f1 user")) << user;
  // 32-bit ports split the address space differently: the record's flag decides.
  const std::string narrow = build(4, {0xc0a12345, 0x0804a000}, 0x10000);
  EXPECT_TRUE(has_line(narrow, "             [1] 0x804a000 kernel")) << narrow;
}
