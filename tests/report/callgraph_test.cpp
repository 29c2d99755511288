// --format callgraph: pmcstat -G's text. Read back with the parsing rules of
// stackcollapse-pmc.pl and speedscope's pmcstat importer (callgraph/stackcollapse_pmc.py),
// it must give the stacks of --format folded; its lines must have pmcstat's widths
// (pmcpl_callgraph.c pmcstat_cgnode_print, as restated below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <regex>
#include <sstream>

#include "report_support.h"

namespace {

using reptest::hex;
using Stacks = std::map<std::string, uint64_t>;

const std::string kScript = std::string(REPORT_TEST_DIR) + "/callgraph/stackcollapse_pmc.py";
const std::string kGolden = std::string(REPORT_FIXTURES) + "/golden.pmclog";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

// stackcollapse-pmc.pl's output over a file, each emitted path added up.
Stacks collapse(const reptest::ScratchDir& d, const std::string& text, bool speedscope = false) {
  EXPECT_STRNE(PYTHON_EXE, "") << "python3 is missing: it runs the stackcollapse-pmc.pl rules";
  if (std::string(PYTHON_EXE).empty()) return {};
  reptest::write_file(d.file("graph.txt"), text);
  std::vector<std::string> argv{PYTHON_EXE, kScript};
  if (speedscope) argv.push_back("--speedscope");
  argv.push_back(d.file("graph.txt"));
  const auto r = reptest::run(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  return reptest::parse_folded(r.out);
}

// What the -G readers can get back from folded stacks: names as the callgraph writes them
// (no "_[k]" colour suffix, no white space), the `depth` leaf-most frames of each stack, and
// not the stacks that are a proper suffix of another (their path ends at an inner node of
// the callee-first tree, and the readers never print such a path).
Stacks readable(const Stacks& folded, size_t depth, Stacks* lost = nullptr) {
  Stacks cut;
  for (const auto& [stack, n] : folded) {
    std::vector<std::string> frames = split(stack, ';');
    for (auto& f : frames) {
      if (f.size() > 4 && f.compare(f.size() - 4, 4, "_[k]") == 0) f.resize(f.size() - 4);
      std::replace(f.begin(), f.end(), ' ', '_');
    }
    if (frames.size() > depth) frames.erase(frames.begin(), frames.end() - static_cast<long>(depth));
    std::string s;
    for (const auto& f : frames) s += (s.empty() ? "" : ";") + f;
    cut[s] += n;
  }
  Stacks out;
  for (const auto& [s, n] : cut) {
    bool inner = false;
    for (const auto& [t, m] : cut)
      if (t.size() > s.size() && t.compare(t.size() - s.size() - 1, s.size() + 1, ";" + s) == 0)
        inner = true;
    Stacks ignored;
    (inner ? (lost != nullptr ? *lost : ignored) : out)[s] += n;
  }
  return out;
}

// pmcstat_cgnode_print's layout, restated (ours adds "# Input: " and "# Note: " lines, each
// then a blank line): per event "@ EVENT [N samples]" and a blank line;
// per tree its lines then a blank line; a node line is DEPTH spaces, "100.0% " when its count
// is its parent's (the event's at the top) or "%05.2f% " of it, " [COUNT] " padded with
// spaces to 12 columns, DEPTH spaces, the name, optionally " @ OBJECT". Children follow their
// parent one level deeper, most samples first; no node is deeper than depth - 1.
// Returns the events with their sample counts.
std::map<std::string, uint64_t> check_layout(const std::string& text, size_t depth) {
  std::map<std::string, uint64_t> events;
  const std::regex header(R"(^@ (\S+) \[(\d+) samples\]$)");
  // DEPTH, percentage, the count field and the second indent (together), name, object.
  const std::regex node(R"(^( *)(100\.0|\d\d\.\d\d|100\.00)% ( \[(\d+)\] +)(\S+)( @ .+)?$)");
  std::vector<std::string> lines = split(text, '\n');
  std::vector<uint64_t> counts;      // by depth: the counts of the current path
  std::vector<uint64_t> last_child;  // by depth: the count of the previous sibling
  uint64_t event_total = 0, top_sum = 0;
  bool blank_expected = false, in_tree = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    std::smatch m;
    if (l.empty()) {
      in_tree = false;
      blank_expected = false;
      continue;
    }
    EXPECT_FALSE(blank_expected) << "line " << i << " should be blank: " << l;
    if (l.rfind("# Input: ", 0) == 0 || l.rfind("# Note: ", 0) == 0) {
      blank_expected = true;
      continue;
    }
    if (std::regex_match(l, m, header)) {
      if (!events.empty()) {
        EXPECT_EQ(top_sum, event_total) << "tops of the previous event";
      }
      event_total = std::stoull(m[2]);
      events[m[1]] += event_total;
      top_sum = 0;
      counts.clear();
      last_child.assign(1, UINT64_MAX);
      blank_expected = true;
      continue;
    }
    if (!std::regex_match(l, m, node)) {
      ADD_FAILURE() << "line " << i << " is neither a header nor a node: '" << l << "'";
      continue;
    }
    const size_t d = m[1].length();
    const uint64_t n = std::stoull(m[4]);
    const std::string field = " [" + std::to_string(n) + "] ";
    EXPECT_EQ(m[3].length(), std::max<size_t>(12, field.size()) + d)
        << "12 columns for the count, then the depth again: " << l;
    EXPECT_LT(d, depth) << "-z " << depth << " keeps " << depth << " frames: " << l;
    if (!in_tree) {
      EXPECT_EQ(d, 0u) << "a tree starts at its sampled function: " << l;
      in_tree = true;
    }
    EXPECT_LE(d, counts.size()) << "a child is one level below its parent: " << l;
    if (d > counts.size()) continue;
    const uint64_t parent = d == 0 ? event_total : counts[d - 1];
    counts.resize(d);
    counts.push_back(n);
    if (last_child.size() < d + 1) last_child.resize(d + 1, UINT64_MAX);
    last_child.resize(d + 2, UINT64_MAX);
    last_child[d + 1] = UINT64_MAX;  // its own children start afresh
    EXPECT_LE(n, last_child[d]) << "most samples first: " << l;
    last_child[d] = n;
    if (d == 0) top_sum += n;
    EXPECT_LE(n, parent) << l;
    char pct[32];
    if (n == parent)
      std::snprintf(pct, sizeof pct, "100.0");
    else
      std::snprintf(pct, sizeof pct, "%05.2f", 100.0 * static_cast<double>(n) / static_cast<double>(parent));
    EXPECT_EQ(m[2].str(), pct) << l;
  }
  if (!events.empty()) {
    EXPECT_EQ(top_sum, event_total) << "tops of the last event";
  }
  EXPECT_FALSE(text.empty() || text.back() != '\n');
  return events;
}

reptest::Ran report(const std::vector<std::string>& args) {
  std::vector<std::string> argv{REPORT_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return reptest::run(argv);
}

// Both outputs of one run.
std::pair<std::string, std::string> graph_and_folded(const reptest::ScratchDir& d,
                                                     std::vector<std::string> args) {
  std::vector<std::string> a{"--format", "callgraph,folded", "-o", d.file("g"), "-o", d.file("f")};
  a.insert(a.end(), args.begin(), args.end());
  const auto r = report(a);
  EXPECT_EQ(r.status, 0) << r.err;
  return {reptest::slurp(d.file("g")), reptest::slurp(d.file("f"))};
}

uint64_t total(const Stacks& s) {
  uint64_t n = 0;
  for (const auto& [k, v] : s) n += v;
  return n;
}

TEST(Callgraph, GoldenLogLineByLine) {
  // Worked out from golden.jsonl (fixtures/report/README.md) and pmcstat's printf formats:
  // six samples; leaves libc+0x10 (twice, called from sh+0x450), then one each, by name.
  reptest::ScratchDir empty;
  const auto r = report({"--format", "callgraph", "--sysroot", empty.str(), kGolden});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string pad8(8, ' ');  // " [2] " ends in a space, then 7 make 12 columns
  const std::string expected =
      "@ cpu-clock [6 samples]\n\n"
      "33.33%  [2]" + pad8 + "libc.so.7+0x10 @ /lib/libc.so.7\n"
      " 100.0%  [2]" + pad8 + " sh+0x450 @ /bin/sh\n\n"
      "16.67%  [1]" + pad8 + "[kernel]_0xffffffff80201000 @ /boot/kernel/kernel\n"
      " 100.0%  [1]" + pad8 + " [kernel]_0xffffffff80200500\n\n"
      "16.67%  [1]" + pad8 + "libc.so.7+0x30 @ /lib/libc.so.7\n"
      " 100.0%  [1]" + pad8 + " sh+0x460 @ /bin/sh\n\n"
      "16.67%  [1]" + pad8 + "sh+0x120 @ /bin/sh\n"
      " 100.0%  [1]" + pad8 + " sh+0x450\n\n"
      "16.67%  [1]" + pad8 + "yes+0x200 @ /usr/bin/yes\n"
      " 100.0%  [1]" + pad8 + " 0x500\n\n";
  EXPECT_EQ(r.out, expected);
  check_layout(r.out, 32);
  // -z 1: the sampled functions alone.
  const auto z1 = report({"--format", "callgraph", "-z", "1", "--sysroot", empty.str(), kGolden});
  ASSERT_EQ(z1.status, 0) << z1.err;
  EXPECT_EQ(z1.out, "@ cpu-clock [6 samples]\n\n"
                    "33.33%  [2]" + pad8 + "libc.so.7+0x10 @ /lib/libc.so.7\n\n"
                    "16.67%  [1]" + pad8 + "[kernel]_0xffffffff80201000 @ /boot/kernel/kernel\n\n"
                    "16.67%  [1]" + pad8 + "libc.so.7+0x30 @ /lib/libc.so.7\n\n"
                    "16.67%  [1]" + pad8 + "sh+0x120 @ /bin/sh\n\n"
                    "16.67%  [1]" + pad8 + "yes+0x200 @ /usr/bin/yes\n\n");
}

TEST(Callgraph, GoldenLogReadBackEqualsFolded) {
  reptest::ScratchDir d, empty;
  const auto [graph, folded] =
      graph_and_folded(d, {"--event", "cpu-clock", "--sysroot", empty.str(), kGolden});
  const Stacks back = collapse(d, graph);
  EXPECT_EQ(back, readable(reptest::parse_folded(folded), 32));
  EXPECT_EQ(total(back), 6u);
}

// A log of many random stacks over three objects that are not on disk (every address its
// own function, labelled object+0xOFFSET), two processes, kernel-mode samples and a second
// event; some stacks are suffixes of others, some deeper than -z.
std::string random_log(const reptest::ScratchDir& d, unsigned seed) {
  std::vector<std::string> l{
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"cg","tsc":1000})",
      R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock","tsc":1001})",
      R"({"type":"pmcallocatedyn","pmcid":4294053633,"event":131073,"flags":386,"rate":1000,"evname":"instructions","tsc":1002})",
      R"({"type":"map-in","pid":4294967295,"start_hex":"0xffffffff80200000","path":"/boot/kernel/kernel","tsc":1003})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/prog","tsc":1004})",
      R"({"type":"map-in","pid":50,"start_hex":"0x800400000","path":"/lib/libc.so.7","tsc":1005})",
      R"({"type":"procfork","oldpid":50,"newpid":51,"tsc":1006})"};
  std::mt19937 rng(seed);
  const auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  uint64_t tsc = 2000;
  for (int i = 0; i < 400; ++i) {
    const bool kernel = pick(6) == 0;
    const uint32_t n = 1 + pick(kernel ? 4 : 9);
    std::vector<uint64_t> pcs;
    for (uint32_t k = 0; k < n; ++k) {
      if (kernel && k < 2) pcs.push_back(0xffffffff80201000ull + 0x100 * pick(5));
      else if (k == 0 && pick(2) == 0) pcs.push_back(0x800400000ull + 0x10 * (1 + pick(6)));
      else pcs.push_back(0x1000000ull + 0x100 * (1 + pick(7)));
    }
    std::string s = R"({"type":"callchain","pid":)" + std::string(pick(3) == 0 ? "51" : "50") +
                    R"(,"tid":100050,"pmcid":)" + (pick(5) == 0 ? "4294053633" : "4294053632") +
                    R"(,"cpu":0,"usermode":)" + (kernel ? "0" : "1") + R"(,"pcs_hex":[)";
    for (size_t k = 0; k < pcs.size(); ++k) s += (k ? ",\"" : "\"") + hex(pcs[k]) + "\"";
    l.push_back(s + R"(],"tsc":)" + std::to_string(tsc++) + "}");
  }
  l.push_back(R"({"type":"closelog","tsc":)" + std::to_string(tsc) + "}");
  return reptest::write_log(d, "random" + std::to_string(seed) + ".pmclog", l);
}

