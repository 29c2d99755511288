// pmclog-report --diff: synthetic pairs of logs whose shares are known by construction (a
// share moved from one function to another, the same distribution twice, an event on one
// side, deeper stacks, merged sides), read back through independent parsers (nlohmann's
// JSON, a folded reader here), the gate's exit statuses, and the statistics alone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "pmcprofile/diff.h"
#include "report_support.h"
#include "support/sanitized.h"

namespace {

using reptest::hex;
using namespace reptest::synthetic;
using nlohmann::json;

// Frames outside every mapping (no process was exec'd): each address is a function of its
// own, "0x1000", which is all a diff needs.
constexpr uint64_t kA = 0x1000, kB = 0x2000, kC = 0x3000, kCaller = 0x9000;

std::string sample(uint32_t pmc, const std::vector<uint64_t>& pcs) {
  std::string s = R"({"type":"callchain","pid":77,"tid":77,"pmcid":)" + std::to_string(pmc) +
                  R"(,"cpu":0,"usermode":1,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + "]}";
}

// `n` samples of event `pmc`, each leaf drawn from `weights` (leaf -> weight), under
// `callers` (outermost last).
std::vector<std::string> draws(std::mt19937_64& rng, uint32_t pmc, size_t n,
                               const std::vector<std::pair<uint64_t, double>>& weights,
                               const std::vector<uint64_t>& callers = {kCaller}) {
  std::vector<double> w;
  for (const auto& p : weights) w.push_back(p.second);
  std::discrete_distribution<size_t> pick(w.begin(), w.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint64_t> pcs{weights[pick(rng)].first};
    pcs.insert(pcs.end(), callers.begin(), callers.end());
    out.push_back(sample(pmc, pcs));
  }
  return out;
}

struct Diff : ::testing::Test {
  reptest::ScratchDir dir;

  // cpu-clock sampled every `rate` events (kCpuClock says 1000).
  std::string log(const std::string& name, const std::vector<std::string>& samples,
                  uint64_t rate = 1000) {
    std::string clock = kCpuClock;
    clock.replace(clock.find("\"rate\":1000"), 11, "\"rate\":" + std::to_string(rate));
    std::vector<std::string> l{kInit, clock, kInstructions};
    l.insert(l.end(), samples.begin(), samples.end());
    l.push_back(R"({"type":"closelog"})");
    return reptest::write_log(dir, name, l);
  }

  reptest::Ran report(std::vector<std::string> args) {
    args.insert(args.begin(), REPORT_EXE);
    return reptest::run(args);
  }

  json diff_json(const std::vector<std::string>& base, const std::vector<std::string>& now,
                 std::vector<std::string> opts = {}) {
    opts.insert(opts.begin(), {"--format", "json", "--by", "sym"});
    opts.push_back("--diff");
    opts.insert(opts.end(), base.begin(), base.end());
    opts.push_back("--");
    opts.insert(opts.end(), now.begin(), now.end());
    const auto r = report(opts);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(r.out);  // throws on anything that is not JSON
  }
};

// The row of `symbol` (and `event`) in a --by sym JSON diff.
const json* row(const json& d, const std::string& symbol, const std::string& event = "cpu-clock") {
  for (const auto& r : d["rows"])
    if (r["symbol"] == symbol && r["event"] == event) return &r;
  return nullptr;
}

