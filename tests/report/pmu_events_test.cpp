// EV_PMU events (format.md §12.2) in every output of pmclog-report: the recording system's
// libpmc (here the stand-ins of tests/dump/pmu_events_libpmc.cpp under a sysroot, or
// --libpmc) names the pmu-events index; without it the event is pmu-event-0x6a and one note
// per run says what the number is. The expected name is the one written in that source.
#include <gtest/gtest.h>

#include "report_support.h"

using namespace reptest;

namespace {

const std::string kName = "cpu_clk_unhalted.core_p";  // index 0x6a of the Silvermont table
const std::string kNote =
    "pmu-events index 0x6a for GenuineIntel-6-4D-8; the recording system's libpmc names it: "
    "--sysroot or --libpmc";

std::string lib(const std::string& variant, const std::string& ext) {
  return std::string(PMU_LIBPMC_DIR) + "/libpmc_" + variant + "." + ext;
}

// Two system-mode pmcs of index 0x6a (as 15-CURRENT writes them) in a program that no sysroot
// holds: its frames stay unresolved, whatever this machine has.
std::string evpmu_log(const ScratchDir& dir) {
  return write_log(
      dir, "evpmu.pmclog",
      {R"({"generation":"M10","type":"initialize","byte_order":"little","address_width":8,)"
       R"("version":"0x0A000000","arch":146,"tsc_freq":2400000000,"cpuid":"GenuineIntel-6-4D-8"})",
       R"({"type":"pmcallocate","pmcid":"0x00020200","event":"0x6a","flags":"0x20280","rate":65536})",
       R"({"type":"pmcallocate","pmcid":"0x00120200","event":"0x6a","flags":"0x20280","rate":65536})",
       R"({"type":"map-in","pid":42,"start":"0x400000","path":"/nonexistent/pmu-test-prog"})",
       R"({"type":"callchain","pid":42,"tid":100,"pmcid":"0x00020200","cpu":0,"usermode":1,"pcs":["0x401000","0x401200"]})",
       R"({"type":"callchain","pid":42,"tid":100,"pmcid":"0x00120200","cpu":1,"usermode":1,"pcs":["0x401000"]})"});
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// Every output kind's text (pprof: its protobuf, gunzipped), with `opts`; stderr in `err`.
struct Outputs {
  std::string top, folded, svg, speedscope, callgraph, perf_script, pprof, err;
};

Outputs all_outputs(const ScratchDir& dir, const std::vector<std::string>& opts, const std::string& log) {
  Outputs o;
  const std::string pb = dir.file("out.pb.gz");
  std::vector<std::string> a = {REPORT_EXE};
  a.insert(a.end(), opts.begin(), opts.end());
  a.insert(a.end(), {"--format", "top,folded,svg,speedscope,callgraph,perf-script,pprof", "-o",
                     dir.file("top"), "-o", dir.file("folded"), "-o", dir.file("svg"), "-o",
                     dir.file("speedscope"), "-o", dir.file("callgraph"), "-o", dir.file("perf"), "-o", pb, log});
  const Ran r = run(a);
  EXPECT_EQ(r.status, 0) << r.err;
  o.err = r.err;
  o.top = slurp(dir.file("top"));
  o.folded = slurp(dir.file("folded"));
  o.svg = slurp(dir.file("svg"));
  o.speedscope = slurp(dir.file("speedscope"));
  o.callgraph = slurp(dir.file("callgraph"));
  o.perf_script = slurp(dir.file("perf"));
  const Ran z = run({"gzip", "-dc", pb});
  EXPECT_EQ(z.status, 0) << z.err;
  o.pprof = z.out;
  return o;
}

void expect_event(const Outputs& o, const std::string& name) {
  EXPECT_NE(o.top.find("# Event: " + name + ", 2 samples\n"), std::string::npos) << o.top;
  const auto folded = parse_folded(o.folded);
  ASSERT_EQ(folded.size(), 2u) << o.folded;
  for (const auto& [stack, n] : folded) EXPECT_EQ(stack.rfind(name + ";", 0), 0u) << stack;
  EXPECT_NE(o.svg.find("Flame graph: " + name), std::string::npos);
  EXPECT_NE(o.speedscope.find("\"name\":\"" + name + ": "), std::string::npos) << o.speedscope;
  EXPECT_EQ(o.callgraph.rfind("@ " + name + " [2 samples]\n", 0), 0u) << o.callgraph;
  EXPECT_EQ(count(o.perf_script, " " + name + ": "), 2u) << o.perf_script;
  EXPECT_NE(o.pprof.find(name), std::string::npos) << "pprof's sample type";
}

}  // namespace

// The sysroot's libpmc.so.5 (12-pointer layout, exact cpuids), or its libpmc.a (11, regex),
// or --libpmc: every output names the event as pmcstat would, and no note is printed.
TEST(PmuEvents, EveryOutputNamesTheEvent) {
  ScratchDir dir;
  const std::string log = evpmu_log(dir);
  const std::string so_root = dir.file("so-root"), a_root = dir.file("a-root");
  copy_file(lib("12_exact", "so"), so_root + "/usr/lib/libpmc.so.5");
  copy_file(lib("11_regex", "a"), a_root + "/usr/lib/libpmc.a");
  for (const std::vector<std::string>& opts :
       {std::vector<std::string>{"--sysroot", so_root}, {"--sysroot", a_root},
        {"--libpmc", lib("11_exact", "so")}, {"--sysroot", a_root, "--libpmc", lib("12_regex", "a")}}) {
    SCOPED_TRACE(opts.back());
    const Outputs o = all_outputs(dir, opts, log);
    EXPECT_EQ(o.err.find("note:"), std::string::npos) << o.err;
    expect_event(o, kName);
    EXPECT_EQ(o.top.find("pmu-event-0x6a"), std::string::npos) << o.top;
  }
}

// Without the tables the outputs call the event pmu-event-0x6a, never event-0x6a, and one
// note says what the number is, once for two inputs and four allocations.
TEST(PmuEvents, WithoutTheTablesOneNote) {
  ScratchDir dir;
  const std::string log = evpmu_log(dir);
  const Ran r = run({REPORT_EXE, log, log});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(r.err, "note: " + kNote + "\n"), 1u) << r.err;
  EXPECT_NE(r.out.find("# Event: pmu-event-0x6a, 4 samples\n"), std::string::npos) << r.out;
  const Outputs o = all_outputs(dir, {}, log);
  expect_event(o, "pmu-event-0x6a");
  // A sysroot without libpmc, or a damaged --libpmc, say so.
  reptest::make_dirs(dir.file("so-root-absent"));
  const Ran empty = run({REPORT_EXE, "--sysroot", dir.file("so-root-absent"), log});
  EXPECT_NE(empty.err.find("has no usr/lib/libpmc.so.5 or usr/lib/libpmc.a: --libpmc FILE"),
            std::string::npos)
      << empty.err;
  const Ran bad = run({REPORT_EXE, "--libpmc", lib("11_damaged", "so"), log});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find(lib("11_damaged", "so") +
                         ": pmu_events_map[1].table (cpuid \"GenuineIntel-6-4D-8\") is NULL"),
            std::string::npos)
      << bad.err;
}
