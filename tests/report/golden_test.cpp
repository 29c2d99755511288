// The committed log's outputs, byte for byte (fixtures/report/README.md derives them).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "pmclog/open.h"
#include "pmcprofile/pmcprofile.h"
#include "report_support.h"

namespace {

const std::string kLog = std::string(REPORT_FIXTURES) + "/golden.pmclog";

TEST(Golden, Top) {
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--sysroot", empty.str(), kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.top.txt"));
}

// The golden log is FreeBSD's (a /boot kernel mapping): without --sysroot this machine's
// /bin/sh and /usr/bin/yes (Linux ELF) must not be read for it, so every output is the
// golden one whatever this machine holds; only the hints after each object differ.
TEST(Golden, WithoutASysrootNoFileOfThisMachineIsRead) {
  const auto folded = reptest::run({REPORT_EXE, "--format", "folded", kLog});
  ASSERT_EQ(folded.status, 0) << folded.err;
  EXPECT_EQ(folded.out, reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt"));
  const auto top = reptest::run({REPORT_EXE, kLog});
  ASSERT_EQ(top.status, 0) << top.err;
  const std::string want = reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.top.txt");
  // Up to the list of objects: the rows and the count of unresolved frames by reason.
  const size_t objects = want.find("#   /bin/sh: 5 frames, object missing");
  ASSERT_NE(objects, std::string::npos);
  EXPECT_EQ(top.out.substr(0, objects), want.substr(0, objects));
  for (const char* path : {"/bin/sh: 5", "/lib/libc.so.7: 3", "/boot/kernel/kernel: 2", "/usr/bin/yes: 1"})
    EXPECT_NE(top.out.find(std::string("#   ") + path + " frames, object missing"), std::string::npos)
        << path << "\n" << top.out;
}

TEST(Golden, Folded) {
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt"));
}

TEST(Golden, FoldedWithCommandFrameAndOneEvent) {
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "folded", "--comm-frame", "--event",
                               "cpu-clock", "--sysroot", empty.str(), kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded-comm.txt"));
}

TEST(Golden, SeveralOutputsEachToItsFile) {
  reptest::ScratchDir d, empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "folded", "--format", "top", "-o",
                               d.file("f"), "-o", d.file("t"), "--sysroot", empty.str(), kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(reptest::slurp(d.file("f")),
            reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt"));
  EXPECT_EQ(reptest::slurp(d.file("t")),
            reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.top.txt"));
}

TEST(Golden, MergedLogsAddUpAndByFileKeepsThemApart) {
  reptest::ScratchDir empty;
  auto r = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), kLog, kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto once = reptest::parse_folded(reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt"));
  const auto twice = reptest::parse_folded(r.out);
  ASSERT_EQ(twice.size(), once.size());
  for (const auto& [stack, n] : once) EXPECT_EQ(twice.at(stack), 2 * n) << stack;
  r = reptest::run({REPORT_EXE, "--by-file", "--sysroot", empty.str(), kLog, kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t inputs = 0;
  for (size_t at = r.out.find("# Input: "); at != std::string::npos; at = r.out.find("# Input: ", at + 1)) ++inputs;
  EXPECT_EQ(inputs, 2u) << r.out;
  EXPECT_NE(r.out.find("# Event: cpu-clock, 6 samples"), std::string::npos);
  r = reptest::run({REPORT_EXE, "--by-file", "--format", "folded", "--sysroot", empty.str(), kLog});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto by_file = reptest::parse_folded(r.out);
  ASSERT_EQ(by_file.size(), once.size());
  for (const auto& [stack, n] : once) EXPECT_EQ(by_file.at(kLog + ";" + stack), n) << stack;
}

TEST(Golden, StandardInputAndCompressedInput) {
  reptest::ScratchDir d, empty;
  const std::string bytes = reptest::slurp(kLog);
  auto r = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), "-"}, bytes);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string want = reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt");
  EXPECT_EQ(r.out, want);
  reptest::write_file(d.file("g.pmclog"), bytes);
  ASSERT_EQ(reptest::run({"/bin/gzip", "-k", d.file("g.pmclog")}).status, 0);
  r = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), d.file("g.pmclog.gz")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want);
}

TEST(GoldenApi, SamplesComeInTimeOrderWithTheirFramesResolved) {
  reptest::ScratchDir empty;
  pmcprofile::Options opt;
  opt.locate.sysroot = empty.str();
  pmcprofile::Session s(opt);
  std::vector<std::pair<double, std::string>> seen;  // time, "comm leaf-object"
  const auto rep = s.for_each_sample(kLog, [&](const pmcprofile::Sample& smp) {
    const pmcprofile::Frame& leaf = s.tables().frames[smp.frames[0]];
    const std::string obj = leaf.where.object == pmcprofile::kNoObject
                                ? "-" : s.objects().peek(leaf.where.object).name;
    seen.emplace_back(smp.time, s.tables().comms[smp.comm] + " " + obj);
  });
  EXPECT_TRUE(rep.error.empty()) << rep.error;
  EXPECT_EQ(rep.samples, 6u);
  EXPECT_EQ(rep.kept, 6u);
  // TSCs 2000, 2500, 3000, 3550, 4000, 5000 from 1000 at 1 GHz.
  const std::vector<std::pair<double, std::string>> want = {
      {1e-6, "sh sh"}, {1.5e-6, "sh libc.so.7"}, {2e-6, "sh libc.so.7"},
      {2.55e-6, "sh libc.so.7"}, {3e-6, "yes yes"}, {4e-6, "sh kernel"}};
  ASSERT_EQ(seen.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(seen[i].first, want[i].first, 1e-12) << i;
    EXPECT_EQ(seen[i].second, want[i].second) << i;
  }
}

