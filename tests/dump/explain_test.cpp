// --explain: each 32-bit word in file byte order, its value and its field (FORMAT.md §2-§5),
// checked by hand against the golden logs' bytes and listings.
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

TEST(Explain, LegacyInitializeAndCallchainWords) {
  const ToolRun r = run_dump({"--explain", "--head", "2", fixture("golden/seed-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  // 1700000000 = 0x6553f100; INITIALIZE is 20 bytes, type 2 (FORMAT.md §4)
  EXPECT_EQ(r.out.substr(0, r.out.find("@20 ")),
            "@0 INITIALIZE (type 2, 20 bytes)\n"
            "  +0     14 00 02 ee  0xee020014  header: magic 0xee, type 2, length 20\n"
            "  +4     00 f1 53 65  0x6553f100  ts_sec\n"
            "  +8     01 00 00 00  0x00000001  ts_nsec (28 bits)\n"
            "  +12    00 00 01 03  0x03010000  version\n"
            "  +16    8b 00 00 00  0x0000008b  arch\n");
  // CALLCHAIN: pc 0x7fffdeadbee0 as two words, low word first
  EXPECT_NE(r.out.find("  +24    e0 be ad de  0xdeadbee0  pcs[0] (low word)\n"
                       "  +28    ff 7f 00 00  0x00007fff  pcs[0] (high word)\n"),
            std::string::npos)
      << r.out;
}

TEST(Explain, ModernPmcallocatedynShowsRateThenName) {
  const ToolRun r = run_dump({"--explain", "--type", "pmcallocatedyn", "--head", "1",
                          fixture("golden/modern-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  // The stable/12 writer puts the rate (0x10000) at 32 and the name at 40 (FORMAT.md §5).
  EXPECT_NE(r.out.find("  +4     00 00 00 00  0x00000000  spare (unwritten by the kernel)\n"), std::string::npos);
  EXPECT_NE(r.out.find("  +32    00 00 01 00  0x00010000  rate (low word)\n"
                       "  +36    00 00 00 00  0x00000000  rate (high word)\n"
                       "  +40    50 41 47 45  0x45474150  evname[0..3] \"PAGE\"\n"),
            std::string::npos)
      << r.out;
}
