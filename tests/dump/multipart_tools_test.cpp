// Multipart (AMD IBS) callchains through every tool (format.md §17): a log written by
// pmclog-write from JSON Lines, shown by pmclog-dump (text, --explain, jsonl round trip),
// checked by pmclog-validate (the multipart-* rules), profiled by pmclog-report (the
// CALLCHAIN part as the stack, --ibs the op RIP as leaf); and `pmclog-write synth --ibs`.
#include <gtest/gtest.h>

#include <string>

#include "run_tool.h"

namespace dumptest {
namespace {


// INITIALIZE, PMCALLOCATE, then (offset 152) IBS_OP + CALLCHAIN of 3 frames; (offset 288) an
// IBS_OP part alone; (384) a plain callchain; (432) a header whose CALLCHAIN part runs past
// the record; (480) an unknown part type 9 and a nonzero byte after NONE; (544) an IBS_FETCH
// part of 3 values; (608) a plain callchain after them all; (656) CLOSELOG.
const char* const kLog = R"({"generation":"M10","type":"initialize","byte_order":"little","address_width":8,"time_width":8,"tsc":1000,"version":167772160,"arch":1,"tsc_freq":2400000000,"init_ts_sec":1725007902,"init_ts_nsec":0,"cpuid":""}
{"type":"pmcallocate","tsc":1001,"pmcid":512,"event":8344,"flags":131200,"rate":65536}
{"type":"callchain","tsc":1002,"pid":42,"tid":100,"pmcid":512,"cpuflags":3,"pcs":["0x3010803","0x61000","0x401234","0x5","0x0","0x1","0x8001000","0x1000","0x0","0x401200","0x402000","0x403000"]}
{"type":"callchain","tsc":1003,"pid":42,"tid":100,"pmcid":512,"cpuflags":3,"pcs":["0x803","0x61000","0x405555","0x5","0x0","0x1","0x8001000","0x1000","0x0"]}
{"type":"callchain","tsc":1004,"pid":42,"tid":100,"pmcid":512,"cpuflags":1,"pcs":["0x401000","0x402000"]}
{"type":"callchain","tsc":1005,"pid":42,"tid":100,"pmcid":512,"cpuflags":3,"pcs":["0x901","0x1"]}
{"type":"callchain","tsc":1006,"pid":42,"tid":100,"pmcid":512,"cpuflags":3,"pcs":["0x0500000001010209","0xaa","0xbb","0x401000"]}
{"type":"callchain","tsc":1007,"pid":42,"tid":100,"pmcid":512,"cpuflags":3,"pcs":["0x302","0x1","0x2","0x3"]}
{"type":"callchain","tsc":1008,"pid":42,"tid":100,"pmcid":512,"cpuflags":1,"pcs":["0x401000","0x402000"]}
{"type":"closelog","tsc":1009}
)";

class MultipartTools : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir();
    write_file(dir_ + "/mp.jsonl", kLog);
    log_ = dir_ + "/mp.pmclog";
    const Ran w = run({PMCLOG_WRITE_EXE, dir_ + "/mp.jsonl", "-o", log_});
    ASSERT_EQ(w.status, 0) << w.err;
  }
  std::string dir_, log_;
};

