// Reading inputs on several threads (-j N): a Session per input, absorbed in input order,
// holds exactly what one Session reading every input holds, and the tool's outputs are the
// same bytes whatever N.
#include <gtest/gtest.h>

#include <filesystem>

#include "pmcprofile/session.h"
#include "report_support.h"

namespace {

namespace fs = std::filesystem;

// Every committed fixture log (every generation, width and byte order, the golden log with
// its renamed events) and synthetic logs of several processes.
std::vector<std::string> inputs(const reptest::ScratchDir& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(PMCLOG_FIXTURES_DIR))
    if (e.path().extension() == ".pmclog") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  out.push_back(std::string(REPORT_FIXTURES) + "/golden.pmclog");
  for (const char* seed : {"3", "4", "5"}) {
    const std::string log = dir.file(std::string("synth-") + seed + ".pmclog");
    const auto r = reptest::run({WRITE_EXE, "synth", "-q", "-n", "3000", "--seed", seed,
                                 "--processes", "4", "-o", log});
    EXPECT_EQ(r.status, 0) << r.err;
    out.push_back(log);
  }
  return out;
}

void expect_same(const pmcprofile::Session& a, const pmcprofile::Session& b) {
  const pmcprofile::Tables& x = a.tables();
  const pmcprofile::Tables& y = b.tables();
  EXPECT_EQ(x.events, y.events);
  EXPECT_EQ(x.event_rates, y.event_rates);
  EXPECT_EQ(x.distinct_events.of, y.distinct_events.of);
  EXPECT_EQ(x.comms, y.comms);
  EXPECT_EQ(x.threads, y.threads);
  EXPECT_EQ(x.inputs, y.inputs);
  ASSERT_EQ(x.frames.size(), y.frames.size());
  for (size_t f = 0; f < x.frames.size(); ++f) ASSERT_TRUE(x.frames[f] == y.frames[f]) << "frame " << f;
  ASSERT_EQ(x.context_count(), y.context_count());
  for (uint32_t c = 0; c < x.context_count(); ++c)
    ASSERT_TRUE(x.context_of(c) == y.context_of(c)) << "context " << c;
  ASSERT_EQ(a.view().objects.size(), b.view().objects.size());
  for (uint32_t o = 0; o < a.view().objects.size(); ++o) {
    const pmcprofile::ObjectInfo& p = a.view().objects.peek(o);
    const pmcprofile::ObjectInfo& q = b.view().objects.peek(o);
    EXPECT_EQ(p.path, q.path);
    EXPECT_EQ(p.kernel, q.kernel);
    EXPECT_EQ(p.execed, q.execed);
    EXPECT_EQ(p.mapped_in, q.mapped_in);
    EXPECT_EQ(p.kallsyms_mapped, q.kallsyms_mapped);
  }
  ASSERT_EQ(a.profiles().size(), b.profiles().size());
  for (size_t i = 0; i < a.profiles().size(); ++i) {
    const pmcprofile::Profile& p = a.profiles()[i];
    const pmcprofile::Profile& q = b.profiles()[i];
    EXPECT_EQ(p.name, q.name);
    EXPECT_EQ(p.samples, q.samples);
    EXPECT_EQ(p.event_samples, q.event_samples);
    EXPECT_EQ(p.self, q.self);
    ASSERT_EQ(p.nodes.size(), q.nodes.size());
    for (size_t n = 0; n < p.nodes.size(); ++n) {
      ASSERT_EQ(p.nodes[n].parent, q.nodes[n].parent) << "node " << n;
      ASSERT_EQ(p.nodes[n].value, q.nodes[n].value) << "node " << n;
    }
  }
  EXPECT_EQ(a.stack_nodes(), b.stack_nodes());
  EXPECT_EQ(a.filter_matches().comms, b.filter_matches().comms);
  EXPECT_EQ(a.filter_matches().events, b.filter_matches().events);
}

void absorb_matches_one_reader(pmcprofile::Options opt) {
  reptest::ScratchDir dir;
  const auto logs = inputs(dir);
  pmcprofile::Session one(opt);
  for (const auto& l : logs) one.add_log(l);
  pmcprofile::Session merged(opt);
  for (const auto& l : logs) {
    pmcprofile::Session part(opt);
    part.add_log(l);
    merged.absorb(std::move(part));
  }
  ASSERT_GT(one.profiles().at(0).samples, 0u);
  expect_same(one, merged);
}

TEST(Absorb, SessionsOfAnInputEachAddUpToOneReadingThemAll) {
  pmcprofile::Options opt;
  opt.filter.comms = {"sh", "no-such-command"};
  absorb_matches_one_reader(opt);
  absorb_matches_one_reader(pmcprofile::Options{});
}

TEST(Absorb, PerInputProfilesAndContexts) {
  pmcprofile::Options opt;
  opt.by_file = true;
  opt.keep_threads = true;
  opt.keep_cpus = true;
  absorb_matches_one_reader(opt);
  pmcprofile::Options inputs_kept;
  inputs_kept.keep_inputs = true;
  absorb_matches_one_reader(inputs_kept);
}

// Every output kind, the same bytes with one thread and with several.
TEST(Jobs, TheSameOutputWhateverTheNumberOfThreads) {
  reptest::ScratchDir dir;
  const auto logs = inputs(dir);
  const std::vector<std::vector<std::string>> kinds = {
      {"--format", "top"}, {"--format", "folded"}, {"--format", "svg"},
      {"--format", "callgraph"}, {"--format", "speedscope"}, {"--by-file", "--format", "top"},
      {"--format", "pprof", "-o", "OUT"}};
  for (const auto& kind : kinds) {
    std::string out[2], file[2];
    int status[2];
    for (int j = 0; j < 2; ++j) {
      std::vector<std::string> argv{REPORT_EXE, "--no-progress", j == 0 ? "-j1" : "-j3"};
      for (const auto& a : kind) argv.push_back(a == "OUT" ? dir.file("out" + std::to_string(j)) : a);
      argv.insert(argv.end(), logs.begin(), logs.end());
      const auto r = reptest::run(argv);
      out[j] = r.out + r.err;
      status[j] = r.status;
      if (kind.back() == "OUT") file[j] = reptest::slurp(dir.file("out" + std::to_string(j)));
    }
    EXPECT_EQ(status[0], status[1]) << kind[1];
    EXPECT_EQ(out[0], out[1]) << kind[1];
    EXPECT_EQ(file[0], file[1]) << kind[1];
    EXPECT_GT(out[0].size() + file[0].size(), 100u) << kind[1];
  }
}

TEST(Jobs, ANumberOfThreadsOrAUsageError) {
  for (const char* bad : {"0", "x", "-1", "100000"}) {
    const auto r = reptest::run({REPORT_EXE, "--jobs", bad, PMCLOG_FIXTURES_DIR "/M10-64-le.pmclog"});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--jobs"), std::string::npos) << r.err;
  }
}

// Over the cap once the inputs are merged: the same refusal as reading them in one Session.
TEST(Jobs, TheStackCapCountsTheMergedProfile) {
  reptest::ScratchDir dir;
  const auto logs = inputs(dir);
  for (const char* j : {"-j1", "-j2"}) {
    std::vector<std::string> argv{REPORT_EXE, j, "--max-stacks", "2000"};
    argv.insert(argv.end(), logs.begin(), logs.end());
    const auto r = reptest::run(argv);
    EXPECT_EQ(r.status, 1) << j << ": " << r.err;
    EXPECT_NE(r.err.find("more than 2000 distinct stacks"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << j;
  }
}

}  // namespace