TEST(Callgraph, RandomLogsReadBackEqualsFoldedAtEveryDepth) {
  reptest::ScratchDir d, empty;
  for (unsigned seed : {1u, 2u, 3u}) {
    const std::string log = random_log(d, seed);
    for (size_t depth : {32u, 4u, 2u, 1u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", -z " + std::to_string(depth));
      const auto [graph, folded] = graph_and_folded(
          d, {"--event", "cpu-clock", "-z", std::to_string(depth), "--sysroot", empty.str(), log});
      const auto events = check_layout(graph, depth);
      const Stacks f = reptest::parse_folded(folded);
      EXPECT_EQ(events, (std::map<std::string, uint64_t>{{"cpu-clock", total(f)}}));
      Stacks lost;
      const Stacks want = readable(f, depth, &lost);
      EXPECT_EQ(collapse(d, graph), want);
      // What the readers miss is exactly the samples of inner paths.
      EXPECT_EQ(total(want) + total(lost), total(f));
      if (depth == 1) {
        EXPECT_TRUE(lost.empty());
      }
      // speedscope's rules read the same stacks and take each frame's object from " @ ".
      for (const auto& [stack, n] : collapse(d, graph, true))
        for (const auto& frame : split(stack, ';')) {
          const size_t at = frame.find("@@");
          ASSERT_NE(at, std::string::npos) << frame;
          const std::string name = frame.substr(0, at), file = frame.substr(at + 2);
          if (name.rfind("prog+", 0) == 0) {
            EXPECT_EQ(file, "/usr/bin/prog") << stack;
          }
          if (name.rfind("libc.so.7+", 0) == 0) {
            EXPECT_EQ(file, "/lib/libc.so.7") << stack;
          }
          if (name.rfind("[kernel]", 0) == 0) {
            EXPECT_EQ(file, "/boot/kernel/kernel") << stack;
          }
        }
    }
    // Both events: one tree each, with the samples folded gives each.
    const auto [graph, folded] = graph_and_folded(d, {"--sysroot", empty.str(), log});
    std::map<std::string, uint64_t> by_event;
    for (const auto& [stack, n] : reptest::parse_folded(folded)) by_event[split(stack, ';')[0]] += n;
    EXPECT_EQ(check_layout(graph, 32), by_event);
    EXPECT_EQ(by_event.size(), 2u);
  }
}

