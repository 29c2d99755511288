// --format pprof read by Google's pprof itself (built by tests/report/CMakeLists.txt from
// Debian's packaged source), as a user reads it: no -symbolize flag, so pprof does whatever it
// does with the mappings. Its -top, -traces, -tags, -tagfocus and -proto (merge) must give
// top's per-function self and total samples, per CPU, process and thread, on a log built
// here whose samples ran on CPU 0 and CPU 1, in pid 0 and in a process whose program is at a
// path that exists on this machine, with symbols, but is not the log's (--sysroot is empty).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "report_support.h"

namespace {

using reptest::hex;

// function -> (flat, cum): pprof's -top columns, or top's self and total.
using Figures = std::map<std::string, std::pair<uint64_t, uint64_t>>;

bool have_pprof() { return std::string(PPROF_EXE) != ""; }
#define REQUIRE_PPROF()                                                                        \
  if (!have_pprof())                                                                           \
  GTEST_SKIP() << "Google's pprof could not be built: this build found no `go` (golang-go) or " \
                  "no /usr/share/gocode/src/github.com/google/pprof "                          \
                  "(golang-github-google-pprof-dev); scripts/setup.sh installs both"

reptest::Ran pprof(std::vector<std::string> args) {
  args.insert(args.begin(), PPROF_EXE);
  return reptest::run(args);
}

reptest::Ran report(std::vector<std::string> args) {
  args.insert(args.begin(), REPORT_EXE);
  return reptest::run(args);
}

// pprof -top: "FLAT FLAT% SUM% CUM CUM% NAME" per function (NAME may hold spaces).
Figures parse_pprof_top(const std::string& text, uint64_t& total) {
  Figures out;
  total = 0;
  const std::regex row(R"(^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.+)$)");
  const std::regex showing(R"(^Showing nodes accounting for \d+, [\d.]+% of (\d+) total)");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, showing)) total = std::stoull(m[1]);
    if (!std::regex_match(line, m, row)) continue;
    EXPECT_TRUE(out.emplace(m[3], std::make_pair(std::stoull(m[1]), std::stoull(m[2]))).second)
        << "twice in pprof -top: " << m[3];
  }
  return out;
}

Figures pprof_top(const std::vector<std::string>& args, uint64_t& total) {
  std::vector<std::string> a{"-top", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0"};
  a.insert(a.end(), args.begin(), args.end());
  const auto r = pprof(a);
  EXPECT_EQ(r.status, 0) << r.err;
  return parse_pprof_top(r.out, total);
}

// top --by symbol of the same inputs and filters: (self, total) per function, one event.
Figures our_top(const std::vector<std::string>& args, uint64_t& samples) {
  std::vector<std::string> a{"--by", "symbol"};
  a.insert(a.end(), args.begin(), args.end());
  const auto r = report(a);
  EXPECT_EQ(r.status, 0) << r.err;
  Figures out;
  for (const auto& row : reptest::parse_top(r.out)) {
    EXPECT_EQ(row.event, "cpu-clock");
    out[row.symbol()] = {row.self, row.total};
  }
  samples = 0;
  const std::regex head(R"(# Event: cpu-clock, (\d+) samples)");
  std::smatch m;
  if (std::regex_search(r.out, m, head)) samples = std::stoull(m[1]);
  return out;
}

// pprof -tags: key -> value -> samples.
std::map<std::string, std::map<std::string, uint64_t>> parse_tags(const std::string& text) {
  std::map<std::string, std::map<std::string, uint64_t>> out;
  const std::regex key(R"(^\s*(\w+): Total ([\d.]+)$)"), value(R"(^\s*([\d.]+) \(\s*[\d.]+%\): (.*)$)");
  std::string current;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, key)) current = m[1];
    else if (std::regex_match(line, m, value) && !current.empty())
      out[current][m[2]] += static_cast<uint64_t>(std::stod(m[1]));
  }
  return out;
}

// pprof -tags of a profile, parsed.
std::map<std::string, std::map<std::string, uint64_t>> tags_of(const std::string& profile) {
  const auto r = pprof({"-tags", profile});
  EXPECT_EQ(r.status, 0) << r.err;
  return parse_tags(r.out);
}

