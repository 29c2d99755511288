// --format speedscope: speedscope's own JSON file format, checked by
// callgraph/check_speedscope.py (Python's json, strict UTF-8, every required member of the
// published schema per profile type, frame indices in range), then against folded stacks
// and the records of the committed log.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "report_support.h"

namespace {

const std::string kChecker = std::string(REPORT_TEST_DIR) + "/callgraph/check_speedscope.py";
const std::string kGolden = std::string(REPORT_FIXTURES) + "/golden.pmclog";

struct Checked {
  std::vector<std::pair<std::string, uint64_t>> profiles;  // JSON-quoted name, total weight
  std::map<std::string, uint64_t> stacks;                  // all profiles' stacks, root first
  std::vector<std::map<std::string, uint64_t>> profile_stacks;
  std::vector<std::vector<std::string>> frames;  // name, file, line (JSON text)
  long active = -1;
};

std::vector<std::string> tabs(const std::string& l) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(l);
  while (std::getline(in, part, '\t')) out.push_back(part);
  return out;
}

// JSON text of a plain string (the checker prints names with json.dumps).
std::string unquote(const std::string& j) {
  EXPECT_GE(j.size(), 2u);
  std::string out;
  for (size_t i = 1; i + 1 < j.size(); ++i) {
    if (j[i] == '\\' && i + 2 < j.size()) ++i;
    out += j[i];
  }
  return out;
}

Checked check(const reptest::ScratchDir& d, const std::string& json) {
  Checked c;
  EXPECT_STRNE(PYTHON_EXE, "") << "python3 is missing: it checks the JSON";
  if (std::string(PYTHON_EXE).empty()) return c;
  reptest::write_file(d.file("s.json"), json);
  const auto r = reptest::run({PYTHON_EXE, kChecker, d.file("s.json")});
  EXPECT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    const auto f = tabs(line);
    if (f[0] == "profile") c.profiles.emplace_back(f[1], std::stoull(f[2]));
    if (f[0] == "stack") {
      const size_t i = std::stoul(f[1]);
      if (c.profile_stacks.size() <= i) c.profile_stacks.resize(i + 1);
      c.profile_stacks[i][unquote(f[2])] += std::stoull(f[3]);
      c.stacks[unquote(f[2])] += std::stoull(f[3]);
    }
    if (f[0] == "frame") c.frames.push_back({f[1], f[2], f[3]});
    if (f[0] == "active") c.active = std::stol(f[1]);
  }
  return c;
}

// Folded stacks as plain names: without the "_[k]" colour suffix.
std::map<std::string, uint64_t> plain(const std::map<std::string, uint64_t>& folded) {
  std::map<std::string, uint64_t> out;
  for (const auto& [s, n] : folded) {
    std::string t = s;
    for (size_t at; (at = t.find("_[k]")) != std::string::npos;) t.erase(at, 4);
    out[t] += n;
  }
  return out;
}

TEST(Speedscope, GoldenLogOneProfilePerProcessFromItsRecords) {
  reptest::ScratchDir d, empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "speedscope,folded", "-o", d.file("s"), "-o",
                               d.file("f"), "--event", "cpu-clock", "--sysroot", empty.str(), kGolden});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = reptest::slurp(d.file("s"));
  const Checked c = check(d, json);
  // golden.jsonl: pid 42 has four samples (one kernel-mode), pid 43 two (one named "sh"
  // before its exec, one "yes" after: the most common name is a tie, either may name it).
  ASSERT_EQ(c.profiles.size(), 2u) << json;
  EXPECT_EQ(c.profiles[0].first, "\"cpu-clock: sh (pid 42)\"");
  EXPECT_EQ(c.profiles[0].second, 4u);
  EXPECT_TRUE(c.profiles[1].first == "\"cpu-clock: sh (pid 43)\"" ||
              c.profiles[1].first == "\"cpu-clock: yes (pid 43)\"") << c.profiles[1].first;
  EXPECT_EQ(c.profiles[1].second, 2u);
  EXPECT_EQ(c.active, 0);
  // Root first, the same stacks as folded's.
  EXPECT_EQ(c.stacks, plain(reptest::parse_folded(reptest::slurp(d.file("f")))));
  // Frames carry their object as the file; the one outside every mapping has none.
  for (const auto& f : c.frames) {
    if (f[0] == "\"sh+0x450\"") {
      EXPECT_EQ(f[1], "\"/bin/sh\"");
    }
    if (f[0] == "\"0x500\"") {
      EXPECT_EQ(f[1], "null");
    }
    EXPECT_EQ(f[2], "null");
  }
  EXPECT_NE(json.find("\"exporter\":\"pmclog-report " REPORT_VERSION "\""), std::string::npos);
}

