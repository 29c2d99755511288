// pmclog-write synth: determinism (also across machines, by a pinned checksum), clean
// decoding in every ABI, the shape of the model, per-CPU interleaving, size control, and a
// clean pmclog-validate run when that tool is built.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "pmclog/detect.h"
#include "pmclog/reader.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

struct AbiCase {
  const char* gen;
  int width;
  const char* order;
  Generation g;
};

std::string name_of(const AbiCase& c) {
  return std::string(c.gen) + "_" + std::to_string(c.width) + "_" + c.order;
}

void PrintTo(const AbiCase& c, std::ostream* os) { *os << name_of(c); }

std::string fmt_args(const AbiCase& c, int events = 2) {
  return std::string("--generation ") + c.gen + " --address-width " + std::to_string(c.width / 8) +
         " --byte-order " + c.order +
         " -n 3000 --seed 3 --cpu-buffer-size 8KiB --depth 3..9 --events " +
         std::to_string(events);
}

constexpr size_t PINNED_M10_SIZE = 195772;
constexpr uint64_t PINNED_M10_FNV = 3820546459862141165ull;
constexpr size_t PINNED_L3_SIZE = 114620;
constexpr uint64_t PINNED_L3_FNV = 5114008849285618438ull;

std::vector<AbiCase> all_abis() {
  std::vector<AbiCase> v;
  const std::pair<const char*, Generation> gens[] = {{"L1", Generation::L1}, {"L2", Generation::L2},
                                                     {"L3", Generation::L3}, {"M9", Generation::M9},
                                                     {"M10", Generation::M10}};
  for (auto [n, g] : gens)
    for (int w : {32, 64})
      for (const char* o : {"little", "big"}) v.push_back({n, w, o, g});
  return v;
}

std::vector<uint8_t> synth(const ScratchDir& d, const std::string& args) {
  const fs::path out = d / "synth.pmclog";
  fs::remove(out);
  const Ran r = run(concat({{write_bin(), "synth", "-q"}, words(args), {"-o", out}}));
  EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
  return slurp_bytes(out);
}

class SynthAbi : public ::testing::TestWithParam<AbiCase> {};

TEST_P(SynthAbi, DecodesCleanlyWithTheRightShape) {
  const AbiCase& c = GetParam();
  ScratchDir d;
  const auto bytes = synth(d, fmt_args(c));
  ASSERT_FALSE(bytes.empty());
  // The ABI is found from the bytes alone.
  auto det = detect_abi(bytes);
  ASSERT_TRUE(det.ok()) << det.error().message;
  Abi abi = det->abi;
  if (c.g == Generation::L2) {
    // L2 and L3 differ only by PMCALLOCATEDYN, which an L2 log lacks (format.md §2.2).
    EXPECT_EQ(abi.generation, Generation::L3);
    abi.generation = Generation::L2;
  }
  EXPECT_EQ(abi.generation, c.g);
  EXPECT_EQ(abi.address_width, c.width / 8);
  EXPECT_EQ(abi.byte_order, std::string(c.order) == "big" ? ByteOrder::big : ByteOrder::little);

  LogReader reader = LogReader::over(bytes, abi);
  Record r;
  Error err;
  uint64_t n = 0;
  std::map<Kind, uint64_t> kinds;
  std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> unmapped;  // pid -> [start,end)
  std::vector<std::pair<uint32_t, std::vector<uint64_t>>> user_chains;
  uint64_t kernel_start = 0;
  std::map<uint32_t, uint64_t> last_tsc_per_cpu;
  bool file_order_not_time_order = false;
  uint64_t prev_tsc = 0;
  Kind first = Kind::unknown, last = Kind::unknown;
  for (Step s; (s = reader.next(r, err)) != Step::end;) {
    ASSERT_EQ(s, Step::record) << err.message;
    if (n == 0) first = r.kind;
    last = r.kind;
    ++n;
    ++kinds[r.kind];
    if (r.kind == Kind::map_in && r[Field::pid] == 0xFFFFFFFFu && kernel_start == 0)
      kernel_start = r[Field::start];
    if (r.kind == Kind::map_out)
      unmapped[static_cast<uint32_t>(r[Field::pid])].emplace_back(r[Field::start], r[Field::end]);
    if (r.kind == Kind::callchain) {
      EXPECT_GE(r.pcs.size(), 3u);
      EXPECT_LE(r.pcs.size(), 9u);
      std::vector<uint64_t> pcs(r.pcs.begin(), r.pcs.end());
      if (r.user_callchain()) {
        user_chains.emplace_back(static_cast<uint32_t>(r[Field::pid]), pcs);
      } else {
        for (uint64_t pc : pcs) {
          EXPECT_GE(pc, kernel_start);
          EXPECT_LT(pc, kernel_start + (256u << 20));
        }
      }
      if (!abi.legacy()) {
        auto& t = last_tsc_per_cpu[r.cpu()];
        EXPECT_GE(r.header.tsc, t) << "per-CPU buffers keep time order";
        t = r.header.tsc;
      }
    }
    if (!abi.legacy()) {
      if (r.header.tsc < prev_tsc) file_order_not_time_order = true;
      prev_tsc = r.header.tsc;
    }
  }
  EXPECT_EQ(n, 3000u);  // --records is exact
  EXPECT_EQ(first, Kind::initialize);
  EXPECT_EQ(last, Kind::closelog);
  EXPECT_GE(kinds[Kind::procexec], 1u);
  EXPECT_GE(kinds[Kind::procfork], 1u);
  EXPECT_GE(kinds[Kind::procexit], 1u);
  EXPECT_GE(kinds[Kind::sysexit], 1u);
  EXPECT_GE(kinds[Kind::proccsw], 1u);
  EXPECT_GE(kinds[Kind::pmcallocate], 1u);
  if (c.g == Generation::L1) {
    EXPECT_GE(kinds[Kind::pcsample], 1000u);
  } else {
    EXPECT_GE(kinds[Kind::callchain], 1000u);
    EXPECT_GE(kinds[Kind::map_in], 10u);
    EXPECT_EQ(kinds[Kind::map_out] > 0, true);
    // Every user frame lies inside an object its process had mapped.
    for (const auto& [pid, pcs] : user_chains) {
      const auto& maps = unmapped[pid];
      for (uint64_t pc : pcs) {
        bool inside = false;
        for (auto [s, e] : maps) inside |= pc >= s && pc < e;
        EXPECT_TRUE(inside) << "pid " << pid << " pc 0x" << std::hex << pc;
      }
    }
  }
  if (c.g == Generation::L3 || c.g >= Generation::M9) {
    EXPECT_GE(kinds[Kind::pmcallocatedyn], 1u);
  }
  if (c.g >= Generation::M9) {
    EXPECT_GE(kinds[Kind::thr_create], 1u);
    EXPECT_GE(kinds[Kind::thr_exit], 1u);
    EXPECT_GE(kinds[Kind::proc_create], 1u);
    EXPECT_TRUE(file_order_not_time_order) << "per-CPU buffers interleave (format.md §3.4)";
  }
}

