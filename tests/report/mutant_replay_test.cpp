// Address-space replay and sample selection, on logs whose every answer is known by
// construction (known/known_code.h): each test pins one rule that a plausible one-line slip
// breaks while every other report test still passes (tests/report/mutants/ holds such slips).
#include <gtest/gtest.h>

#include "mutant_support.h"

namespace {

using reptest::hex;

constexpr uint64_t kT0 = known::kT0;
constexpr uint64_t kSecond = 1000000000;  // TSC ticks at the log's 1 GHz
using known::kExecPath;
using known::kPiePath;
// Frames of the ET_EXEC at its own addresses: inside each function, callers one past a call.
constexpr uint64_t kLeaf = known::kExecText + KNOWN_LEAF + 1;
constexpr uint64_t kNext = known::kExecText + KNOWN_NEXT + 1;
constexpr uint64_t kRec = known::kExecText + KNOWN_REC + 1;
constexpr uint64_t kCaller = known::kExecText + KNOWN_CALLER + 1;
constexpr uint64_t kMainRet = known::kExecText + KNOWN_MAIN + 5;  // after its 5-byte call

struct KnownReplay : known::SysrootTest {
  // The folded profile of the log made of these records after the modern log's start.
  std::map<std::string, uint64_t> folded(const std::vector<std::string>& records,
                                         std::vector<std::string> args = {}) {
    std::vector<std::string> lines = known::modern_log_start();
    lines.insert(lines.end(), records.begin(), records.end());
    const std::string log = reptest::write_log(dir, "k.pmclog", lines);
    args.insert(args.begin(), {"--format", "folded"});
    return reptest::parse_folded(report_on(args, log).out);
  }
};

// A modern PROCEXEC gives a PIE's load base, and nothing else places the program (no MAP_IN,
// as on a kernel that logs none for the image): the object address is the run-time address
// minus that base, whatever the address of its first executable segment.
TEST_F(KnownReplay, PieProgramPlacedOnlyByItsProcexecLoadBase) {
  constexpr uint64_t base = 0x1000000;
  const uint64_t text = base + known::kPieText;
  const auto f = folded({
      known::exec(kT0 + 10, kPiePath, 0, base),
      known::sample(kT0 + 20, {text + KNOWN_LEAF + 1, text + KNOWN_MAIN + 5}),
      // The first and the last byte of its code.
      known::sample(kT0 + 30, {text + KNOWN_CALLER, text + KNOWN_MAIN + 5}),
      known::sample(kT0 + 40, {text + KNOWN_END - 1, text + KNOWN_MAIN + 5}),
      known::closelog(kT0 + 50)});
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_main;known_leaf", 1},
                                             {"cpu-clock;known_main;known_caller", 1},
                                             {"cpu-clock;known_main;known_main", 1}};
  EXPECT_EQ(f, want);
}

// MAP_OUT removes the mappings starting in [start, end): one starting exactly at `start` goes,
// one starting exactly at `end` stays.
TEST_F(KnownReplay, MapOutRemovesTheMappingStartingAtItsStart) {
  const uint64_t lo = known::kExecText, hi = lo + 0x1000;
  const auto f = folded({
      known::map_in(kT0 + 10, lo, kExecPath),
      known::map_out(kT0 + 20, lo - 0x1000, lo),  // ends where the mapping starts: it stays
      known::sample(kT0 + 30, {kLeaf, kMainRet}),
      known::map_out(kT0 + 40, lo, hi),
      known::sample(kT0 + 50, {kNext, kMainRet}),
      known::closelog(kT0 + 60)});
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_main;known_leaf", 1},
                                             {"cpu-clock;" + hex(kMainRet) + ";" + hex(kNext), 1}};
  EXPECT_EQ(f, want);
}

