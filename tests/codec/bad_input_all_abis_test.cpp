// The framing errors of bad_input_test.cpp, on every committed fixture (all 20 ABIs):
// header edits respect the fixture's byte order, offsets come from its listing.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "listing.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::Errc;

namespace {

class BadInputAllAbis : public ::testing::TestWithParam<Abi> {
 protected:
  void SetUp() override {
    bytes_ = slurp_bytes(fixtures_dir() + "/" + fixture_relpath(GetParam()) + ".pmclog");
    listing_ = parse_listing(slurp(fixtures_dir() + "/" + fixture_relpath(GetParam()) + ".expected.txt"));
    ASSERT_TRUE(listing_.error.empty());
    ASSERT_GE(listing_.records.size(), 6u);
    victim_ = listing_.records[4];  // a record in the middle, after 4 good ones
  }
  // Byte positions of the header word's magic, type and length in file order (format.md §2.2, §3.1).
  size_t magic_at() const { return le() ? 3 : 0; }
  size_t type_at() const { return le() ? 2 : 1; }
  void set_length(std::vector<uint8_t>& b, uint16_t len) const {
    const size_t o = victim_.off;
    if (le()) b[o] = len & 0xFF, b[o + 1] = static_cast<uint8_t>(len >> 8);
    else b[o + 3] = len & 0xFF, b[o + 2] = static_cast<uint8_t>(len >> 8);
  }
  bool le() const { return GetParam().byte_order == pmclog::ByteOrder::little; }

  // Both readers: 4 good records, then `code` at the victim's offset.
  void expect(const std::vector<uint8_t>& b, Errc code) const {
    for (int streaming = 0; streaming < 2; ++streaming) {
      SCOPED_TRACE(streaming ? "stream" : "span");
      auto rd = streaming ? pmclog::LogReader::stream(pmclog::span_source(b, 3), GetParam())
                          : pmclog::LogReader::over(b, GetParam());
      pmclog::Error err;
      const auto good = read_all(rd, &err);
      EXPECT_EQ(good.size(), 4u);
      EXPECT_EQ(err.code, code) << err.message;
      EXPECT_EQ(err.offset, victim_.off) << err.message;
      EXPECT_NE(err.message.find(std::to_string(victim_.off)), std::string::npos) << err.message;
    }
  }

  std::vector<uint8_t> bytes_;
  Listing listing_;
  ListedRecord victim_;
};

TEST_P(BadInputAllAbis, BadMagic) {
  auto b = bytes_;
  b[victim_.off + magic_at()] = 0xEF;
  expect(b, Errc::bad_magic);
}

TEST_P(BadInputAllAbis, LengthZeroAndBelowHeader) {
  auto b = bytes_;
  set_length(b, 0);
  expect(b, Errc::length_below_header);
  set_length(b, 8);
  expect(b, Errc::length_below_header);
}

TEST_P(BadInputAllAbis, LengthNotMultipleOf4) {
  auto b = bytes_;
  set_length(b, static_cast<uint16_t>(victim_.len + 2));
  expect(b, Errc::length_not_multiple_of_4);
}

TEST_P(BadInputAllAbis, UnknownType) {
  auto b = bytes_;
  b[victim_.off + type_at()] = 0xC8;  // 200: no generation has it
  expect(b, Errc::unknown_type);
}

TEST_P(BadInputAllAbis, Truncated) {
  std::vector<uint8_t> b(bytes_.begin(), bytes_.begin() + static_cast<long>(victim_.off + victim_.len - 4));
  expect(b, Errc::truncated);
  auto rd = pmclog::LogReader::over(b, GetParam());
  pmclog::Error err;
  read_all(rd, &err);
  EXPECT_EQ(err.missing, 4u);
}

INSTANTIATE_TEST_SUITE_P(AllAbis, BadInputAllAbis, ::testing::ValuesIn(fixture_abis()),
                         [](const auto& info) {
                           std::string s = fixture_stem(info.param);
                           for (char& c : s) if (c == '-') c = '_';
                           return s;
                         });

// A modern INITIALIZE of the other time_t's size does not fit the ABI (format.md §8.1): 104 bytes where
// the LP64 ABI says 112 is below its size; 120 is not its size.
TEST(BadInputModern, InitializeOfTheWrongSize) {
  const auto orig = slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog");
  for (uint8_t len : {104, 120}) {
    auto b = orig;
    b[0] = len;
    auto rd = pmclog::LogReader::over(b, Abi::make(Generation::M9, 8, pmclog::ByteOrder::little));
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(rd.next(r, e), pmclog::Step::error);
    EXPECT_EQ(e.code, len < 112 ? Errc::length_below_minimum : Errc::length_wrong_size) << e.message;
    EXPECT_EQ(e.offset, 0u);
    EXPECT_NE(e.message.find(std::to_string(len)), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("112"), std::string::npos) << e.message;
  }
}

}  // namespace
