// The committed fixtures (one per generation x width x byte order) decode to exactly their
// listings, are detected as their ABI, and re-encode to their bytes. This catches
// regressions in every one of the 20 ABIs.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/detect.h"
#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;

namespace {

class FixtureTest : public ::testing::TestWithParam<Abi> {
 protected:
  std::string base() const { return fixtures_dir() + "/" + fixture_relpath(GetParam()); }
};

TEST_P(FixtureTest, DecodesToExactlyTheListing) {
  const auto bytes = slurp_bytes(base() + ".pmclog");
  ASSERT_FALSE(bytes.empty()) << base() << ".pmclog missing";
  const Listing want = parse_listing(slurp(base() + ".expected.txt"));
  ASSERT_TRUE(want.error.empty()) << want.error;
  ASSERT_TRUE(want.total_bytes && want.total_records);
  EXPECT_EQ(*want.total_bytes, bytes.size());
  EXPECT_EQ(*want.total_records, want.records.size());

  // Every kind the generation's writer emits is present, INITIALIZE first, CLOSELOG last.
  ASSERT_GE(want.records.size(), 2u);
  EXPECT_EQ(want.records.front().type_name, "INITIALIZE");
  EXPECT_EQ(want.records.back().type_name, "CLOSELOG");
  for (Kind k : kinds_of(GetParam().generation)) {
    if (k == Kind::pcsample && GetParam().generation != Generation::L1) continue;
    bool seen = false;
    for (const auto& r : want.records) seen |= r.type_name == format_name(k);
    EXPECT_TRUE(seen) << format_name(k) << " missing from the listing";
  }

  auto rd = pmclog::LogReader::over(bytes, GetParam());
  pmclog::Record r;
  pmclog::Error err;
  for (const auto& w : want.records) {
    ASSERT_EQ(rd.next(r, err), pmclog::Step::record) << "listed rec=" << w.rec << ": " << err.message;
    EXPECT_TRUE(matches_listing(w, r, GetParam()));
  }
  EXPECT_EQ(rd.next(r, err), pmclog::Step::end);
}

TEST_P(FixtureTest, DetectsItsAbi) {
  const Abi abi = GetParam();
  const auto bytes = slurp_bytes(base() + ".pmclog");
  auto det = pmclog::detect_abi(bytes);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_FALSE(det->evidence.empty());
  for (const auto& line : det->evidence) EXPECT_FALSE(line.empty());
  EXPECT_EQ(det->abi.address_width, abi.address_width);
  EXPECT_EQ(det->abi.slot_width(), abi.slot_width());
  EXPECT_FALSE(det->width_assumed);
  EXPECT_EQ(det->abi.byte_order, abi.byte_order);
  if (!abi.legacy()) {
    EXPECT_EQ(det->abi.time_width, abi.time_width);
  }
  if (abi.generation == Generation::L2 && det->abi.generation != Generation::L2) {
    // Nothing in an L2 log's bytes tells it from an L3 one without PMCALLOCATEDYN (format.md §2.2):
    // detection may pick L3 but must say it assumed so, and a hint must settle it.
    EXPECT_EQ(det->abi.generation, Generation::L3);
    EXPECT_TRUE(det->generation_assumed);
    pmclog::AbiHint hint;
    hint.generation = Generation::L2;
    auto det2 = pmclog::detect_abi(bytes, hint);
    ASSERT_TRUE(det2.ok());
    EXPECT_EQ(det2->abi.generation, Generation::L2);
  } else {
    EXPECT_EQ(det->abi.generation, abi.generation);
  }
}

TEST_P(FixtureTest, ReencodesToTheSameBytes) {
  const Abi abi = GetParam();
  const auto bytes = slurp_bytes(base() + ".pmclog");
  auto rd = pmclog::LogReader::over(bytes, abi);
  pmclog::Record r;
  pmclog::Error err;
  std::vector<uint8_t> out;
  while (rd.next(r, err) == pmclog::Step::record) {
    auto len = pmclog::encode(pmclog::to_value(r, abi), abi, out);
    ASSERT_TRUE(len.ok()) << len.error().message;
  }
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
  EXPECT_EQ(out, bytes);
}

TEST_P(FixtureTest, StreamingGivesTheSameRecords) {
  const Abi abi = GetParam();
  const auto bytes = slurp_bytes(base() + ".pmclog");
  auto over = pmclog::LogReader::over(bytes, abi);
  const auto want = read_all(over);
  ASSERT_FALSE(want.empty());
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    auto st = pmclog::LogReader::stream(pmclog::span_source(bytes, chunk), abi);
    pmclog::Error err;
    const auto got = read_all(st, &err);
    EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
    EXPECT_TRUE(got == want) << "chunk " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(AllAbis, FixtureTest, ::testing::ValuesIn(fixture_abis()),
                         [](const auto& info) {
                           std::string s = fixture_stem(info.param);
                           for (char& c : s) if (c == '-') c = '_';
                           return s;
                         });

}  // namespace
