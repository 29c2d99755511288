// ABI detection (detect.h, format.md §2.2): what the bytes settle, what they cannot, and
// overrides for every part.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "hand_bytes.h"
#include "listing.h"
#include "pmclog/detect.h"

using namespace codec_test;
using pmclog::ByteOrder;
using K = pmclog::Kind;

namespace {

std::vector<uint8_t> log_of(const Abi& abi, const std::vector<RecordValue>& recs) {
  std::vector<uint8_t> out;
  for (const auto& r : recs) {
    auto len = pmclog::encode(r, abi, out);
    EXPECT_TRUE(len.ok()) << len.error().message;
  }
  return out;
}

TEST(Detect, NoWidthEvidenceIsSaidToBeAssumed) {
  // INITIALIZE, USERDATA, CLOSELOG: nothing in these depends on the address width.
  const Abi abi = Abi::make(Generation::L3, 4, ByteOrder::little);
  const auto b = log_of(abi, {make(K::initialize, true, {{Field::version, 0x03010000}, {Field::arch, 0x91}}),
                              make(K::userdata, true, {{Field::userdata, 1}}), make(K::closelog, true, {})});
  auto det = pmclog::detect_abi(b);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_TRUE(det->width_assumed);
  pmclog::AbiHint hint;
  hint.address_width = 4;
  auto det2 = pmclog::detect_abi(b, hint);
  ASSERT_TRUE(det2.ok());
  EXPECT_EQ(det2->abi.address_width, 4);
  EXPECT_FALSE(det2->width_assumed);
}

TEST(Detect, ModernI386InitializeLengthGivesTheWidth) {
  // A 104-byte modern INITIALIZE exists only on i386 (format.md §2.2, §8.1): 4-byte addresses, 4-byte time_t.
  const Abi abi = Abi::make(Generation::M9, 4, ByteOrder::little);
  const auto b = log_of(abi, {make(K::initialize, false, {{Field::version, 0x09030000}}, "GenuineIntel-6-55-4"),
                              make(K::closelog, false, {})});
  ASSERT_EQ(b.size(), 104u + 16u);
  auto det = pmclog::detect_abi(b);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi.generation, Generation::M9);
  EXPECT_EQ(det->abi.address_width, 4);
  EXPECT_EQ(det->abi.time_width, 4);
  EXPECT_FALSE(det->width_assumed);
}

TEST(Detect, ModernVersionChoosesM9OrM10) {
  // PMC_VERSION major 0x09 -> one-address PROCEXEC (M9), 0x0A and later -> M10 (format.md §2, §20).
  for (uint32_t version : {0x09030000u, 0x0A000000u, 0x0A030000u}) {
    const Generation want = version >> 24 >= 0x0A ? Generation::M10 : Generation::M9;
    const Abi abi = Abi::make(want, 8, ByteOrder::big);
    const auto b = log_of(abi, {make(K::initialize, false, {{Field::version, version}}, "POWER_004d"),
                                make(K::map_out, false, {{Field::pid, 1}, {Field::start, 0x1000}, {Field::end, 0x2000}}),
                                make(K::closelog, false, {})});
    auto det = pmclog::detect_abi(b);
    ASSERT_TRUE(det.ok()) << det.error().message;
    EXPECT_EQ(det->abi.generation, want) << std::hex << version;
    EXPECT_EQ(det->abi.byte_order, ByteOrder::big);
    EXPECT_EQ(det->abi.address_width, 8);
    pmclog::AbiHint hint;
    hint.modern = true;
    auto det2 = pmclog::detect_abi(b, hint);
    ASSERT_TRUE(det2.ok());
    EXPECT_EQ(det2->abi.generation, want);
  }
}

TEST(Detect, EveryPartCanBeOverridden) {
  const auto b = slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog");
  pmclog::AbiHint hint;
  hint.generation = Generation::L2;
  hint.address_width = 4;
  hint.byte_order = ByteOrder::big;
  auto det = pmclog::detect_abi(b, hint);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi.generation, Generation::L2);
  EXPECT_EQ(det->abi.address_width, 4);
  EXPECT_EQ(det->abi.byte_order, ByteOrder::big);
  EXPECT_GE(det->evidence.size(), 3u);

  const auto m = slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog");
  pmclog::AbiHint th;
  th.time_width = 4;
  th.generation = Generation::M10;
  auto dm = pmclog::detect_abi(m, th);
  ASSERT_TRUE(dm.ok()) << dm.error().message;
  EXPECT_EQ(dm->abi.time_width, 4);
  EXPECT_EQ(dm->abi.generation, Generation::M10);
}

