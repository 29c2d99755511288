// The encoder refuses values that do not fit their fields (encode.h, error.h) and leaves the
// output untouched; explicit lengths and unknown-type records are written as asked.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "hand_bytes.h"

using namespace codec_test;
using pmclog::ByteOrder;
using pmclog::Errc;
using K = pmclog::Kind;

namespace {

const Abi kL3_32 = Abi::make(Generation::L3, 4, ByteOrder::little);
const Abi kL3_64 = Abi::make(Generation::L3, 8, ByteOrder::little);
const Abi kM9_64 = Abi::make(Generation::M9, 8, ByteOrder::little);

// Encoding fails with `code` and appends nothing.
void expect_refused(const Abi& abi, const RecordValue& v, std::optional<Errc> code,
                    const pmclog::EncodeOptions& opt = {}) {
  std::vector<uint8_t> out = {1, 2, 3};
  auto r = pmclog::encode(v, abi, out, opt);
  ASSERT_FALSE(r.ok());
  if (code) {
    EXPECT_EQ(r.error().code, *code) << r.error().message;
  }
  EXPECT_FALSE(r.error().message.empty());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_FALSE(pmclog::encoded_length(v, abi, opt).ok());
}

TEST(EncodeErrors, U32FieldAbove32Bits) {
  expect_refused(kL3_64, make(K::pmcdetach, true, {{Field::pmcid, 0x100000000ull}, {Field::pid, 1}}),
                 Errc::value_out_of_range);
}

TEST(EncodeErrors, AddressWiderThanTheAbi) {
  const auto v = make(K::map_out, true, {{Field::pid, 1}, {Field::start, 0x800a00000ull}, {Field::end, 0x800c00000ull}});
  expect_refused(kL3_32, v, Errc::value_out_of_range);
  std::vector<uint8_t> out;
  EXPECT_TRUE(pmclog::encode(v, kL3_64, out).ok());
  expect_refused(kL3_32, make(K::callchain, true, {{Field::pid, 1}}, "", {0x1000, 0x100000000ull}),
                 Errc::value_out_of_range);
}

TEST(EncodeErrors, FixedStringTooLong) {
  // THR_CREATE's tdname is char[20]: 20 bytes fill it (no NUL), 21 do not fit.
  const std::string twenty(20, 'n');
  auto v = make(K::thr_create, false, {{Field::tid, 1}, {Field::pid, 2}}, twenty);
  std::vector<uint8_t> out;
  auto len = pmclog::encode(v, kM9_64, out);
  ASSERT_TRUE(len.ok()) << len.error().message;
  EXPECT_EQ(*len, 52);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(kM9_64, out.data(), out.size(), 0, r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.text, twenty);
  v.text += 'n';
  expect_refused(kM9_64, v, Errc::string_too_long);
}

TEST(EncodeErrors, LegacyEvnameFillsItsField) {
  // L3 PMCALLOCATEDYN evname is char[64] at 24 (format.md §7): 64 characters leave no NUL.
  const std::string name(64, 'E');
  auto v = make(K::pmcallocatedyn, true, {{Field::pmcid, 1}, {Field::event, 2}, {Field::flags, 3}}, name);
  std::vector<uint8_t> out;
  auto len = pmclog::encode(v, kL3_64, out);
  ASSERT_TRUE(len.ok()) << len.error().message;
  ASSERT_EQ(*len, 88);
  EXPECT_EQ(std::string(out.begin() + 24, out.end()), name);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(kL3_64, out.data(), out.size(), 0, r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.text, name);
  v.text += 'E';
  expect_refused(kL3_64, v, Errc::string_too_long);
}

TEST(EncodeErrors, PathLongerThanPathMax) {
  // PATH_MAX is 1024 with the NUL (format.md §10): 1023 characters is the longest path.
  auto v = make(K::map_in, true, {{Field::pid, 1}, {Field::start, 0x1000}}, std::string(1023, 'p'));
  std::vector<uint8_t> out;
  auto len = pmclog::encode(v, kL3_64, out);
  ASSERT_TRUE(len.ok()) << len.error().message;
  EXPECT_EQ(*len, 24 + 1024);
  v.text += 'p';
  expect_refused(kL3_64, v, Errc::string_too_long);
  pmclog::EncodeOptions loose;
  loose.check_limits = false;
  out.clear();
  auto len2 = pmclog::encode(v, kL3_64, out, loose);
  ASSERT_TRUE(len2.ok()) << len2.error().message;
  EXPECT_EQ(*len2, 24 + 1028);
}

TEST(EncodeErrors, StringWithNulIsRefused) {
  expect_refused(kL3_64, make(K::pmcattach, true, {{Field::pmcid, 1}, {Field::pid, 2}}, std::string("/a\0b", 4)),
                 std::nullopt);
}

TEST(EncodeErrors, CallchainDeeperThanTheGeneration) {
  const Abi l2 = Abi::make(Generation::L2, 8, ByteOrder::little);
  auto v = make(K::callchain, true, {{Field::pid, 1}, {Field::pmcid, 2}}, "", std::vector<uint64_t>(33, 0x400000));
  expect_refused(l2, v, Errc::callchain_too_deep);
  // Tools that make damaged logs on purpose can turn the check off; the decoder then
  // reports the depth.
  pmclog::EncodeOptions loose;
  loose.check_limits = false;
  std::vector<uint8_t> out;
  auto len = pmclog::encode(v, l2, out, loose);
  ASSERT_TRUE(len.ok()) << len.error().message;
  EXPECT_EQ(*len, 24 + 33 * 8);
  pmclog::Record r;
  pmclog::Error e;
  EXPECT_EQ(pmclog::decode_record(l2, out.data(), out.size(), 0, r, e), pmclog::Step::error);
  EXPECT_EQ(e.code, Errc::callchain_too_deep);
}

TEST(EncodeErrors, KindTheGenerationLacks) {
  expect_refused(kL3_64, make(K::thr_exit, true, {{Field::tid, 1}}), std::nullopt);
  expect_refused(Abi::make(Generation::L2, 8, ByteOrder::little),
                 make(K::pmcallocatedyn, true, {{Field::pmcid, 1}}, "X"), std::nullopt);
  expect_refused(Abi::make(Generation::L1, 8, ByteOrder::little),
                 make(K::callchain, true, {{Field::pid, 1}}, "", {1}), std::nullopt);
  expect_refused(kM9_64, make(K::pcsample, false, {{Field::pid, 1}}), std::nullopt);
}

TEST(EncodeErrors, ExplicitLengthIsKeptAndRoundTrips) {
  // A PMCATTACH one word longer than the kernel's 36 bytes: the length is kept by to_value()
  // because it differs from the kernel's, and re-encoding gives the same 40 bytes.
  auto v = make(K::pmcattach, true, {{Field::pmcid, 0xff020700}, {Field::pid, 1234}}, "/usr/bin/yes");
  v.length = 40;
  std::vector<uint8_t> out;
  auto len = pmclog::encode(v, kL3_64, out);
  ASSERT_TRUE(len.ok()) << len.error().message;
  EXPECT_EQ(to_hex(out), to_hex(hex(std::string("28 00 06 EE ") + kLegacyTsLE +
                                    " 00 07 02 FF  D2 04 00 00  2F 75 73 72 2F 62 69 6E 2F 79 65 73 00 00 00 00"
                                    "  00 00 00 00")));
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(kL3_64, out.data(), out.size(), 0, r, e), pmclog::Step::record) << e.message;
  const auto back = pmclog::to_value(r, kL3_64);
  EXPECT_EQ(back.length, 40);
  EXPECT_TRUE(back == v);
  // The kernel's own length is not stored: to_value() leaves 0 ("derive").
  v.length = 0;
  out.clear();
  ASSERT_TRUE(pmclog::encode(v, kL3_64, out).ok());
  ASSERT_EQ(pmclog::decode_record(kL3_64, out.data(), out.size(), 0, r, e), pmclog::Step::record);
  EXPECT_EQ(pmclog::to_value(r, kL3_64).length, 0);
  // A length too short for the contents is refused.
  v.length = 32;
  expect_refused(kL3_64, v, std::nullopt);
}