TEST(Speedscope, RecordedWorkloadHotFunctionAndTotals) {
  reptest::ScratchDir d;
  const std::string log = reptest::hot_recording(d);
  for (bool lines : {false, true}) {
    SCOPED_TRACE(lines ? "--lines" : "");
    std::vector<std::string> argv{REPORT_EXE, "--format", "speedscope,folded", "-o", d.file("s"),
                                  "-o", d.file("f"), "--event", "cpu-clock", log};
    if (lines) argv.push_back("--lines");
    const auto r = reptest::run(argv);
    ASSERT_EQ(r.status, 0) << r.err;
    const Checked c = check(d, reptest::slurp(d.file("s")));
    const auto folded = plain(reptest::parse_folded(reptest::slurp(d.file("f"))));
    uint64_t total = 0, weights = 0;
    for (const auto& [s, n] : folded) total += n;
    for (const auto& [name, w] : c.profiles) weights += w;
    EXPECT_EQ(weights, total);
    ASSERT_GT(total, 100u);
    if (!lines) {
      EXPECT_EQ(c.stacks, folded);
    }
    // The hot function is a frame, named as the symbol (no " (file:line)" in the name), in
    // its source file with --lines; the heaviest profile is the workload's and is active.
    // (clang's line table gives some addresses line 0, "no line": one frame per line, so
    // at least one of them has its line.)
    bool hot = false, hot_line = false;
    for (const auto& f : c.frames)
      if (f[0] == "\"hotspot::leaf_hot(unsigned long)\"") {
        hot = true;
        if (lines) {
          EXPECT_NE(f[1].find("hot_chain.cpp"), std::string::npos) << f[1];
          hot_line = hot_line || f[2] != "null";
        } else {
          EXPECT_EQ(unquote(f[1]), WORKLOAD_HOT);
        }
      }
    EXPECT_TRUE(hot);
    if (lines) {
      EXPECT_TRUE(hot_line) << "no frame of the hot function has a line";
    }
    ASSERT_GE(c.active, 0);
    ASSERT_LT(static_cast<size_t>(c.active), c.profiles.size());
    for (const auto& [name, w] : c.profiles) EXPECT_LE(w, c.profiles[c.active].second);
    uint64_t hot_leaf = 0;
    for (const auto& [s, n] : c.profile_stacks[c.active])
      if (s.size() > 32 && s.find("hotspot::leaf_hot") != std::string::npos) hot_leaf += n;
    EXPECT_GT(hot_leaf, c.profiles[c.active].second / 2);
  }
}

TEST(Speedscope, InvalidUtf8AndControlCharactersStayValidJson) {
  reptest::ScratchDir d, empty;
  // A path with a quote, a backslash, an escape sequence, a newline and an invalid byte; an
  // event name with a tab.
  const std::string log = reptest::write_log(d, "names.pmclog", {
      R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,"version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"ss","tsc":1000})",
      R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu\tclock","tsc":1001})",
      R"({"type":"procexec","pid":50,"pmcid":4294053632,"entryaddr":0,"dynaddr_hex":"0x1000000","path":"x","path_hex":"2f6122625c1b5b33316d0aff","tsc":1004})",
      R"({"type":"callchain","pid":50,"tid":50,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":["0x1000010","0x1000020"],"tsc":2000})",
      R"({"type":"callchain","pid":50,"tid":50,"pmcid":4294053632,"cpu":0,"usermode":1,"pcs_hex":["0x1000010"],"tsc":2001})",
      R"({"type":"closelog","tsc":3000})"});
  const auto r = reptest::run({REPORT_EXE, "--format", "speedscope", "--sysroot", empty.str(), log});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  const Checked c = check(d, r.out);
  ASSERT_EQ(c.profiles.size(), 1u) << r.out;
  EXPECT_EQ(c.profiles[0].second, 2u);
  ASSERT_EQ(c.frames.size(), 2u) << r.out;
  // The file is the path with U+FFFD for the invalid byte, everything else kept.
  EXPECT_EQ(c.frames[0][1], "\"/a\\\"b\\\\\\u001b[31m\\n\\ufffd\"") << c.frames[0][1];
}

TEST(Speedscope, ByFileProfilesNamedByInput) {
  reptest::ScratchDir d, empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "speedscope", "--by-file", "--sysroot",
                               empty.str(), kGolden, kGolden});
  ASSERT_EQ(r.status, 0) << r.err;
  const Checked c = check(d, r.out);
  ASSERT_EQ(c.profiles.size(), 4u) << r.out;
  for (const auto& [name, w] : c.profiles) {
    EXPECT_EQ(unquote(name).rfind(kGolden + ": cpu-clock: ", 0), 0u) << name;
  }
  EXPECT_EQ(c.profiles[0].second + c.profiles[1].second, 6u);
  EXPECT_EQ(c.profiles[2].second + c.profiles[3].second, 6u);
}

}  // namespace