// pprof -traces: each sample's labels ("%10s:  %s") and stack ("%10s   %s", the value on the
// leaf's line), between separator lines.
struct Trace {
  std::map<std::string, std::string> labels;
  uint64_t value = 0;
  std::vector<std::string> stack;  // leaf first
};
std::vector<Trace> parse_traces(const std::string& text) {
  std::vector<Trace> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("-----------+", 0) == 0) {
      out.emplace_back();
      inside = true;
      continue;
    }
    if (!inside || line.size() < 13) continue;
    if (line.compare(10, 3, "   ") == 0) {
      const std::string v = line.substr(0, 10);
      if (v.find_first_not_of(' ') != std::string::npos) out.back().value = std::stoull(v);
      out.back().stack.push_back(line.substr(13));
    } else if (line.compare(10, 3, ":  ") == 0) {
      out.back().labels[line.substr(line.find_first_not_of(' '), 10 - line.find_first_not_of(' '))] =
          line.substr(13);
    }
  }
  if (!out.empty() && out.back().stack.empty()) out.pop_back();  // after the last separator
  return out;
}

// The log: an M10 log from "another machine" (--sysroot empty: no object is found).
// Process 700 runs a program at the path of this build's hot workload, a real PIE with
// symbols here; pid 0 is the kernel's own process. Samples by construction:
//   cpu 0: 3 x (leaf, middle, outer) tid 7000, 2 x kernel stack pid 0 tid 100000,
//          1 x recursion (libc A, libc B, libc A, outer) tid 7001
//   cpu 1: 2 x (leaf, middle, outer) tid 7000, 5 x (libc A, middle, outer) tid 7001
constexpr uint32_t kPid = 700, kTid = 7000, kTid2 = 7001;
using Counts = std::map<std::string, uint64_t>;
const Counts kByCpu{{"0", 6}, {"1", 7}};
const Counts kByPid{{"0", 2}, {"700", 11}};
const Counts kByTid{{"100000", 2}, {"7000", 5}, {"7001", 6}};
constexpr uint64_t kSamples = 13;
constexpr uint64_t kBase = 0x1000000;  // the PIE's load base
constexpr uint64_t kLib = 0x800200000;

struct Addresses {
  uint64_t leaf, middle, outer, lib_a, lib_b;
  static constexpr uint64_t kernel_leaf = 0xffffffff80201000, kernel_caller = 0xffffffff80200500;
};

Addresses addresses() {
  Addresses a{};
  // Inside each function, past its first byte (a return address points into its caller).
  a.leaf = kBase + reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot8leaf_hotEm") + 4;
  a.middle = kBase + reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot13middle_callerEm") + 5;
  a.outer = kBase + reptest::symbol_address(WORKLOAD_HOT, "_ZN7hotspot12outer_callerEm") + 5;
  a.lib_a = kLib + 0x1010;
  a.lib_b = kLib + 0x1040;
  return a;
}

std::string callchain(uint32_t pid, uint32_t tid, uint32_t cpu, const std::vector<uint64_t>& pcs,
                      uint64_t tsc, bool user = true) {
  std::string s = R"({"type":"callchain","pid":)" + std::to_string(pid) + R"(,"tid":)" +
                  std::to_string(tid) + R"(,"pmcid":4294053632,"cpu":)" + std::to_string(cpu) +
                  R"(,"usermode":)" + (user ? "1" : "0") + R"(,"tsc":)" + std::to_string(tsc) +
                  R"(,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + "]}";
}

// The records before the samples; `part` selects the samples of one of two logs (0: all).
std::string write_log(const reptest::ScratchDir& dir, const std::string& name, int part) {
  const Addresses a = addresses();
  std::vector<std::string> l{
      reptest::synthetic::kInit, reptest::synthetic::kCpuClock,
      R"({"type":"map-in","pid":4294967295,"start_hex":"0xffffffff80200000","path":"/boot/kernel/kernel","tsc":1000000001})",
      R"({"type":"procexec","pid":700,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":")" + hex(kBase) +
          R"(","path":")" + std::string(WORKLOAD_HOT) + R"(","tsc":1000000002})",
      R"({"type":"map-in","pid":700,"start_hex":")" + hex(kLib) +
          R"(","path":"/lib/libc.so.7","tsc":1000000003})"};
  uint64_t tsc = 1000001000;
  const auto add = [&](int which, int times, uint32_t pid, uint32_t tid, uint32_t cpu,
                       const std::vector<uint64_t>& pcs, bool user = true) {
    for (int i = 0; i < times; ++i, tsc += 1000)
      if (part == 0 || part == which) l.push_back(callchain(pid, tid, cpu, pcs, tsc, user));
  };
  add(1, 3, kPid, kTid, 0, {a.leaf, a.middle, a.outer});
  add(1, 2, 0, 100000, 0, {Addresses::kernel_leaf, Addresses::kernel_caller}, false);
  add(2, 1, kPid, kTid2, 0, {a.lib_a, a.lib_b, a.lib_a, a.outer});
  add(2, 2, kPid, kTid, 1, {a.leaf, a.middle, a.outer});
  add(1, 5, kPid, kTid2, 1, {a.lib_a, a.middle, a.outer});
  l.push_back(R"({"type":"closelog","tsc":1000100000})");
  return reptest::write_log(dir, name, l);
}