TEST_P(SynthAbi, ValidatesClean) {
#ifndef PMCLOG_VALIDATE_BIN
  GTEST_SKIP() << "pmclog-validate is not built";
#else
  const AbiCase& c = GetParam();
  ScratchDir d;
  // --events 8: every hardware event of the machine (event-unknown-to-libpmc would warn).
  for (int events : {2, 8}) {
    synth(d, fmt_args(c, events));
    const Ran r =
        run({PMCLOG_VALIDATE_BIN, "--format", "json", d / "synth.pmclog"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.out;
    EXPECT_EQ(j["summary"]["errors"], 0) << events << r.out;
    EXPECT_EQ(j["summary"]["warnings"], 0) << events << r.out;
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(AllAbis, SynthAbi, ::testing::ValuesIn(all_abis()),
                         [](const auto& info) { return name_of(info.param); });

TEST(Synth, SameSeedSameBytesOtherSeedOtherBytes) {
  ScratchDir d;
  const std::string args = "-n 5000 --events 3 --processes 5 --cpu-buffer-size 8KiB";
  const auto a = synth(d, args + " --seed 11");
  const auto b = synth(d, args + " --seed 11");
  const auto c = synth(d, args + " --seed 12");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Pinned: these change only when the model changes on purpose. A different value on another
// machine means the output depends on the platform, which it must not.
TEST(Synth, PinnedChecksums) {
  ScratchDir d;
  const auto m = synth(d, "--generation M10 -n 2000 --seed 7 --cpu-buffer-size 8KiB");
  EXPECT_EQ(m.size(), PINNED_M10_SIZE);
  EXPECT_EQ(fnv1a(m), PINNED_M10_FNV);
  const auto l = synth(d, "--generation L3 --address-width 4 --byte-order big -n 2000 --seed 7");
  EXPECT_EQ(l.size(), PINNED_L3_SIZE);
  EXPECT_EQ(fnv1a(l), PINNED_L3_FNV);
}

TEST(Synth, SizeBudgetIsMetFromBelow) {
  ScratchDir d;
  const auto b = synth(d, "-s 1MiB --seed 3");
  EXPECT_LE(b.size(), 1u << 20);
  EXPECT_GE(b.size(), (1u << 20) - 8192);
  auto det = detect_abi(b);
  ASSERT_TRUE(det.ok());
  LogReader reader = LogReader::over(b, det->abi);
  Record r;
  Error err;
  Step s;
  while ((s = reader.next(r, err)) == Step::record) {
  }
  EXPECT_EQ(s, Step::end) << err.message;
}

TEST(Synth, DepthRangeIsHonouredUpToTheGenerationLimit) {
  ScratchDir d;
  const auto b = synth(d, "--generation M9 -n 500 --depth 500..512 --seed 5");
  auto det = detect_abi(b);
  ASSERT_TRUE(det.ok());
  LogReader reader = LogReader::over(b, det->abi);
  Record r;
  Error err;
  size_t chains = 0;
  while (reader.next(r, err) == Step::record) {
    if (r.kind != Kind::callchain) continue;
    ++chains;
    EXPECT_GE(r.pcs.size(), 500u);
    EXPECT_LE(r.pcs.size(), 512u);
  }
  EXPECT_GT(chains, 100u);
  const Ran bad =
      run({write_bin(), "synth", "--generation", "L2", "--depth", "2..33", "-n", "100", "-o", d / "x"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("at most 32"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(d / "x"));
}

TEST(Synth, TooFewRecordsForTheSetupIsAUsageError) {
  ScratchDir d;
  const Ran r = run({write_bin(), "synth", "-n", "5", "-o", d / "x"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot be that small"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(d.path())) << "no output, no temporary";
}

}  // namespace
}  // namespace pmclog::write_test