TEST_F(Diff, FindsTheShareThatMovedAndOnlyIt) {
  std::mt19937_64 rng(7);
  constexpr size_t n = 20000;
  const auto base = log("base", draws(rng, kPmcA, n, {{kA, 30}, {kB, 20}, {kC, 50}}));
  const auto now = log("new", draws(rng, kPmcA, n, {{kA, 40}, {kB, 10}, {kC, 50}}));
  const json d = diff_json({base}, {now});
  // Sampling error of a difference of two shares near 0.3 over 20000 samples each: 0.46
  // points; the planted move is 10 points.
  const double se = 100 * std::sqrt(2 * 0.3 * 0.7 / n);
  const json* a = row(d, "0x1000");
  const json* b = row(d, "0x2000");
  const json* c = row(d, "0x3000");
  ASSERT_TRUE(a && b && c) << d.dump();
  EXPECT_NEAR(a->at("self")["delta"].get<double>(), +10, 4 * se);
  EXPECT_NEAR(b->at("self")["delta"].get<double>(), -10, 4 * se);
  EXPECT_TRUE(a->at("self")["significant"].get<bool>());
  EXPECT_TRUE(b->at("self")["significant"].get<bool>());
  EXPECT_FALSE(c->at("self")["significant"].get<bool>());
  EXPECT_EQ(a->at("self")["base"].get<uint64_t>() + b->at("self")["base"].get<uint64_t>() +
                c->at("self")["base"].get<uint64_t>(),
            n);
  for (const auto& r : d["rows"]) {
    const bool moved = r["symbol"] == "0x1000" || r["symbol"] == "0x2000";
    EXPECT_EQ(r["self"]["significant"].get<bool>(), moved) << r.dump();
    EXPECT_EQ(r["total"]["significant"].get<bool>(), moved) << r.dump();  // the caller holds 100%
  }
  EXPECT_EQ(d["significant_self"], 2);
  EXPECT_EQ(d["tested"], 4);  // three leaves and the caller
  // Sorted by the size of the change: the two moved rows first.
  EXPECT_TRUE(d["rows"][0]["symbol"] == "0x1000" || d["rows"][0]["symbol"] == "0x2000");

  // top: the same rows, marked, and how many were tested.
  const auto r = report({"--by", "sym", "--diff", base, "--", now});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 rows tested; 2 self and 2 total changes significant at a false "
                       "discovery rate of 0.01"),
            std::string::npos)
      << r.out;
  std::istringstream lines(r.out);
  std::string line;
  int marked = 0;
  while (std::getline(lines, line))
    if (line.rfind("  ", 0) == 0 && line.find('*') != std::string::npos) {
      ++marked;
      EXPECT_TRUE(line.find("0x1000") != std::string::npos || line.find("0x2000") != std::string::npos)
          << line;
    }
  EXPECT_EQ(marked, 2) << r.out;
}

TEST_F(Diff, SameDistributionTwiceIsNotSignificant) {
  std::mt19937_64 rng(11);
  const std::vector<std::pair<uint64_t, double>> w{{kA, 30}, {kB, 20}, {kC, 50}};
  const auto base = log("base", draws(rng, kPmcA, 5000, w));
  const auto now = log("new", draws(rng, kPmcA, 8000, w));
  const json d = diff_json({base}, {now});
  EXPECT_EQ(d["significant_self"], 0) << d.dump();
  EXPECT_EQ(d["significant_total"], 0) << d.dump();
}

// The false-positive rate, through the library's statistics on multinomial draws: 40 rows
// of unequal weights, 20000 samples a side, 100 seeds.
TEST(DiffStatistics, FalsePositivesStayUnderTheRate) {
  constexpr size_t kRows = 40, kSamples = 20000, kPairs = 100;
  std::vector<double> w;
  for (size_t i = 0; i < kRows; ++i) w.push_back(1.0 / static_cast<double>(i + 1));  // Zipf
  int clean = 0;
  size_t below_5_percent = 0;  // raw p-values: uniform under the null, so about 5% of them
  for (uint64_t seed = 1; seed <= kPairs; ++seed) {
    std::mt19937_64 rng(seed);
    std::discrete_distribution<size_t> pick(w.begin(), w.end());
    std::vector<pmcprofile::DiffRow> rows(kRows);
    for (auto& r : rows) r.base_samples = r.new_samples = kSamples;
    for (size_t i = 0; i < kSamples; ++i) ++rows[pick(rng)].self.base;
    for (size_t i = 0; i < kSamples; ++i) ++rows[pick(rng)].self.now;
    for (auto& r : rows) r.total = r.self;
    EXPECT_EQ(pmcprofile::assess_rows(rows, 0.01), kRows);
    bool any = false;
    for (const auto& r : rows) {
      any = any || r.self.significant || r.total.significant;
      below_5_percent += r.self.p < 0.05;
    }
    clean += !any;
  }
  // The test is not blunt: its raw p-values fall under 0.05 about as often as they should.
  EXPECT_GT(below_5_percent, kRows * kPairs * 3 / 100);
  EXPECT_LT(below_5_percent, kRows * kPairs * 7 / 100);
  std::printf("same distribution: %d of %zu pairs without a significant row; %zu of %zu raw p < 0.05\n",
              clean, kPairs, below_5_percent, kRows * kPairs);
  EXPECT_GE(clean, 95);
}

// The same rate end to end: 100 seeded pairs of logs of one workload (20 functions of
// Zipf weights under two callers), each written by pmclog-write and read by the tool.
using pmclog_test::kSanitized;