struct Fixture {
  reptest::ScratchDir dir;
  std::string log, profile, sysroot;
  Fixture() {
    log = write_log(dir, "two-cpus.pmclog", 0);
    sysroot = dir.file("empty");
    reptest::make_dirs(sysroot);
    profile = dir.file("two-cpus.pb.gz");
    const auto r = report({"--sysroot", sysroot, "--format", "pprof", "-o", profile, log});
    EXPECT_EQ(r.status, 0) << r.err;
  }
};

TEST(PprofGo, TopGivesTopsFlatAndCumPerFunction) {
  REQUIRE_PPROF();
  Fixture f;
  uint64_t pprof_total = 0, samples = 0;
  const Figures got = pprof_top({f.profile}, pprof_total);
  const Figures want = our_top({"--sysroot", f.sysroot, f.log}, samples);
  EXPECT_EQ(samples, kSamples);
  EXPECT_EQ(pprof_total, samples);
  ASSERT_GE(want.size(), 6u);
  // pprof names no frame from the file at the program's path on this machine.
  EXPECT_EQ(got, want);
  // The recursive stack counts its function once in cum, as top's total does.
  EXPECT_EQ(want.at("libc.so.7+0x1010").second, 6u);
}

TEST(PprofGo, TagsCountEveryCpuPidAndTidIncludingZero) {
  REQUIRE_PPROF();
  Fixture f;
  const auto tags = tags_of(f.profile);
  EXPECT_EQ(tags.count("cpu") ? tags.at("cpu") : Counts{}, kByCpu);
  EXPECT_EQ(tags.count("pid") ? tags.at("pid") : Counts{}, kByPid);
  EXPECT_EQ(tags.count("tid") ? tags.at("tid") : Counts{}, kByTid);
}

TEST(PprofGo, TagfocusSelectsWhatTopsFiltersSelect) {
  REQUIRE_PPROF();
  Fixture f;
  // Each pprof focus against top over the same filter: per function, and in all.
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"cpu=0", {"--cpu", "0"}},   {"cpu=1", {"--cpu", "1"}},       {"pid=0", {"--pid", "0"}},
      {"pid=700", {"--pid", "700"}}, {"tid=7001", {"--tid", "7001"}}};
  const Counts expected{{"cpu=0", kByCpu.at("0")},   {"cpu=1", kByCpu.at("1")},
                        {"pid=0", kByPid.at("0")},   {"pid=700", kByPid.at("700")},
                        {"tid=7001", kByTid.at("7001")}};
  for (const auto& [focus, filter] : cases) {
    SCOPED_TRACE(focus);
    uint64_t pprof_total = 0, samples = 0;
    std::vector<std::string> pa{"-tagfocus=" + focus, f.profile};
    // pprof's total is of the whole profile; what the focus kept is in the rows.
    const Figures got = pprof_top(pa, pprof_total);
    std::vector<std::string> ta{"--sysroot", f.sysroot};
    ta.insert(ta.end(), filter.begin(), filter.end());
    ta.push_back(f.log);
    const Figures want = our_top(ta, samples);
    EXPECT_EQ(samples, expected.at(focus));
    EXPECT_EQ(got, want);
  }
}

TEST(PprofGo, TracesCarryTheirLabelsAndAddUpToTop) {
  REQUIRE_PPROF();
  Fixture f;
  const auto r = pprof({"-traces", f.profile});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto traces = parse_traces(r.out);
  ASSERT_FALSE(traces.empty()) << r.out;
  Figures from_traces;
  Counts per_cpu;
  uint64_t all = 0;
  for (const Trace& t : traces) {
    ASSERT_FALSE(t.stack.empty());
    for (const char* k : {"cpu", "pid", "tid", "comm", "file"})
      EXPECT_TRUE(t.labels.count(k)) << "a trace without its " << k << " label: " << t.stack.front();
    all += t.value;
    if (t.labels.count("cpu")) per_cpu[t.labels.at("cpu")] += t.value;
    from_traces[t.stack.front()].first += t.value;
    std::set<std::string> once(t.stack.begin(), t.stack.end());
    for (const auto& fn : once) from_traces[fn].second += t.value;
  }
  uint64_t samples = 0;
  EXPECT_EQ(from_traces, our_top({"--sysroot", f.sysroot, f.log}, samples));
  EXPECT_EQ(all, samples);
  EXPECT_EQ(per_cpu, kByCpu);
}