TEST(Fixtures, EveryGenerationWidthAndByteOrderGivesTheSameProfile) {
  // The codec's fixtures: the same records in both byte orders must give the same stacks.
  reptest::ScratchDir empty;
  const std::string dir = std::string(REPORT_FIXTURES) + "/..";
  for (const char* g : {"L1", "L2", "L3", "M9", "M10"}) {
    for (const char* w : {"32", "64"}) {
      const std::string base = dir + "/" + g + "-" + w;
      const auto le = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), base + "-le.pmclog"});
      const auto be = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), base + "-be.pmclog"});
      EXPECT_EQ(le.status, 0) << base << le.err;
      EXPECT_FALSE(le.out.empty()) << base;
      EXPECT_EQ(le.out, be.out) << base;
    }
  }
  // L1: a PCSAMPLE before the PMCALLOCATE of its pmc still gets the event's name.
  const auto l1 = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(), dir + "/L1-32-le.pmclog"});
  EXPECT_EQ(l1.out, "TSC;sh+0xb2c 1\n");
}

TEST(Golden, SortLimitAndGrouping) {
  reptest::ScratchDir empty;
  const auto top = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{REPORT_EXE, "--sysroot", empty.str()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(kLog);
    const auto r = reptest::run(argv);
    EXPECT_EQ(r.status, 0) << r.err;
    return reptest::parse_top(r.out);
  };
  auto rows = top({"--sort", "total", "--limit", "2"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].symbol(), "sh+0x450");  // in 3 stacks
  EXPECT_EQ(rows[0].total, 3u);
  EXPECT_EQ(rows[1].symbol(), "libc.so.7+0x10");
  rows = top({"--sort", "name", "--by", "symbol"});
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows.front().symbol(), "0x500");
  EXPECT_EQ(rows.back().symbol(), "yes+0x200");
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_LT(rows[i - 1].symbol(), rows[i].symbol());
  // By object: the rows add up to the whole event.
  rows = top({"--by", "object"});
  uint64_t self = 0;
  std::map<std::string, uint64_t> by;
  for (const auto& r : rows) {
    self += r.self;
    by[r.columns[0]] = r.self;
  }
  EXPECT_EQ(self, 6u);
  EXPECT_EQ(by, (std::map<std::string, uint64_t>{{"libc.so.7", 3}, {"sh", 1}, {"kernel", 1}, {"yes", 1}, {"[unknown]", 0}}));
  // By pid: pid 43 ran as "sh" (before its exec) and as "yes".
  rows = top({"--by", "comm,pid", "--sort", "self"});
  std::map<std::string, uint64_t> pids;
  for (const auto& r : rows) pids[r.columns[0] + "/" + r.columns[1]] = r.self;
  EXPECT_EQ(pids, (std::map<std::string, uint64_t>{{"sh/42", 4}, {"sh/43", 1}, {"yes/43", 1}}));
}

}  // namespace

// Sample::offset is its record's offset; Options::max_stacks stops a log at the sample whose
// stack passes the cap, and a log added after that stops at its own first new stack.
TEST(GoldenApi, SampleOffsetsAndTheStackCap) {
  reptest::ScratchDir empty;
  std::set<uint64_t> chains;  // offsets of the records that are samples
  uint64_t total = 0;
  auto opened = pmclog::open_log(kLog);
  ASSERT_TRUE(opened);
  pmclog::Error err;
  opened.value().reader->for_each(
      [&](const pmclog::Record& r) {
        ++total;
        if (r.kind == pmclog::Kind::callchain || r.kind == pmclog::Kind::pcsample) chains.insert(r.offset);
      },
      err);
  pmcprofile::Options opt;
  opt.locate.sysroot = empty.str();
  std::set<uint64_t> seen;
  {
    pmcprofile::Session s(opt);
    s.for_each_sample(kLog, [&](const pmcprofile::Sample& smp) { seen.insert(smp.offset); });
  }
  EXPECT_EQ(seen, chains);
  opt.max_stacks = 4;
  opt.reorder_window = 0;  // replayed as read: the cap stops the reading itself
  pmcprofile::Session s(opt);
  const auto first = s.add_log(kLog);
  EXPECT_TRUE(first.stack_cap);
  EXPECT_NE(first.error.find("more than 4 distinct stacks"), std::string::npos) << first.error;
  EXPECT_LT(first.records, total) << "stopped before the end";
  const auto second = s.add_log(kLog);
  EXPECT_TRUE(second.stack_cap);
  // The stacks read before the cap are in the profile already (the one that passed it
  // too): the second log goes past that sample and stops at its next new stack.
  EXPECT_NE(second.error, first.error);
  EXPECT_GT(second.records, first.records);
  EXPECT_LE(second.records, total);
  opt.max_stacks = 0;
  pmcprofile::Session all(opt);
  EXPECT_FALSE(all.add_log(kLog).stack_cap);
  EXPECT_GT(all.profiles()[0].nodes.size(), 4u) << "the cap of 4 is below this log's nodes";
}