TEST_F(Diff, SameWorkloadTwiceThroughTheToolIsRarelySignificant) {
  // A fifth of the pairs under the sanitizers, which look for memory errors, not for the
  // rate: 100 pairs took a minute there, alone on a slow 2-core machine.
  constexpr size_t kLeaves = 20, kSamples = 4000, kPairs = kSanitized ? 20 : 100;
  std::vector<std::pair<uint64_t, double>> w;
  for (size_t i = 0; i < kLeaves; ++i) w.push_back({0x10000 + 0x1000 * i, 1.0 / static_cast<double>(i + 1)});
  const auto workload = [&](std::mt19937_64& rng) {
    std::vector<std::string> s = draws(rng, kPmcA, kSamples / 4, w, {0x9000});
    for (std::string& line : draws(rng, kPmcA, kSamples * 3 / 4, w, {0x8000})) s.push_back(line);
    return s;
  };
  int clean = 0;
  size_t tested = 0;
  for (uint64_t seed = 1; seed <= kPairs; ++seed) {
    std::mt19937_64 rng(seed);
    const auto base = log("base" + std::to_string(seed), workload(rng));
    const auto now = log("new" + std::to_string(seed), workload(rng));
    const json d = diff_json({base}, {now});
    tested += d["tested"].get<size_t>();
    clean += d["significant_self"] == 0 && d["significant_total"] == 0;
  }
  EXPECT_EQ(tested, kPairs * (kLeaves + 2)) << "every function and both callers, every pair";
  std::printf("same workload through the tool: %d of %zu pairs without a significant row\n",
              clean, kPairs);
  EXPECT_GE(static_cast<size_t>(clean), kPairs - kPairs / 20);  // 95 of 100
}

TEST(DiffStatistics, TestsAndCorrection) {
  // Large counts: the z-test; a known z of 0 and a clear difference.
  EXPECT_DOUBLE_EQ(pmcprofile::two_proportion_p(500, 1000, 1000, 2000), 1.0);
  EXPECT_LT(pmcprofile::two_proportion_p(300, 1000, 400, 1000), 1e-5);
  // Small counts: the exact test. 0 of 1000 against 5 of 1000: the conditional binomial
  // puts all 5 on one side with probability 2 * 0.5^5.
  EXPECT_NEAR(pmcprofile::two_proportion_p(0, 1000, 5, 1000), 2 * std::pow(0.5, 5), 1e-9);
  EXPECT_NEAR(pmcprofile::two_proportion_p(1, 1000, 1, 1000), 1.0, 1e-9);
  // Benjamini-Hochberg: q_(i) = min over j >= i of p_(j) m / j.
  const std::vector<double> p{0.01, 0.04, 0.03, 0.5};
  const auto q = pmcprofile::benjamini_hochberg(p);
  EXPECT_NEAR(q[0], 0.04, 1e-12);
  EXPECT_NEAR(q[1], 0.04 * 4 / 3, 1e-12);
  EXPECT_NEAR(q[2], 0.04 * 4 / 3, 1e-12);  // 0.03 * 4 / 2 = 0.06, lowered by the next one
  EXPECT_NEAR(q[3], 0.5, 1e-12);
}

TEST_F(Diff, AnEventOnOneSideIsListedNotTested) {
  std::mt19937_64 rng(3);
  auto b = draws(rng, kPmcA, 2000, {{kA, 1}, {kB, 1}});
  auto n = draws(rng, kPmcA, 2000, {{kA, 1}, {kB, 1}});
  const auto more = draws(rng, kPmcB, 500, {{kC, 1}});
  n.insert(n.end(), more.begin(), more.end());
  const json d = diff_json({log("base", b)}, {log("new", n)});
  const json* c = row(d, "0x3000", "instructions");
  ASSERT_TRUE(c) << d.dump();
  EXPECT_EQ((*c)["presence"], "new only");
  EXPECT_EQ((*c)["base_samples"], 0);
  EXPECT_EQ((*c)["new_samples"], 500);
  EXPECT_FALSE((*c)["self"]["significant"].get<bool>());
  EXPECT_EQ(d["tested"], 3);  // cpu-clock's rows only: 0x1000, 0x2000 and the caller
  // cpu-clock's shares are of cpu-clock's samples alone: the new event does not dilute them.
  const json* a = row(d, "0x1000");
  ASSERT_TRUE(a);
  EXPECT_NEAR((*a)["self"]["new_share"].get<double>(), 50, 5);
}

TEST_F(Diff, DeeperStacksKeepTheSelfShares) {
  std::mt19937_64 rng(5);
  const std::vector<std::pair<uint64_t, double>> w{{kA, 60}, {kB, 40}};
  const auto base = log("base", draws(rng, kPmcA, 4000, w));
  const auto now = log("new", draws(rng, kPmcA, 4000, w, {0x7000, 0x8000, kCaller}));
  const json d = diff_json({base}, {now});
  EXPECT_EQ(d["significant_self"], 0) << d.dump();
  // The new callers: total share 0 -> 100%, significant, and "new" in the top table.
  const json* c = row(d, "0x7000");
  ASSERT_TRUE(c);
  EXPECT_TRUE((*c)["total"]["significant"].get<bool>());
  EXPECT_TRUE((*c)["total"]["ratio"].is_null());  // infinite: JSON has none
  EXPECT_NEAR((*c)["total"]["delta"].get<double>(), 100, 1e-9);
}