TEST(PprofGo, ProtoMergeOfTwoLogsGivesTopOfBoth) {
  REQUIRE_PPROF();
  Fixture f;
  const std::string a = write_log(f.dir, "a.pmclog", 1), b = write_log(f.dir, "b.pmclog", 2);
  for (const auto& log : {a, b}) {
    const auto r = report({"--sysroot", f.sysroot, "--format", "pprof", "-o", log + ".pb.gz", log});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const std::string merged = f.dir.file("merged.pb.gz");
  const auto r = pprof({"-proto", "-output", merged, a + ".pb.gz", b + ".pb.gz"});
  ASSERT_EQ(r.status, 0) << r.err;
  uint64_t pprof_total = 0, samples = 0;
  const Figures got = pprof_top({merged}, pprof_total);
  const Figures want = our_top({"--sysroot", f.sysroot, a, b}, samples);
  EXPECT_EQ(samples, kSamples);
  EXPECT_EQ(pprof_total, samples);
  EXPECT_EQ(got, want);
  // The labels survive the merge: CPU 0 and pid 0 too.
  const auto tags = tags_of(merged);
  EXPECT_EQ(tags.count("cpu") ? tags.at("cpu") : Counts{}, kByCpu);
  EXPECT_EQ(tags.count("pid") ? tags.at("pid") : Counts{}, kByPid);
}

// Stacks that look cut at a depth limit are said so in the profile itself, where pprof shows
// its comments (-comments, and the header of -top): the file outlives the run's messages.
TEST(PprofGo, StacksCutAtADepthLimitAreAComment) {
  REQUIRE_PPROF();
  reptest::ScratchDir dir;
  const Addresses a = addresses();
  std::vector<std::string> l{
      reptest::synthetic::kInit, reptest::synthetic::kCpuClock,
      R"({"type":"procexec","pid":700,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":")" +
          hex(kBase) + R"(","path":")" + std::string(WORKLOAD_HOT) + R"(","tsc":1000000002})"};
  uint64_t tsc = 1000001000;
  const auto add = [&](size_t frames, int times) {
    std::vector<uint64_t> pcs{a.leaf};
    while (pcs.size() < frames) pcs.push_back(a.middle);
    for (int i = 0; i < times; ++i, tsc += 1000) l.push_back(callchain(kPid, kTid, 0, pcs, tsc));
  };
  for (size_t n = 2; n < 128; ++n) add(n, 1);
  add(128, 7);
  l.push_back(R"({"type":"closelog","tsc":1000900000})");
  const std::string log = reptest::write_log(dir, "cut.pmclog", l);
  const std::string profile = dir.file("cut.pb.gz"), whole = dir.file("whole.pb.gz");
  ASSERT_EQ(report({"--format", "pprof", "-o", profile, log}).status, 0);
  const auto r = pprof({"-comments", profile});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "stacks of 7 samples probably cut at a depth limit of 128 frames\n");
  // The same stacks with none at the limit: no comment.
  l.erase(l.end() - 8, l.end() - 1);
  ASSERT_EQ(report({"--format", "pprof", "-o", whole, reptest::write_log(dir, "whole.pmclog", l)})
                .status, 0);
  const auto w = pprof({"-comments", whole});
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_EQ(w.out, "");
  // One profile per input: each says what its own input's stacks are.
  const std::string folder = dir.file("each");
  reptest::make_dirs(folder);
  ASSERT_EQ(report({"--by-file", "--format", "pprof", "-o", folder, dir.file("whole.pmclog"), log})
                .status, 0);
  EXPECT_EQ(pprof({"-comments", folder + "/whole.pmclog.pb.gz"}).out, "");
  EXPECT_EQ(pprof({"-comments", folder + "/cut.pmclog.pb.gz"}).out,
            "stacks of 7 samples probably cut at a depth limit of 128 frames\n");
}

}  // namespace
