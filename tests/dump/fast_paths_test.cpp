// The fast paths of --format=text and --stats: frame lines written into
// one buffer with a hand-written hex conversion, and --stats' direct-mapped caches of pids
// and process rows. Checked against printf's digits and against counts worked out here.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <map>

#include "build_log.h"
#include "run_tool.h"

using namespace dumptest;
using pmclog::Field;
using pmclog::Kind;

namespace {

std::string frame_line(uint32_t i, uint64_t pc, const char* mode) {
  char b[80];
  std::snprintf(b, sizeof b, "             [%" PRIu32 "] 0x%" PRIx64 " %s", i, pc, mode);
  return b;
}

}  // namespace

// Every hex width from 1 to 16 digits, the edges of each (0x10^k - 1 and 0x10^k), 0 and
// the top bit set (kernel by address on 64-bit), on a 64-bit and a 32-bit log.
TEST(FastPaths, FrameLinesMatchPrintfForEveryWidth) {
  for (uint8_t width : {8, 4}) {
    std::vector<uint64_t> pcs = {0};
    for (int k = 1; k < (width == 8 ? 16 : 8); ++k) {
      pcs.push_back((uint64_t{1} << (4 * k)) - 1);
      pcs.push_back(uint64_t{1} << (4 * k));
    }
    pcs.push_back(width == 8 ? ~uint64_t{0} : 0xffffffffu);
    pcs.push_back(width == 8 ? 0x8000000000000000u : 0x80000000u);
    LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, width, pmclog::ByteOrder::little));
    { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
    { auto& v = b.add(Kind::callchain); v[Field::pid] = 7; v[Field::pmcid] = 0xff020700;
      v[Field::cpuflags] = 0x00010000;  // kernel record: 64-bit frames labelled by address
      v.pcs = pcs; }
    const std::string path = temp_dir() + "/widths-" + std::to_string(width) + ".pmclog";
    write_file(path, b.finish());
    const Ran r = run_dump({path});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> want;
    for (size_t i = 0; i < pcs.size(); ++i) {
      const bool user = width == 8 && (pcs[i] >> 63) == 0;
      want.push_back(frame_line(static_cast<uint32_t>(i), pcs[i], user ? "user" : "kernel"));
    }
    const auto got = lines(r.out);
    ASSERT_GE(got.size(), want.size() + 2) << r.out;
    EXPECT_EQ(std::vector<std::string>(got.begin() + 2, got.begin() + 2 + want.size()), want);
  }
}

// Frame indexes past one digit, and a user record's label.
TEST(FastPaths, FrameIndexesPastNine) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  std::vector<uint64_t> pcs;
  for (uint64_t i = 0; i < 120; ++i) pcs.push_back(0x400000 + 16 * i);
  { auto& v = b.add(Kind::callchain); v[Field::pid] = 7; v[Field::pmcid] = 0xff020700;
    v[Field::cpuflags] = 0x00010001; v.pcs = pcs; }
  const std::string path = temp_dir() + "/deep.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({path});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto got = lines(r.out);
  ASSERT_GE(got.size(), pcs.size() + 2);
  for (size_t i = 0; i < pcs.size(); ++i)
    EXPECT_EQ(got[2 + i], frame_line(static_cast<uint32_t>(i), pcs[i], "user"));
}

// Pids that share a cache slot (equal modulo 256) alternating, a rename between samples,
// and forks: every pid is counted once, every (pid, name) row gets its own samples.
TEST(FastPaths, StatsCachesKeepCollidingPidsApart) {
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  const int32_t pids[] = {5, 261, 517, 6, 5 + 65536};
  std::map<int32_t, int> samples;
  auto sample = [&](int32_t pid) {
    auto& v = b.add(Kind::callchain);
    v[Field::pid] = static_cast<uint32_t>(pid);
    v[Field::pmcid] = 0xff020700;
    v[Field::cpuflags] = 0x00000001;
    v.pcs = {0x400000};
  };
  for (int32_t p : pids) {
    auto& v = b.add(Kind::procexec);
    v[Field::pid] = static_cast<uint32_t>(p);
    v.text = "/bin/first" + std::to_string(p);
  }
  for (int round = 0; round < 3; ++round)
    for (int32_t p : pids) {
      for (int k = 0; k <= round; ++k) sample(p);
      samples[p] += round + 1;
    }
  { auto& v = b.add(Kind::procexec); v[Field::pid] = 261; v.text = "/bin/renamed"; }
  for (int k = 0; k < 4; ++k) sample(261);
  { auto& v = b.add(Kind::procfork); v[Field::oldpid] = 5; v[Field::newpid] = 773; }
  sample(773);
  const std::string path = temp_dir() + "/colliding.pmclog";
  write_file(path, b.finish());
  const Ran r = run_dump({"--stats", "--top", "all", path});
  ASSERT_EQ(r.status, 0) << r.err;
  // 5 exec'd pids and the forked child
  EXPECT_NE(r.out.find("processes: 6\n"), std::string::npos) << r.out;
  // "     samples       %       user     kernel         pid  command"
  auto row = [&](int n, int32_t pid, const std::string& name) {
    char head[32];
    std::snprintf(head, sizeof head, "  %10d ", n);
    std::string tail = " ";  // appends: GCC 12 warns falsely on "literal" + std::string&&
    tail += std::to_string(pid);
    tail += "  ";
    tail += name;
    for (const auto& l : lines(r.out))
      if (l.rfind(head, 0) == 0 && l.size() > tail.size() &&
          l.compare(l.size() - tail.size(), tail.size(), tail) == 0)
        return true;
    return false;
  };
  for (int32_t p : pids) {
    if (p != 261) {
      EXPECT_TRUE(row(samples[p], p, "first" + std::to_string(p))) << p << "\n" << r.out;
    }
  }
  EXPECT_TRUE(row(samples[261], 261, "first261")) << r.out;
  EXPECT_TRUE(row(4, 261, "renamed")) << r.out;
  EXPECT_TRUE(row(1, 773, "first5")) << r.out;
}