// Records with equal TSCs keep their file order, also when the reordering window holds them in
// different runs: a sample written after the MAP_IN of its TSC sees the mapping, one written
// after the MAP_OUT of its TSC does not.
TEST_F(KnownReplay, EqualTscsKeepFileOrderAcrossTheWindowsRuns) {
  const uint64_t lo = known::kExecText, hi = lo + 0x1000;
  const auto f = folded({
      known::map_in(kT0 + 100, lo, kExecPath),
      known::sample(kT0 + 300, {kRec, kMainRet}),
      known::sample(kT0 + 100, {kLeaf, kMainRet}),  // earlier than the last: a second run
      known::map_out(kT0 + 500, lo, hi),
      known::sample(kT0 + 700, {kCaller, kMainRet}),
      known::sample(kT0 + 500, {kNext, kMainRet}),  // joins the second run
      known::closelog(kT0 + 800)});
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_main;known_rec", 1},
                                             {"cpu-clock;known_main;known_leaf", 1},
                                             {"cpu-clock;" + hex(kMainRet) + ";" + hex(kCaller), 1},
                                             {"cpu-clock;" + hex(kMainRet) + ";" + hex(kNext), 1}};
  EXPECT_EQ(f, want);
}

// Legacy logs order by file order alone (their headers keep too few bits of time): records
// that all carry one time replay as written, MAP_OUT and MAP_IN taking effect in between.
TEST_F(KnownReplay, LegacyLogWithOneTimeThroughoutKeepsFileOrder) {
  const std::string at = R"(,"ts_sec":1700000000,"ts_nsec":5})";
  const auto sample = [&](uint64_t leaf) {
    return R"({"type":"callchain","pid":100,"pmcid":)" + std::to_string(reptest::synthetic::kPmcA) +
           R"(,"cpu":0,"usermode":1,"pcs_hex":[")" + hex(leaf) + R"(",")" + hex(kMainRet) +
           "\"]" + at;
  };
  const std::string map_in = R"({"type":"map-in","pid":100,"start_hex":")" + hex(known::kExecText) +
                             R"(","path":")" + kExecPath + "\"" + at;
  const std::string log = reptest::write_log(dir, "l3.pmclog", {
      R"({"type":"initialize","generation":"L3","byte_order":"little","address_width":8,)"
      R"("version":50331648,"arch":1024)" + at,
      R"({"type":"pmcallocatedyn","pmcid":)" + std::to_string(reptest::synthetic::kPmcA) +
          R"(,"event":131072,"flags":386,"evname":"cpu-clock")" + at,
      map_in, sample(kLeaf),
      R"({"type":"map-out","pid":100,"start_hex":")" + hex(known::kExecText) + R"(","end_hex":")" +
          hex(known::kExecText + 0x1000) + "\"" + at,
      sample(kNext), map_in, sample(kRec), R"({"type":"closelog")" + at});
  const auto r = report_on({"--format", "folded"}, log);
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_main;known_leaf", 1},
                                             {"cpu-clock;" + hex(kMainRet) + ";" + hex(kNext), 1},
                                             {"cpu-clock;known_main;known_rec", 1}};
  EXPECT_EQ(reptest::parse_folded(r.out), want);
}

// --from and --to are seconds after the log's first record (its INITIALIZE at kT0): a sample
// exactly at --from is in, one exactly at --to is out.
TEST_F(KnownReplay, TimeWindowIncludesItsStartAndExcludesItsEnd) {
  const auto f = folded({
      known::map_in(kT0 + 10, known::kExecText, kExecPath),
      known::sample(kT0 + kSecond - 1, {kCaller, kMainRet}),  // 0.999999999 s
      known::sample(kT0 + kSecond, {kLeaf, kMainRet}),         // 1 s
      known::sample(kT0 + kSecond + kSecond / 2, {kRec, kMainRet}),
      known::sample(kT0 + 2 * kSecond, {kNext, kMainRet}),     // 2 s
      known::closelog(kT0 + 3 * kSecond)},
      {"--from", "1", "--to", "2"});
  const std::map<std::string, uint64_t> want{{"cpu-clock;known_main;known_leaf", 1},
                                             {"cpu-clock;known_main;known_rec", 1}};
  EXPECT_EQ(f, want);
}

}  // namespace