// The committed fixture (fixtures/multipart/README.md) is these lines, the bytes pmclog-write
// makes of them, and the dump's text of those bytes.
TEST_F(MultipartTools, CommittedFixtureIsUpToDate) {
  const std::string base = fixture("multipart/ibs-m10-64-le");
  EXPECT_EQ(slurp(base + ".jsonl"), kLog);
  EXPECT_EQ(slurp(base + ".pmclog"), slurp(log_));
  const Ran r = run_dump({base + ".pmclog"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, slurp(base + ".expected.txt"));
}

TEST_F(MultipartTools, DumpTextShowsEachPart) {
  const Ran r = run_dump({log_});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("part ibs_op len=8 ctl=0x61000 rip=0x401234 data=0x5 data2=0x0 data3=0x1 "
                       "dc_linaddr=0x8001000 dc_physaddr=0x1000 tgt_rip=0x0\n"
                       "             part callchain len=3\n"
                       "             [0] 0x401200 user\n"),
            std::string::npos)
      << r.out;
  // the damaged record says so, with its offset; the records after it are still shown
  EXPECT_NE(r.out.find("parts damaged: record at offset 432: multipart CALLCHAIN: part 0 "
                       "(callchain, 9 slots from slot 1) runs past the record's 2 slots"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("part type=9 len=2 raw 0xaa 0xbb"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("part ibs_fetch len=3 ctl=0x1 extctl=0x2 linaddr=0x3"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("       608 CALLCHAIN"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("       656 CLOSELOG"), std::string::npos) << r.out;
}

TEST_F(MultipartTools, ExplainLabelsEverySlot) {
  const Ran r = run_dump({"--explain", log_});
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* want :
       {"+32    03 08 01 03  0x03010803  pcs[0] part header ibs_op/8 callchain/3 none/0 none/0 (low word)",
        "+36    00 00 00 00  0x00000000  pcs[0] part header ibs_op/8 callchain/3 none/0 none/0 (high word)",
        "pcs[2] ibs_op rip (low word)", "pcs[7] ibs_op dc_physaddr (low word)",
        "pcs[8] ibs_op tgt_rip (low word)", "pcs[9] callchain part, frame 0 (low word)",
        "pcs[1] inside the damaged part", "pcs[1] part type 9, raw slot 0",
        "pcs[3] callchain part, frame 0", "pcs[1] ibs_fetch ctl (low word)"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST_F(MultipartTools, JsonlRoundTripIsByteExact) {
  const Ran r = jsonl_to_write({log_}, {"-o", dir_ + "/back.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(dir_ + "/back.pmclog"), slurp(log_));
  const Ran j = run_dump({"--format=jsonl", log_});
  EXPECT_NE(j.out.find("\"parts\":[{\"type\":\"ibs_op\",\"len\":8,\"first\":1,\"ctl\":\"0x61000\","
                       "\"rip\":\"0x401234\""),
            std::string::npos)
      << j.out;
  EXPECT_NE(j.out.find("\"parts\":[{\"error\":\"record at offset 432: multipart CALLCHAIN"),
            std::string::npos)
      << j.out;
}

TEST_F(MultipartTools, ValidateRules) {
  const Ran r = run({PMCLOG_VALIDATE_EXE, log_});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("(432): error: record at offset 432: multipart CALLCHAIN: part 0 (callchain, "
                     "9 slots from slot 1) runs past the record's 2 slots [multipart-damaged]"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("(480): warning: multipart part type 9 (2 slots from slot 1) is unknown; kept "
                     "raw [multipart-unknown-part]"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("(480): warning: multipart part header 09 02 01 01 00 00 00 05 has nonzero "
                     "bytes after its NONE entry [multipart-after-none]"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("(544): warning: multipart ibs_fetch part is 3 slots, not 4 (4 64-bit values "
                     "of 1 slot) [multipart-ibs-length]"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("1 error, 3 warnings"), std::string::npos) << all;
  const Ran l = run({PMCLOG_VALIDATE_EXE, "--list-rules"});
  for (const char* id : {"multipart-damaged", "multipart-after-none", "multipart-unknown-part",
                         "multipart-ibs-length"})
    EXPECT_NE(l.out.find(id), std::string::npos) << id;
}

TEST_F(MultipartTools, ReportStackAndIbsLeaf) {
  const std::vector<std::string> rep = {PMCLOG_REPORT_EXE, "--format", "folded", log_};
  const Ran plain = run(rep);
  EXPECT_EQ(plain.status, 0) << plain.err;
  // the CALLCHAIN part is the stack (root first in folded), also after an unknown part; the
  // op-only, fetch-only and damaged records have no frames
  EXPECT_EQ(plain.out,
            "BU_CPU_CLK_UNHALTED;0x401000 1\n"
            "BU_CPU_CLK_UNHALTED;0x402000;0x401000 2\n"
            "BU_CPU_CLK_UNHALTED;0x403000;0x402000;0x401200 1\n");
  const Ran ibs = run(concat({rep, {"--ibs"}}));
  EXPECT_EQ(ibs.status, 0) << ibs.err;
  EXPECT_EQ(ibs.out,
            "BU_CPU_CLK_UNHALTED;0x401000 1\n"
            "BU_CPU_CLK_UNHALTED;0x402000;0x401000 2\n"
            "BU_CPU_CLK_UNHALTED;0x403000;0x402000;0x401234 1\n"
            "BU_CPU_CLK_UNHALTED;0x405555 1\n");
}

// synth --ibs for both widths and byte orders: multipart records that decode with no damage,
// validate clean, and round-trip through JSON Lines.
TEST(MultipartSynth, DecodesAndValidates) {
  const std::string dir = temp_dir();
  for (const char* w : {"8", "4"}) {
    for (const char* o : {"little", "big"}) {
      const std::string f = dir + "/ibs_" + w + o + ".pmclog";
      Ran r = run({PMCLOG_WRITE_EXE, "synth", "--ibs", "-n", "400", "-q", "--address-width", w,
                   "--byte-order", o, "-o", f});
      ASSERT_EQ(r.status, 0) << r.err;
      r = run({PMCLOG_VALIDATE_EXE, "--address-width", w, f});
      EXPECT_EQ(r.status, 0) << w << o << r.out << r.err;
      EXPECT_NE(r.out.find("0 errors, 0 warnings"), std::string::npos) << r.out;
      r = run_dump({"--address-width", w, f});
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.out.find("part ibs_op len=" + std::string(w[0] == '8' ? "8" : "16")),
                std::string::npos);
      EXPECT_NE(r.out.find("part ibs_fetch len="), std::string::npos);
      EXPECT_NE(r.out.find("part callchain len="), std::string::npos);
      EXPECT_EQ(r.out.find("parts damaged"), std::string::npos);
      EXPECT_EQ(r.out.find("slots after the parts"), std::string::npos);
      r = jsonl_to_write({"--address-width", w, f}, {"-o", f + ".back"});
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(slurp(f + ".back"), slurp(f)) << w << o;
    }
  }
  const Ran l = run({PMCLOG_WRITE_EXE, "synth", "--ibs", "-n", "400", "--generation", "L3", "-o",
                     dir + "/l3.pmclog"});
  EXPECT_NE(l.status, 0);
  EXPECT_NE(l.err.find("--ibs"), std::string::npos) << l.err;
}

}  // namespace
}  // namespace dumptest
