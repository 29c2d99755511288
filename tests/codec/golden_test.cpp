// The logs written by FreeBSD's own writer code (fixtures/golden/, PROVENANCE.md) decode to
// exactly their listings and re-encode to exactly their bytes.
#include <gtest/gtest.h>

#include <filesystem>

#include "listing.h"
#include "pmclog/detect.h"
#include "pmclog/encode.h"
#include "pmclog/reader.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::Abi;
using pmclog::ByteOrder;
using pmclog::Generation;

namespace {

struct Golden {
  const char* stem;
  Abi abi;
};

const Golden kGolden[] = {
    {"seed-lp64-le", Abi::make(Generation::L3, 8, ByteOrder::little)},
    {"modern-lp64-le", Abi::make(Generation::M9, 8, ByteOrder::little)},
};

class GoldenTest : public ::testing::TestWithParam<Golden> {
 protected:
  std::string base() const { return fixtures_dir() + "/golden/" + GetParam().stem; }
};

TEST_P(GoldenTest, DetectsItsAbi) {
  const auto bytes = slurp_bytes(base() + ".pmclog");
  ASSERT_FALSE(bytes.empty());
  auto det = pmclog::detect_abi(bytes);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi.generation, GetParam().abi.generation);
  EXPECT_EQ(det->abi.address_width, GetParam().abi.address_width);
  EXPECT_EQ(det->abi.byte_order, GetParam().abi.byte_order);
  EXPECT_FALSE(det->evidence.empty());
  // Both logs hold MAP_OUT and path records, so the width is settled by bytes (format.md §2.2).
  EXPECT_FALSE(det->width_assumed);
}

TEST_P(GoldenTest, DecodesToExactlyTheListing) {
  const auto bytes = slurp_bytes(base() + ".pmclog");
  const Listing want = parse_listing(slurp(base() + ".expected.txt"));
  ASSERT_TRUE(want.error.empty()) << want.error;
  ASSERT_FALSE(want.records.empty());
  ASSERT_TRUE(want.total_bytes.has_value());
  EXPECT_EQ(*want.total_bytes, bytes.size());

  auto rd = pmclog::LogReader::over(bytes, GetParam().abi);
  pmclog::Record r;
  pmclog::Error err;
  size_t i = 0;
  for (; i < want.records.size(); ++i) {
    ASSERT_EQ(rd.next(r, err), pmclog::Step::record)
        << "listed rec=" << want.records[i].rec << ": " << err.message;
    EXPECT_TRUE(matches_listing(want.records[i], r, GetParam().abi));
  }
  EXPECT_EQ(rd.next(r, err), pmclog::Step::end) << "records beyond the listing";
  EXPECT_EQ(rd.offset(), bytes.size());
}

// encode(to_value(r)) + apply_patches(unwritten_bytes(r)) gives r.raw back; and since the
// writer's buffers started zeroed, the stale bytes of format.md §5 are zero here, so the
// encoder alone must reproduce every byte.
TEST_P(GoldenTest, ReencodesToTheSameBytes) {
  const auto bytes = slurp_bytes(base() + ".pmclog");
  const Abi abi = GetParam().abi;
  auto rd = pmclog::LogReader::over(bytes, abi);
  pmclog::Record r;
  pmclog::Error err;
  std::vector<uint8_t> whole;
  int n = 0;
  while (rd.next(r, err) == pmclog::Step::record) {
    ++n;
    const std::vector<uint8_t> raw(r.raw.begin(), r.raw.end());
    std::vector<uint8_t> enc;
    auto len = pmclog::encode(pmclog::to_value(r, abi), abi, enc);
    ASSERT_TRUE(len.ok()) << "offset " << r.offset << ": " << len.error().message;
    EXPECT_EQ(enc, raw) << "offset " << r.offset << " " << pmclog::kind_name(r.kind)
                        << "\n got  " << to_hex(enc) << "\n want " << to_hex(raw);
    std::vector<uint8_t> patched = enc;
    EXPECT_TRUE(pmclog::apply_patches(patched, pmclog::unwritten_bytes(r, abi)));
    EXPECT_EQ(patched, raw) << "offset " << r.offset;
    whole.insert(whole.end(), enc.begin(), enc.end());
  }
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
  EXPECT_GT(n, 20);
  EXPECT_EQ(whole, bytes);
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, ::testing::ValuesIn(kGolden),
                         [](const auto& info) {
                           std::string s = info.param.stem;
                           for (char& c : s) if (c == '-') c = '_';
                           return s;
                         });

// A golden log added to the folder must be added to kGolden with its ABI.
TEST(GoldenFolder, EveryLogIsTested) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(fixtures_dir() + "/golden")) {
    if (e.path().extension() != ".pmclog") continue;
    ++n;
    bool known = false;
    for (const Golden& g : kGolden) known |= e.path().stem() == g.stem;
    EXPECT_TRUE(known) << e.path() << " has no entry in kGolden";
    EXPECT_TRUE(std::filesystem::exists(e.path().parent_path() / (e.path().stem().string() + ".expected.txt")));
  }
  EXPECT_EQ(n, static_cast<int>(std::size(kGolden)));
}

// The listing parser itself: the modern listing's rate notes become rate fields.
TEST(GoldenFolder, ListingNotesGiveTheRate) {
  const Listing L = parse_listing(slurp(fixtures_dir() + "/golden/modern-lp64-le.expected.txt"));
  ASSERT_TRUE(L.error.empty()) << L.error;
  ASSERT_EQ(L.records.size(), 30u);
  EXPECT_EQ(L.total_bytes, 9496u);
  const auto& f = L.records[17].fields;
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.back(), (std::pair<std::string, std::string>("rate", "0x4847464544434241")));
}

// The modern PMCALLOCATEDYN puts the rate at 32 and the name at 40 (format.md §11): check the
// raw bytes of the golden rec=17, whose rate 0x4847464544434241 is "ABCDEFGH" low word first.
TEST(GoldenModern, AllocateDynNameAfterRate) {
  const auto bytes = slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog");
  ASSERT_GE(bytes.size(), 8992u + 96u);
  const uint8_t* p = bytes.data() + 8992;
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p + 32), 8), "ABCDEFGH");
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p + 40)), "CLOCK.HARD");
  const Abi abi = Abi::make(Generation::M9, 8, ByteOrder::little);
  pmclog::Record r;
  pmclog::Error err;
  ASSERT_EQ(pmclog::decode_record(abi, p, 96, 8992, r, err), pmclog::Step::record) << err.message;
  EXPECT_EQ(r[pmclog::Field::rate], 0x4847464544434241ull);
  EXPECT_EQ(r.text, "CLOCK.HARD");
}

}  // namespace