TEST_F(Diff, EachSideMergesItsLogs) {
  std::mt19937_64 rng(9);
  const auto b1 = log("b1", draws(rng, kPmcA, 1000, {{kA, 1}}));
  const auto b2 = log("b2", draws(rng, kPmcA, 3000, {{kB, 1}}));
  const auto n1 = log("n1", draws(rng, kPmcA, 2000, {{kA, 1}, {kB, 3}}));
  const json d = diff_json({b1, b2}, {n1});
  const json* a = row(d, "0x1000");
  ASSERT_TRUE(a);
  EXPECT_EQ((*a)["base_samples"], 4000);
  EXPECT_EQ((*a)["new_samples"], 2000);
  EXPECT_EQ((*a)["self"]["base"], 1000);
  EXPECT_NEAR((*a)["self"]["base_share"].get<double>(), 25, 1e-9);
}

// A side that merges logs of one event at different periods weighs each sample by its
// period: 3000 samples in A at 1000 and 3000 in B at 4000 are 20% A by events (50% by
// samples), as the new side's single log has it.
TEST_F(Diff, ASideOfMixedPeriodsIsWeightedByThem) {
  std::mt19937_64 rng(21);
  const auto b1 = log("b1", draws(rng, kPmcA, 3000, {{kA, 1}}), 1000);
  const auto b2 = log("b2", draws(rng, kPmcA, 3000, {{kB, 1}}), 4000);
  const auto n1 = log("n1", draws(rng, kPmcA, 10000, {{kA, 20}, {kB, 80}}), 1000);
  for (const char* jobs : {"1", "2"}) {
    const json d = diff_json({b1, b2}, {n1}, {"-j", jobs});
    const json* a = row(d, "0x1000");
    const json* b = row(d, "0x2000");
    ASSERT_TRUE(a && b) << d.dump();
    EXPECT_EQ((*a)["self"]["base"], 3000) << "the counts stay samples";
    EXPECT_NEAR((*a)["self"]["base_share"].get<double>(), 20, 1e-9);
    EXPECT_NEAR((*b)["self"]["base_share"].get<double>(), 80, 1e-9);
    // The new side is one period: plain sample shares, near 20/80.
    EXPECT_FALSE((*a)["self"]["significant"].get<bool>()) << a->dump();
    EXPECT_FALSE((*b)["self"]["significant"].get<bool>()) << b->dump();
    ASSERT_EQ(d["events"].size(), 1u);
    EXPECT_EQ(d["events"][0]["base_periods"], json::array({1000, 4000}));
    EXPECT_EQ(d["events"][0]["new_periods"], json::array());
  }
  // A real move on a weighted side is still found: the new side at 50% A by events.
  const auto n2 = log("n2", draws(rng, kPmcA, 10000, {{kA, 50}, {kB, 50}}), 1000);
  const json moved = diff_json({b1, b2}, {n2});
  EXPECT_TRUE((*row(moved, "0x1000"))["self"]["significant"].get<bool>()) << moved.dump();
  // top says which side is weighted; folded counts samples x period / gcd (1 and 4).
  const auto top = report({"--by", "sym", "--diff", b1, b2, "--", n1});
  ASSERT_EQ(top.status, 0) << top.err;
  EXPECT_NE(top.out.find("base mixes periods 1000, 4000: its shares are of samples x period"),
            std::string::npos)
      << top.out;
  const auto folded = report({"--format", "folded", "--diff", b1, b2, "--", n1});
  ASSERT_EQ(folded.status, 0) << folded.err;
  EXPECT_NE(folded.out.find(";0x1000 3000 "), std::string::npos) << folded.out;
  EXPECT_NE(folded.out.find(";0x2000 12000 "), std::string::npos) << folded.out;
  // svg: counts x weight too, so nothing changed (grey); by samples A would be blue.
  const auto svg = report({"--format", "svg", "--diff", b1, b2, "--", n1});
  ASSERT_EQ(svg.status, 0) << svg.err;
  const std::regex frame(R"re(<g><title>0x1000\n[^\n]*\nbase (\d+) \(([\d.]+)%\), [^\n]* points, (not significant|significant)[^<]*</title><rect [^>]*fill="(#[0-9a-f]{6})")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg.out, m, frame)) << svg.out.substr(0, 3000);
  EXPECT_EQ(m[1], "3000");
  EXPECT_EQ(m[2], "20.00");
  EXPECT_EQ(m[3], "not significant");
  EXPECT_EQ(m[4], "#e4e4e4");
}

// Kish's effective sample size, what a weighted side is tested with: equal weights change
// nothing; weights 1 and 4 over 3000 samples each leave (15000^2 / 51000) = 4411.8.
TEST(DiffStatistics, WeightedSidesAreTestedAtTheirEffectiveSize) {
  std::vector<pmcprofile::DiffRow> rows(1);
  pmcprofile::DiffRow& r = rows[0];
  r.base_samples = r.new_samples = 6000;
  r.self = {.base = 3000, .now = 1200};
  r.self.base_weighted = 3000;  // A: 3000 samples of weight 1
  r.base_weighted = 15000;
  r.base_effective = 15000.0 * 15000.0 / 51000.0;
  pmcprofile::assess_rows(rows, 0.01);
  EXPECT_NEAR(r.self.base_share, 20, 1e-12);
  EXPECT_NEAR(r.self.new_share, 20, 1e-12);
  EXPECT_GT(r.self.p, 0.9);
  // The same shares from plain samples at the effective size give the same p.
  const double p_eff = pmcprofile::two_proportion_p(882, 4412, 1200, 6000);
  r.self.now = 1500;  // 25%: weighted 20% against 25%
  pmcprofile::assess_rows(rows, 0.01);
  EXPECT_NEAR(r.self.p, pmcprofile::two_proportion_p(882, 4412, 1500, 6000), 1e-12);
  EXPECT_GT(r.self.p, pmcprofile::two_proportion_p(1200, 6000, 1500, 6000))
      << "fewer effective samples: less certain";
  EXPECT_GT(p_eff, 0.9);
}

// Folded: "stack base new", read here without the tool's code.
TEST_F(Diff, FoldedHasBothCountsPerStack) {
  std::mt19937_64 rng(13);
  const auto base = log("base", draws(rng, kPmcA, 300, {{kA, 1}, {kB, 1}}));
  const auto now = log("new", draws(rng, kPmcA, 200, {{kA, 1}, {kC, 1}}));
  const auto r = report({"--format", "folded", "--diff", base, "--", now});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, std::pair<uint64_t, uint64_t>> f;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    const size_t s2 = line.rfind(' ');
    ASSERT_NE(s2, std::string::npos) << line;
    const size_t s1 = line.rfind(' ', s2 - 1);
    ASSERT_NE(s1, std::string::npos) << line;
    f[line.substr(0, s1)] = {std::stoull(line.substr(s1 + 1, s2 - s1 - 1)),
                             std::stoull(line.substr(s2 + 1))};
  }
  uint64_t base_sum = 0, new_sum = 0;
  for (const auto& [stack, c] : f) {
    base_sum += c.first;
    new_sum += c.second;
  }
  EXPECT_EQ(base_sum, 300u);
  EXPECT_EQ(new_sum, 200u);
  ASSERT_EQ(f.size(), 3u) << r.out;
  for (const auto& [stack, c] : f) {
    EXPECT_EQ(stack.rfind("cpu-clock;0x9000;0x", 0), 0u) << stack;
    if (stack.ends_with("0x2000")) {
      EXPECT_EQ(c.second, 0u);
    }
    if (stack.ends_with("0x3000")) {
      EXPECT_EQ(c.first, 0u);
    }
  }
}

TEST_F(Diff, FailIfExitsThreeWhenATrippedRowGrew) {
  std::mt19937_64 rng(17);
  const auto base = log("base", draws(rng, kPmcA, 10000, {{kA, 30}, {kB, 70}}));
  const auto now = log("new", draws(rng, kPmcA, 10000, {{kA, 45}, {kB, 55}}));
  auto r = report({"--by", "sym", "--fail-if", "self>+2", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("--fail-if 'self>+2': cpu-clock: 0x1000: self"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("0x2000"), std::string::npos) << r.err;  // it shrank
  r = report({"--by", "sym", "--fail-if", "total(sym=0x1000)>+40%", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3) << r.err;
  r = report({"--by", "sym", "--fail-if", "total(sym=0x1000)>+60%", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 0) << r.err;
  r = report({"--by", "sym", "--fail-if", "self(sym=0x2000)>+2", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 0) << r.err;
  r = report({"--by", "sym", "--fail-if", "self(sym=nosuch(int, char),event=cpu-clock)>+2",
              "--diff", base, "--", now});
  EXPECT_EQ(r.status, 0) << r.err;  // a name with parentheses and a comma: parsed, not found
  r = report({"--by", "sym", "--fail-if", "self<-10", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3) << r.err;
  // The same logs on both sides: nothing can trip.
  r = report({"--fail-if", "self>+0", "--diff", base, "--", base});
  EXPECT_EQ(r.status, 0) << r.err;
  // github and junit, as pmclog-validate writes them.
  r = report({"--by", "sym", "--format", "github", "--fail-if", "self>+2", "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out.rfind("::error title=pmclog-report --fail-if self>+2::cpu-clock: 0x1000: self ", 0), 0u)
      << r.out;
  r = report({"--by", "sym", "--format", "junit", "--fail-if", "self>+2", "--fail-if", "self>+50",
              "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.out.find("<testsuite name=\"pmclog-report --diff\" tests=\"2\" failures=\"1\""),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<testcase classname=\"pmclog-report\" name=\"--fail-if self&gt;+2\">\n"
                       "      <failure"),
            std::string::npos) << r.out;
}

TEST_F(Diff, UsageErrors) {
  const auto a = log("a", {sample(kPmcA, {kA})});
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--fail-if", "self>>2", "--diff", a, "--", a}, "'>2' is not a number"},
      {{"--fail-if", "bogus>2", "--diff", a, "--", a}, "'bogus' is not self or total"},
      {{"--fail-if", "self(foo=x)>2", "--diff", a, "--", a}, "'foo' is not sym, comm, dso or event"},
      {{"--fail-if", "self(sym=x>2", "--diff", a, "--", a}, "no ')'"},
      {{"--fail-if", "self=2", "--diff", a, "--", a}, "no comparison"},
      {{"--fail-if", "self>2pts", "--diff", a, "--", a}, "'2pts' is not a number"},
      {{"--fail-if", "self>+2", a}, "--fail-if needs --diff"},
      {{"--alpha", "2", "--diff", a, "--", a}, "--alpha: '2' is not a rate"},
      {{"--diff", a, a}, "no '--' after the base logs"},
      {{"--diff", "--", a}, "no base log"},
      {{"--diff", a, "--"}, "no new log"},
      {{"--diff", a, "--limit", "3", "--", a}, "'--limit' is an option among the base logs"},
      {{a, "--diff", a, "--", a}, "the logs go after --diff"},
      {{"--format", "speedscope", "--diff", a, "--", a}, "--format speedscope is not made by --diff"},
      {{"--format", "callgraph", "--diff", a, "--", a}, "--format callgraph is not made by --diff"},
      {{"--format", "json", a}, "--format json needs --diff"},
      {{"--by-file", "--diff", a, "--", a}, "--by-file and --diff"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = report(args);
    EXPECT_EQ(r.status, 2) << message << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Try 'pmclog-report --help'."), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(Diff, JsonEscapesNames) {
  // A command named with a quote, a backslash and a control character.
  const std::string exec =
      R"({"type":"procexec","pid":77,"pmcid":4294053632,"entryaddr":0,"dynaddr":0,"path":"/x/a\"b\\c\u0001"})";
  const auto base = log("base", {exec, sample(kPmcA, {kA})});
  const auto r = report({"--format", "json", "--diff", base, "--", base});
  ASSERT_EQ(r.status, 0) << r.err;
  const json d = json::parse(r.out);
  ASSERT_FALSE(d["rows"].empty());
  EXPECT_NE(d["rows"][0]["comm"].get<std::string>().find('"'), std::string::npos) << r.out;
}

// svg: the new profile's shape, each frame coloured by the change of its share, both counts
// in its hover text; read back with a pattern over each frame's <g>.
TEST_F(Diff, SvgColoursTheFramesThatChanged) {
  std::mt19937_64 rng(23);
  const auto base = log("base", draws(rng, kPmcA, 10000, {{kA, 30}, {kB, 20}, {kC, 50}}));
  const auto now = log("new", draws(rng, kPmcA, 10000, {{kA, 40}, {kB, 10}, {kC, 50}}));
  const auto r = report({"--format", "svg", "--diff", base, "--", now});
  ASSERT_EQ(r.status, 0) << r.err;
  struct Drawn {
    uint64_t samples, base, now;
    std::string fill, verdict;
  };
  std::map<std::string, Drawn> frames;
  const std::regex g(R"re(<g><title>([^\n<]+)\n(\d+) samples?, [^\n]*\nbase (\d+) \([^)]*\), new (\d+) \([^)]*\): [-+][\d.]+ points, (significant|not significant)[^<]*</title><rect [^>]*fill="(#[0-9a-f]{6})")re");
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), g); it != std::sregex_iterator(); ++it)
    frames[(*it)[1]] = {std::stoull((*it)[2]), std::stoull((*it)[3]), std::stoull((*it)[4]),
                        (*it)[6], (*it)[5]};
  ASSERT_TRUE(frames.count("0x1000") && frames.count("0x2000") && frames.count("0x3000") &&
              frames.count("0x9000"))
      << r.out.substr(0, 4000);
  const auto channels = [](const std::string& fill) {
    return std::array<unsigned, 3>{static_cast<unsigned>(std::stoul(fill.substr(1, 2), nullptr, 16)),
                                   static_cast<unsigned>(std::stoul(fill.substr(3, 2), nullptr, 16)),
                                   static_cast<unsigned>(std::stoul(fill.substr(5, 2), nullptr, 16))};
  };
  const auto grew = channels(frames["0x1000"].fill), shrank = channels(frames["0x2000"].fill);
  EXPECT_EQ(frames["0x1000"].verdict, "significant");
  EXPECT_TRUE(grew[0] == 255 && grew[1] < 255 && grew[2] < 255) << frames["0x1000"].fill;  // red
  EXPECT_EQ(frames["0x2000"].verdict, "significant");
  EXPECT_TRUE(shrank[2] == 255 && shrank[0] < 255 && shrank[1] < 255) << frames["0x2000"].fill;
  EXPECT_EQ(frames["0x3000"].verdict, "not significant");
  EXPECT_EQ(frames["0x3000"].fill, "#e4e4e4");
  // The caller holds every sample of both sides; the hover text's counts are the logs'.
  EXPECT_EQ(frames["0x9000"].base, 10000u);
  EXPECT_EQ(frames["0x9000"].now, 10000u);
  EXPECT_EQ(frames["0x1000"].base + frames["0x2000"].base + frames["0x3000"].base, 10000u);
  EXPECT_EQ(frames["0x1000"].samples, frames["0x1000"].now);
}

// As a browser draws it: Chromium's screenshot of the diff's SVG has the grown frame red,
// the shrunk one blue and the unchanged one grey, in the middle of each rectangle.
TEST_F(Diff, ChromiumDrawsGrownRedAndShrunkBlue) {
  if (std::string(CHROMIUM_EXE).empty() || std::string(PYTHON_EXE).empty())
    GTEST_SKIP() << "chromium or python3 is missing: they render the SVG and read its pixels";
  std::mt19937_64 rng(29);
  const auto base = log("base", draws(rng, kPmcA, 10000, {{kA, 30}, {kB, 20}, {kC, 50}}));
  const auto now = log("new", draws(rng, kPmcA, 10000, {{kA, 40}, {kB, 10}, {kC, 50}}));
  const std::string svg = dir.file("diff.svg");
  auto r = report({"--format", "svg", "-o", svg, "--diff", base, "--", now});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = reptest::slurp(svg);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"re(<svg [^>]*height="(\d+))re"))) << text.substr(0, 300);
  const std::string height = m[1];  // a short window is cut short: 600 px, white below it
  // Each function's rectangle: x, y, width.
  std::map<std::string, std::array<double, 3>> at;
  const std::regex g(R"re(<g><title>(0x[0-9a-f]+)\n[^<]*</title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), g); it != std::sregex_iterator(); ++it)
    at[(*it)[1]] = {std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])};
  ASSERT_TRUE(at.count("0x1000") && at.count("0x2000") && at.count("0x3000")) << text.substr(0, 3000);
  const std::string png = dir.file("diff.png");
  r = reptest::run({CHROMIUM_EXE, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--hide-scrollbars", "--user-data-dir=" + dir.file("chromium-profile"),
                    "--screenshot=" + png, "--window-size=1200,600", "file://" + svg});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto pixel = [&](const std::string& fn) {
    const auto& a = at[fn];
    const std::string xy = std::to_string(static_cast<int>(a[0] + a[2] / 2)) + "," +
                           std::to_string(static_cast<int>(a[1] + 7));
    const auto p = reptest::run({PYTHON_EXE, std::string(REPORT_TEST_DIR) + "/svg/png_probe.py", png, xy});
    EXPECT_EQ(p.status, 0) << p.err;
    std::istringstream in(p.out);
    int w = 0, h = 0;
    std::array<int, 3> c{};
    in >> w >> h >> c[0] >> c[1] >> c[2];
    return c;
  };
  const auto grew = pixel("0x1000"), shrank = pixel("0x2000"), same = pixel("0x3000");
  EXPECT_TRUE(grew[0] > grew[1] + 40 && grew[0] > grew[2] + 40)
      << "grown: " << grew[0] << "," << grew[1] << "," << grew[2] << " at " << at["0x1000"][0]
      << "," << at["0x1000"][1] << " w " << at["0x1000"][2] << " h " << height;
  EXPECT_TRUE(shrank[2] > shrank[0] + 40 && shrank[2] > shrank[1] + 40)
      << "shrunk: " << shrank[0] << "," << shrank[1] << "," << shrank[2];
  EXPECT_TRUE(std::abs(same[0] - same[1]) <= 4 && std::abs(same[1] - same[2]) <= 4 && same[0] > 180)
      << "unchanged: " << same[0] << "," << same[1] << "," << same[2];
}

// Two recorded runs of one program, a quarter and then three quarters of each round in
// split::work_a: the diff finds the half of the samples that moved from work_b to work_a.
TEST_F(Diff, RecordedRunsFindTheTimeThatMoved) {
  const auto record = [&](const std::string& name, const std::string& share) {
    const std::string out = dir.file(name);
    const auto r = reptest::run({RECORD_EXE, "-o", out, "--", WORKLOAD_SPLIT, "0.8", share});
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
  };
  const std::string base = record("quarter.pmclog", "0.25");
  const std::string now = record("three.pmclog", "0.75");
  const json d = diff_json({base}, {now});
  const json* a = row(d, "split::work_a(unsigned long)");
  const json* b = row(d, "split::work_b(unsigned long)");
  ASSERT_TRUE(a && b) << d.dump();
  // Each function's share of the run's samples moves by 50 points; startup and the clock's
  // calls take a few, the timer's sampling a few more.
  EXPECT_NEAR((*a)["self"]["delta"].get<double>(), +50, 12) << d.dump();
  EXPECT_NEAR((*b)["self"]["delta"].get<double>(), -50, 12) << d.dump();
  EXPECT_TRUE((*a)["self"]["significant"].get<bool>());
  EXPECT_TRUE((*b)["self"]["significant"].get<bool>());
  const auto r = report({"--by", "sym", "--fail-if", "self(sym=split::work_a(unsigned long))>+20",
                         "--diff", base, "--", now});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("split::work_a(unsigned long): self "), std::string::npos) << r.err;
}

// pprof: our --diff profile read by Google's pprof gives, per function, what pprof itself
// computes from the two sides' profiles with -diff_base.
TEST_F(Diff, PprofAgreesWithPprofDiffBase) {
  if (std::string(PPROF_EXE).empty())
    GTEST_SKIP() << "Google's pprof could not be built: this build found no `go` (golang-go) or "
                    "no /usr/share/gocode/src/github.com/google/pprof "
                    "(golang-github-google-pprof-dev); scripts/setup.sh installs both";
  std::mt19937_64 rng(19);
  const auto base = log("base", draws(rng, kPmcA, 3000, {{kA, 30}, {kB, 20}, {kC, 50}}));
  const auto now = log("new", draws(rng, kPmcA, 2000, {{kA, 40}, {kB, 10}, {0x4000, 50}},
                                    {0x8000, kCaller}));
  ASSERT_EQ(report({"--format", "pprof", "-o", dir.file("b.pb.gz"), base}).status, 0);
  ASSERT_EQ(report({"--format", "pprof", "-o", dir.file("n.pb.gz"), now}).status, 0);
  const auto r = report({"--format", "pprof", "-o", dir.file("d.pb.gz"), "--diff", base, "--", now});
  ASSERT_EQ(r.status, 0) << r.err;
  // pprof -top: "FLAT FLAT% SUM% CUM CUM% NAME", the figures signed in a diff.
  const auto top = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {PPROF_EXE, "-top", "-nodecount=100000", "-nodefraction=0",
                               "-edgefraction=0"});
    const auto ran = reptest::run(args);
    EXPECT_EQ(ran.status, 0) << ran.err;
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    const std::regex row(R"(^\s*(-?\d+)\s+-?[\d.]+%\s+-?[\d.]+%\s+(-?\d+)\s+-?[\d.]+%\s+(.+)$)");
    std::istringstream in(ran.out);
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, row)) out[m[3]] = {std::stoll(m[1]), std::stoll(m[2])};
    return out;
  };
  const auto theirs = top({"-diff_base", dir.file("b.pb.gz"), dir.file("n.pb.gz")});
  const auto ours = top({dir.file("d.pb.gz")});
  EXPECT_EQ(ours, theirs);
  ASSERT_TRUE(ours.count("0x1000"));
  EXPECT_LT(ours.at("0x3000").first, 0);  // only in the base: negative
  EXPECT_GT(ours.at("0x4000").first, 0);  // only in the new logs
}

}  // namespace