TEST(Callgraph, RecordedWorkloadReadBackEqualsFolded) {
  reptest::ScratchDir d;
  const std::string log = reptest::hot_recording(d);
  for (size_t depth : {32u, 3u}) {
    SCOPED_TRACE("-z " + std::to_string(depth));
    const auto [graph, folded] =
        graph_and_folded(d, {"--event", "cpu-clock", "-z", std::to_string(depth), log});
    check_layout(graph, depth);
    const Stacks f = reptest::parse_folded(folded);
    ASSERT_GT(total(f), 100u);
    Stacks lost;
    const Stacks want = readable(f, depth, &lost);
    const Stacks back = collapse(d, graph);
    EXPECT_EQ(back, want);
    EXPECT_EQ(total(want) + total(lost), total(f));
    // The hot chain, root first, is read back with its samples.
    std::string hot = "main;hotspot::outer_caller(unsigned_long);hotspot::middle_caller(unsigned_long);"
                      "hotspot::leaf_hot(unsigned_long)";
    if (depth == 3) hot = hot.substr(hot.find(';') + 1);
    uint64_t with_hot = 0;
    for (const auto& [s, n] : back)
      if (s.size() >= hot.size() && s.compare(s.size() - hot.size(), hot.size(), hot) == 0) with_hot += n;
    EXPECT_GT(with_hot, total(f) / 2) << graph.substr(0, 2000);
    // The hot function's object is the workload, as speedscope reads it.
    bool found = false;
    for (const auto& [s, n] : collapse(d, graph, true))
      if (s.find("hotspot::leaf_hot(unsigned_long)@@" + std::string(WORKLOAD_HOT)) != std::string::npos)
        found = true;
    EXPECT_TRUE(found);
  }
}

