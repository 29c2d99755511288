// Hand-written expected bytes: a record value, and the bytes format.md §7/§8/§14 says the
// kernel writes for it, compared with the encoder's output and decoded back.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "pmclog/decode.h"
#include "pmclog/encode.h"
#include "test_util.h"

namespace codec_test {

using pmclog::Field;
using pmclog::RecordValue;

// Header times used by every hand-written record: legacy ts 0x5A000000 s / 0x01234567 ns
// (as in format.md §14), modern TSC 0x0000123456789ABC.
inline constexpr uint32_t kTsSec = 0x5A000000u, kTsNsec = 0x01234567u;
inline constexpr uint64_t kTsc = 0x0000123456789ABCull;
inline const char* const kLegacyTsLE = "00 00 00 5A  67 45 23 01";
inline const char* const kLegacyTsBE = "5A 00 00 00  01 23 45 67";
inline const char* const kModernTsLE = "00 00 00 00  BC 9A 78 56 34 12 00 00";  // spare, tsc
inline const char* const kModernTsBE = "00 00 00 00  00 00 12 34 56 78 9A BC";

inline RecordValue make(pmclog::Kind k, bool legacy,
                        std::initializer_list<std::pair<Field, uint64_t>> fields,
                        std::string text = {}, std::vector<uint64_t> pcs = {}) {
  RecordValue v;
  v.kind = k;
  if (legacy) v.ts_sec = kTsSec, v.ts_nsec = kTsNsec;
  else v.tsc = kTsc;
  for (auto& [f, x] : fields) v[f] = x;
  v.text = std::move(text);
  v.pcs = std::move(pcs);
  return v;
}

// The encoder must write exactly `hexstr`, and the decoder must read the value back from it.
inline void expect_bytes(const pmclog::Abi& abi, const RecordValue& v, const std::string& hexstr) {
  const std::vector<uint8_t> want = hex(hexstr);
  std::vector<uint8_t> got;
  auto len = pmclog::encode(v, abi, got);
  ASSERT_TRUE(len.ok()) << len.error().message;
  EXPECT_EQ(*len, want.size());
  EXPECT_EQ(to_hex(got), to_hex(want));
  auto elen = pmclog::encoded_length(v, abi);
  ASSERT_TRUE(elen.ok()) << elen.error().message;
  EXPECT_EQ(*elen, want.size());

  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(abi, want.data(), want.size(), 0, r, e), pmclog::Step::record)
      << e.message;
  EXPECT_EQ(r.kind, v.kind);
  EXPECT_EQ(r.header.length, want.size());
  EXPECT_TRUE(pmclog::to_value(r, abi) == v) << "decoding the hand-written bytes differs";
}

inline std::string zeros(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += " 00";
  return s;
}

}  // namespace codec_test
