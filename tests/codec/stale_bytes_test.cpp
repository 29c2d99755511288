// Bytes the kernel never writes (format.md §5): the padding after a path's NUL, the modern
// header's spare word, and the pad word of modern SYSEXIT, USERDATA and THR_EXIT. In real
// logs they hold stale buffer contents. The decoder must ignore them, the encoder writes
// zeros there, and unwritten_bytes() + apply_patches() restore them exactly.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::ByteOrder;

namespace {

// Offset of the path in a record of type `type` (format.md §7, §8), or 0 when it has none.
size_t path_offset(const Abi& abi, int type) {
  const size_t A = abi.address_width;
  if (abi.legacy()) {
    if (type == 6) return 20;       // PMCATTACH
    if (type == 9) return 20 + A;   // PROCEXEC
    if (type == 14) return 16 + A;  // MAP_IN
    return 0;
  }
  if (type == 6) return 24;
  if (type == 9) return 24 + (abi.generation == Generation::M10 ? 2 * A : A);
  if (type == 14) return 24 + A;
  return 0;
}

// Marks every stale byte of a little-endian log, walking it by the header lengths.
std::vector<bool> stale_map(const std::vector<uint8_t>& b, const Abi& abi) {
  std::vector<bool> stale(b.size(), false);
  for (size_t off = 0; off + 4 <= b.size();) {
    const size_t len = b[off] | b[off + 1] << 8;
    const int type = b[off + 2];
    if (len == 0 || off + len > b.size()) break;
    if (!abi.legacy()) {
      for (size_t i = 4; i < 8; ++i) stale[off + i] = true;  // pl_spare
      if (type == 12 || type == 13 || type == 19)
        for (size_t i = 20; i < 24; ++i) stale[off + i] = true;
    }
    if (const size_t p = path_offset(abi, type)) {
      size_t nul = off + p;
      while (nul < off + len && b[nul] != 0) ++nul;
      for (size_t i = nul + 1; i < off + len; ++i) stale[i] = true;
    }
    off += len;
  }
  return stale;
}

void check(const std::string& file, const Abi& abi, size_t min_stale) {
  const auto clean = slurp_bytes(fixtures_dir() + "/" + file);
  ASSERT_FALSE(clean.empty());
  const auto stale = stale_map(clean, abi);
  size_t nstale = 0;
  auto dirty = clean;
  for (size_t i = 0; i < dirty.size(); ++i)
    if (stale[i]) dirty[i] = static_cast<uint8_t>(0xA5 ^ i), ++nstale;
  ASSERT_GE(nstale, min_stale);

  auto rc = pmclog::LogReader::over(clean, abi);
  auto rd = pmclog::LogReader::over(dirty, abi);
  const auto want = read_all(rc);
  pmclog::Error err;
  const auto got = read_all(rd, &err);
  EXPECT_EQ(err.code, pmclog::Errc::none) << err.message;
  ASSERT_EQ(got.size(), want.size());
  std::vector<uint8_t> reenc, patched_all;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i].value == want[i].value) << "stale bytes changed the value of the record at "
                                                << got[i].offset;
    std::vector<uint8_t> enc;
    ASSERT_TRUE(pmclog::encode(got[i].value, abi, enc).ok());
    reenc.insert(reenc.end(), enc.begin(), enc.end());
  }
  // The encoder writes zeros at exactly the stale bytes, so it gives the clean log back.
  EXPECT_EQ(reenc, clean);

  // unwritten_bytes() + apply_patches() restore the stale bytes.
  pmclog::Record r;
  pmclog::Error e;
  auto rd2 = pmclog::LogReader::over(dirty, abi);
  while (rd2.next(r, e) == pmclog::Step::record) {
    std::vector<uint8_t> enc;
    ASSERT_TRUE(pmclog::encode(pmclog::to_value(r, abi), abi, enc).ok());
    const auto patches = pmclog::unwritten_bytes(r, abi);
    for (const auto& [at, bytes] : patches) {
      for (size_t k = 0; k < bytes.size(); ++k)
        EXPECT_TRUE(stale[r.offset + at + k] || bytes[k] == enc[at + k])
            << "patch at a written byte, record " << r.offset << " +" << at + k;
    }
    ASSERT_TRUE(pmclog::apply_patches(enc, patches));
    patched_all.insert(patched_all.end(), enc.begin(), enc.end());
  }
  EXPECT_EQ(patched_all, dirty);
}

TEST(StaleBytes, LegacyGoldenPathPadding) {
  check("golden/seed-lp64-le.pmclog", Abi::make(Generation::L3, 8, ByteOrder::little), 10);
}

TEST(StaleBytes, ModernGoldenSpareAndPadWords) {
  check("golden/modern-lp64-le.pmclog", Abi::make(Generation::M9, 8, ByteOrder::little), 30 * 4);
}

TEST(StaleBytes, ModernTwoAddressProcexecFixture) {
  check("M10-64-le.pmclog", Abi::make(Generation::M10, 8, ByteOrder::little), 20 * 4);
}

TEST(StaleBytes, I386Fixture) {
  check("M9-32-le.pmclog", Abi::make(Generation::M9, 4, ByteOrder::little), 20 * 4);
}

// The modern PMCALLOCATEDYN holds only 56 bytes of the name (format.md §11): a name that long has no
// NUL inside the record; it decodes to those 56 bytes and re-encodes to the same record.
TEST(StaleBytes, ModernAllocateDynFullName) {
  const Abi abi = Abi::make(Generation::M9, 8, ByteOrder::little);
  std::vector<uint8_t> b = hex("60 00 11 EE  00 00 00 00  01 00 00 00 00 00 00 00  "
                               "05 0F F0 FF  05 00 02 00  80 00 02 00  00 00 00 00  "
                               "00 00 01 00 00 00 00 00");
  const std::string name = "SOFT-EVENT-NAME-FIFTY-SIX-CHARACTERS-LONG-ABCDEFGHIJKLMN";
  ASSERT_EQ(name.size(), 56u);
  b.insert(b.end(), name.begin(), name.end());
  ASSERT_EQ(b.size(), 96u);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(abi, b.data(), b.size(), 0, r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.text, name);
  EXPECT_EQ(r[pmclog::Field::rate], 0x10000u);
  std::vector<uint8_t> enc;
  ASSERT_TRUE(pmclog::encode(pmclog::to_value(r, abi), abi, enc).ok());
  EXPECT_EQ(enc, b);
}

}  // namespace