TEST(Callgraph, ByFileHeadersAreIgnoredByTheReaders) {
  reptest::ScratchDir d, empty;
  const std::string a = random_log(d, 7), b = random_log(d, 8);
  const auto r = report({"--format", "callgraph", "--by-file", "--event", "cpu-clock",
                         "--sysroot", empty.str(), a, b});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# Input: " + a + "\n\n@ cpu-clock [", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("\n# Input: " + b + "\n\n@ cpu-clock ["), std::string::npos);
  check_layout(r.out, 32);
  // Read back, the two profiles give what each gives alone.
  Stacks want;
  for (const auto& log : {a, b}) {
    const auto one = report({"--format", "callgraph", "--event", "cpu-clock", "--sysroot", empty.str(), log});
    ASSERT_EQ(one.status, 0) << one.err;
    for (const auto& [s, n] : collapse(d, one.out)) want[s] += n;
  }
  EXPECT_EQ(collapse(d, r.out), want);
}

// Stacks that look cut at a depth limit: a '#' line says so, which the readers skip.
TEST(Callgraph, CutStacksNoteIsIgnoredByTheReaders) {
  reptest::ScratchDir d, empty;
  std::vector<std::string> l{
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"cg","tsc":1000})",
      R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock","tsc":1001})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/prog","tsc":1004})"};
  uint64_t tsc = 2000;
  const auto add = [&](size_t frames) {
    std::string s = R"({"type":"callchain","pid":50,"tid":100050,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":[)";
    for (size_t k = 0; k < frames; ++k) s += (k ? ",\"" : "\"") + hex(0x1000100ull + 0x100 * (k % 7)) + "\"";
    l.push_back(s + R"(],"tsc":)" + std::to_string(tsc++) + "}");
  };
  for (size_t n = 2; n < 16; ++n) add(n);
  for (int i = 0; i < 10; ++i) add(16);
  l.push_back(R"({"type":"closelog","tsc":)" + std::to_string(tsc) + "}");
  const std::string log = reptest::write_log(d, "cut.pmclog", l);
  const auto r = report({"--format", "callgraph", "--sysroot", empty.str(), log});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string note =
      "# Note: stacks of 10 samples probably cut at a depth limit of 16 frames\n\n";
  ASSERT_EQ(r.out.rfind(note + "@ cpu-clock [24 samples]", 0), 0u) << r.out.substr(0, 200);
  check_layout(r.out, 32);
  const Stacks read = collapse(d, r.out);
  EXPECT_FALSE(read.empty());
  EXPECT_EQ(read, collapse(d, r.out.substr(note.size())));
}

TEST(Callgraph, NamesNeverBreakTheLayout) {
  // An object path with a space, a quote, an escape sequence and invalid UTF-8: the
  // unresolved frame's label keeps no white space and no control character.
  reptest::ScratchDir d, empty;
  const std::string log = reptest::write_log(d, "names.pmclog", {
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"cg","tsc":1000})",
      R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock","tsc":1001})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"/usr/bin/a b\u001b[31m\"x","path_hex":"2f7573722f62696e2f6120621b5b33316d2278ff","tsc":1004})",
      R"({"type":"callchain","pid":50,"tid":50,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":["0x1000010","0x1000020"],"tsc":2000})",
      R"({"type":"closelog","tsc":3000})"});
  const auto r = report({"--format", "callgraph", "--sysroot", empty.str(), log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  check_layout(r.out, 32);
  const Stacks back = collapse(d, r.out);
  ASSERT_EQ(back.size(), 1u) << r.out;
  EXPECT_EQ(total(back), 1u);
  EXPECT_EQ(split(back.begin()->first, ';').size(), 2u) << back.begin()->first;
}

}  // namespace
