// The JSON Lines form is lossless (json.h): append_json() of a decoded record, read back by
// parse_json_record(), encoded and patched, gives the record's exact bytes, stale bytes
// included. Checked on every committed fixture and golden log, and on golden logs whose
// stale bytes (format.md §5) were filled with junk.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "test_util.h"

using namespace codec_test;

namespace {

void check_lossless(const std::vector<uint8_t>& bytes, const Abi& abi) {
  auto rd = pmclog::LogReader::over(bytes, abi);
  pmclog::Record r;
  pmclog::Error e;
  int n = 0;
  while (rd.next(r, e) == pmclog::Step::record) {
    ++n;
    std::string line;
    pmclog::append_json(r, abi, line);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
    auto back = pmclog::parse_json_record(line, abi);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << line;
    // The same value; a length equal to the record's own may come back stated rather than
    // derived (0), which encodes the same.
    pmclog::RecordValue got = back->value, want = pmclog::to_value(r, abi);
    if (got.length == r.header.length && want.length == 0) got.length = 0;
    EXPECT_TRUE(got == want) << line << "\n kind " << (got.kind == want.kind) << " type " << (got.type == want.type)
                             << " length " << got.length << "/" << want.length << " ts " << (got.ts_sec == want.ts_sec)
                             << (got.ts_nsec == want.ts_nsec) << (got.tsc == want.tsc) << " v " << (got.v == want.v)
                             << " text " << (got.text == want.text) << " pcs " << (got.pcs == want.pcs)
                             << " payload " << (got.payload == want.payload);
    if (back->has_offset) {
      EXPECT_EQ(back->offset, r.offset);
    }
    std::vector<uint8_t> enc;
    auto len = pmclog::encode(back->value, abi, enc);
    ASSERT_TRUE(len.ok()) << len.error().message;
    ASSERT_TRUE(pmclog::apply_patches(enc, back->patches));
    EXPECT_EQ(to_hex(enc), to_hex(std::vector<uint8_t>(r.raw.begin(), r.raw.end()))) << line;
  }
  EXPECT_EQ(e.code, pmclog::Errc::none) << e.message;
  EXPECT_GT(n, 10);
}

TEST(JsonRoundTrip, EveryFixture) {
  for (const Abi& abi : all_abis()) {
    SCOPED_TRACE(fixture_stem(abi));
    check_lossless(slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog"), abi);
  }
}

TEST(JsonRoundTrip, GoldenLogsWithStaleBytes) {
  // Legacy: junk after the NUL of the seed's MAP_IN "/lib/libc.so.7" (rec=6 at 464, 40 bytes:
  // the NUL is byte 38, byte 39 is padding).
  auto seed = slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog");
  check_lossless(seed, Abi::make(Generation::L3, 8, pmclog::ByteOrder::little));
  ASSERT_EQ(seed[464 + 38], 0);
  seed[464 + 39] = 0xA5;
  check_lossless(seed, Abi::make(Generation::L3, 8, pmclog::ByteOrder::little));

  // Modern: junk in every spare word (bytes 4..7 of each record) and in USERDATA's pad.
  auto modern = slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog");
  const Abi m9 = Abi::make(Generation::M9, 8, pmclog::ByteOrder::little);
  check_lossless(modern, m9);
  for (size_t off = 0; off + 16 <= modern.size();) {
    const size_t len = modern[off] | modern[off + 1] << 8;
    for (size_t i = 4; i < 8; ++i) modern[off + i] = static_cast<uint8_t>(0xC0 + i);
    if (modern[off + 2] == 13) modern[off + 20] = 0x5A;  // USERDATA pad word (format.md §5)
    off += len;
  }
  check_lossless(modern, m9);
}

}  // namespace