// A broken header early in the log: the evidence after it still counts, found as the
// readers' resync finds the next record, whether the broken header's length holds or not.
TEST(Detect, EvidenceAfterABrokenHeaderCounts) {
  const Abi abi = Abi::make(Generation::L3, 4, ByteOrder::little);
  const auto b = log_of(
      abi, {make(K::initialize, true, {{Field::version, 0x03010000}, {Field::arch, 0x91}}),
            make(K::userdata, true, {{Field::userdata, 7}}),
            make(K::map_out, true, {{Field::pid, 1}, {Field::start, 0x1000}, {Field::end, 0x2000}}),
            make(K::closelog, true, {})});
  const size_t userdata = 20, map_out = 36;  // INITIALIZE is 20 bytes, USERDATA 16
  ASSERT_EQ(b[map_out + 2], 15);             // MAP_OUT's type, L3 numbering
  for (uint32_t word : {0x110D0010u, 0x12345678u}) {  // bad magic: length kept, length absurd
    auto damaged = b;
    for (int i = 0; i < 4; ++i) damaged[userdata + i] = static_cast<uint8_t>(word >> (8 * i));
    auto det = pmclog::detect_abi(damaged);
    ASSERT_TRUE(det.ok()) << det.error().message;
    EXPECT_EQ(det->abi.address_width, 4) << std::hex << word;
    EXPECT_FALSE(det->width_assumed) << std::hex << word;
    bool named = false;
    for (const auto& e : det->evidence) named |= e.find("offset 36") != std::string::npos;
    EXPECT_TRUE(named) << "the MAP_OUT at offset 36 is not the evidence";
  }
}

// A callchain with an odd number of 4-byte frames is weak evidence (a damaged callchain looks
// the same): it settles the width only when no record of fixed size or path layout speaks.
TEST(Detect, OddCallchainsCountOnlyWhenNothingElseSpeaks) {
  const Abi a4 = Abi::make(Generation::L3, 4, ByteOrder::little);
  const Abi a8 = Abi::make(Generation::L3, 8, ByteOrder::little);
  const auto init = make(K::initialize, true, {{Field::version, 0x03010000}, {Field::arch, 0x91}});
  const auto odd = make(K::callchain, true, {{Field::pid, 1}, {Field::pmcid, 2}}, "",
                        {0x1000, 0x2000, 0x3000});
  const auto map_out = make(K::map_out, true, {{Field::pid, 1}, {Field::start, 0x1000},
                                               {Field::end, 0x2000}});
  auto b = log_of(a4, {init, odd, odd});
  auto det = pmclog::detect_abi(b);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi.address_width, 4);
  EXPECT_FALSE(det->width_assumed);
  // An 8-byte MAP_OUT among them, before and after: it decides, however many odd ones.
  for (const bool first : {true, false}) {
    std::vector<RecordValue> odds(5, odd);
    b = log_of(a4, {init});
    for (const auto& part : first ? std::vector{log_of(a8, {map_out}), log_of(a4, odds)}
                                  : std::vector{log_of(a4, odds), log_of(a8, {map_out})})
      b.insert(b.end(), part.begin(), part.end());
    det = pmclog::detect_abi(b);
    ASSERT_TRUE(det.ok()) << det.error().message;
    EXPECT_EQ(det->abi.address_width, 8) << first;
  }
}

TEST(Detect, NoMagicInTheFirstHeaderFails) {
  const std::vector<uint8_t> b = hex("14 00 02 00  00 00 00 5A  67 45 23 01  00 00 01 03  91 00 00 00");
  auto det = pmclog::detect_abi(b);
  ASSERT_FALSE(det.ok());
  EXPECT_EQ(det.error().code, pmclog::Errc::bad_abi);
  EXPECT_FALSE(det.error().message.empty());
}

TEST(Detect, LegacySubGenerations) {
  // format.md §2.2: INITIALIZE major 1 or a PCSAMPLE means L1; PMCALLOCATEDYN means L3.
  for (const Abi& abi : all_abis()) {
    if (!abi.legacy()) continue;
    const auto b = slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog");
    auto det = pmclog::detect_abi(b);
    ASSERT_TRUE(det.ok());
    if (abi.generation != Generation::L2) {
      EXPECT_EQ(det->abi.generation, abi.generation) << fixture_stem(abi);
      EXPECT_FALSE(det->generation_assumed) << fixture_stem(abi);
    }
  }
}

}  // namespace
