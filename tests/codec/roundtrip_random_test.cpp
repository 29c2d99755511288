// Randomized round trips (fixed seeds): for every record kind of every generation x width x
// byte order, random values within the fields' widths -> encode -> decode -> the same value;
// the encoded length is the one docs/format.md gives; the span reader and the streaming reader
// (chunks of 1, 7 and 4096 bytes) return identical records.
#include <gtest/gtest.h>

#include "random_records.h"
#include "pmclog/decode.h"
#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;

namespace {

class RoundTrip : public ::testing::TestWithParam<Abi> {};

TEST_P(RoundTrip, EveryKindRandomValues) {
  const Abi abi = GetParam();
  RandomRecords gen(abi, 0x5EED0000u + static_cast<uint64_t>(abi.generation) * 16 +
                             abi.address_width + 2 * static_cast<int>(abi.byte_order));
  const auto kinds = kinds_of(abi.generation);
  std::vector<pmclog::RecordValue> values;
  std::vector<uint8_t> log;
  for (Kind k : kinds) ASSERT_NE(pmclog::layout_for(abi, k), nullptr) << format_name(k);

  const int kPerKind = 150;  // about 2000-3000 records per ABI
  for (int i = 0; i < kPerKind * static_cast<int>(kinds.size()); ++i) {
    const Kind k = kinds[gen.rng()() % kinds.size()];
    auto v = gen.make(k);
    ASSERT_TRUE(v.has_value());
    const size_t before = log.size();
    auto len = pmclog::encode(*v, abi, log);
    ASSERT_TRUE(len.ok()) << format_name(k) << ": " << len.error().message;
    ASSERT_EQ(*len, kernel_length(abi, k, v->text.size(), v->pcs.size())) << format_name(k);
    ASSERT_EQ(log.size() - before, *len);

    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(pmclog::decode_record(abi, log.data() + before, *len, before, r, e), pmclog::Step::record)
        << format_name(k) << ": " << e.message;
    ASSERT_EQ(r.offset, before);
    ASSERT_EQ(r.kind, k);
    ASSERT_TRUE(pmclog::to_value(r, abi) == *v) << format_name(k) << " at " << before;
    if (k == Kind::callchain) {  // the fast frame loop reads the same addresses
      std::vector<uint64_t> fe, it(r.pcs.begin(), r.pcs.end());
      r.pcs.for_each([&](uint64_t pc) { fe.push_back(pc); });
      ASSERT_EQ(fe, v->pcs);
      ASSERT_EQ(it, v->pcs);
    }
    values.push_back(std::move(*v));
  }

  auto over = pmclog::LogReader::over(log, abi);
  pmclog::Error err;
  const auto want = read_all(over, &err);
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
  ASSERT_EQ(want.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_TRUE(want[i].value == values[i]) << "record " << i;

  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    auto st = pmclog::LogReader::stream(pmclog::span_source(log, chunk), abi, 128 * 1024);
    pmclog::Error serr;
    const auto got = read_all(st, &serr);
    EXPECT_EQ(serr.code, pmclog::Errc::none) << serr.message;
    ASSERT_EQ(got.size(), want.size()) << "chunk " << chunk;
    for (size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(got[i] == want[i]) << "chunk " << chunk << " record " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllAbis, RoundTrip, ::testing::ValuesIn(fixture_abis()),
                         [](const auto& info) {
                           std::string s = fixture_stem(info.param);
                           for (char& c : s) if (c == '-') c = '_';
                           return s;
                         });

// The i386 modern ABI (time_t 4, INITIALIZE 104) and a 64-bit big-endian M9 with its
// defaults are covered above; check the other time_t width for 32-bit little-endian too.
TEST(RoundTripExtra, ModernIlp32WithEightByteTimeT) {
  Abi abi = Abi::make(Generation::M9, 4, pmclog::ByteOrder::little);
  abi.time_width = 8;
  RandomRecords gen(abi, 77);
  for (int i = 0; i < 200; ++i) {
    auto v = gen.make(Kind::initialize);
    ASSERT_TRUE(v);
    std::vector<uint8_t> b;
    auto len = pmclog::encode(*v, abi, b);
    ASSERT_TRUE(len.ok()) << len.error().message;
    ASSERT_EQ(*len, 112);
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(pmclog::decode_record(abi, b.data(), b.size(), 0, r, e), pmclog::Step::record) << e.message;
    ASSERT_TRUE(pmclog::to_value(r, abi) == *v);
  }
}

}  // namespace