TEST(EncodeErrors, UnknownTypeRecordIsWrittenAndSkippable) {
  RecordValue u;
  u.kind = K::unknown;
  u.type = 30;
  u.ts_sec = kTsSec;
  u.ts_nsec = kTsNsec;
  u.payload = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<uint8_t> log;
  ASSERT_TRUE(pmclog::encode(u, kL3_64, log).ok());
  EXPECT_EQ(to_hex(log), to_hex(hex(std::string("14 00 1E EE ") + kLegacyTsLE + " 01 02 03 04 05 06 07 08")));
  ASSERT_TRUE(pmclog::encode(make(K::sysexit, true, {{Field::pid, 7}}), kL3_64, log).ok());
  auto rd = pmclog::LogReader::over(log, kL3_64);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(rd.next(r, e), pmclog::Step::error);
  EXPECT_EQ(e.code, Errc::unknown_type);
  EXPECT_EQ(r.kind, K::unknown);
  EXPECT_EQ(r.header.type, 30);
  // to_value() of the unknown record gives the value back (type and payload).
  EXPECT_TRUE(pmclog::to_value(r, kL3_64) == u);
  ASSERT_TRUE(rd.skip());
  ASSERT_EQ(rd.next(r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.kind, K::sysexit);
  EXPECT_EQ(r.offset, 20u);
}

// format.md §6 type numbers, checked against kind_of_type()/type_of_kind() for every type
// byte of every generation.
TEST(TypeNumbers, MatchFormatTable) {
  for (Generation g : {Generation::L1, Generation::L2, Generation::L3, Generation::M9, Generation::M10}) {
    SCOPED_TRACE(std::string(pmclog::generation_name(g)));
    for (int k = 0; k < pmclog::kKindCount; ++k) {
      const auto kind = static_cast<K>(k);
      if (kind == K::mappingchange) continue;  // see MappingchangeOnlyInL1
      const auto want = type_code(g, kind);
      const auto got = pmclog::type_of_kind(g, kind);
      EXPECT_EQ(got.has_value(), want.has_value()) << format_name(kind);
      if (got && want) {
        EXPECT_EQ(*got, *want) << format_name(kind);
        EXPECT_EQ(pmclog::kind_of_type(g, *got), kind) << format_name(kind);
      }
    }
    for (int t = 0; t < 256; ++t) {
      if (t == 3) continue;
      const auto kind = pmclog::kind_of_type(g, static_cast<uint8_t>(t));
      bool defined = false;
      for (int k = 0; k < pmclog::kKindCount; ++k)
        defined |= type_code(g, static_cast<K>(k)) == t;
      EXPECT_EQ(kind.has_value(), defined) << "type " << t;
    }
  }
}

// Type 3 is MAPPINGCHANGE only in L1: L2/L3 readers reject it and their pmclog.h no longer
// has the struct (format.md §6, §7);
// in M it is INITIALIZE.
TEST(TypeNumbers, MappingchangeOnlyInL1) {
  EXPECT_EQ(pmclog::kind_of_type(Generation::L1, 3), K::mappingchange);
  EXPECT_EQ(pmclog::kind_of_type(Generation::L2, 3), std::nullopt);
  EXPECT_EQ(pmclog::kind_of_type(Generation::L3, 3), std::nullopt);
  EXPECT_EQ(pmclog::kind_of_type(Generation::M9, 3), K::initialize);
}

}  // namespace
