// Bad input, one test per class of bad input, on crafted bytes: the Errc, the offset in
// the Error, that the message names the value and the bound, that the records before the
// damage come back intact, and that the streaming reader reports the same error.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "format_rules.h"
#include "pmclog/encode.h"
#include "listing.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::ByteOrder;
using pmclog::Errc;

namespace {

const Abi kSeedAbi = Abi::make(Generation::L3, 8, ByteOrder::little);
const Abi kModernAbi = Abi::make(Generation::M9, 8, ByteOrder::little);

std::vector<uint8_t> seed() { return slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog"); }
std::vector<uint8_t> modern() { return slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog"); }

// `tok` appears in the message as a whole token (case-insensitive, not inside a longer
// number or word). No regular expressions: g++-12 warns inside <regex> under the sanitizers.
bool has_token(const std::string& msg, const std::string& tok) {
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string m = lower(msg), t = lower(tok);
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = m.find(t); at != std::string::npos; at = m.find(t, at + 1)) {
    const bool left = at == 0 || !alnum(m[at - 1]);
    const bool right = at + t.size() == m.size() || !alnum(m[at + t.size()]);
    if (left && right) return true;
  }
  return false;
}

// Each group lists alternatives: the message must hold one token of every group.
using Tokens = std::vector<std::vector<std::string>>;

// Little-endian 16-bit length of the LE header at `off`.
void set_len_le(std::vector<uint8_t>& b, size_t off, uint16_t len) {
  b[off] = static_cast<uint8_t>(len & 0xFF);
  b[off + 1] = static_cast<uint8_t>(len >> 8);
}

struct Outcome {
  std::vector<Owned> good;
  pmclog::Error err;
};

Outcome run(const std::vector<uint8_t>& bytes, const Abi& abi, size_t stream_chunk) {
  Outcome o;
  if (stream_chunk == 0) {
    auto rd = pmclog::LogReader::over(bytes, abi);
    o.good = read_all(rd, &o.err);
  } else {
    auto rd = pmclog::LogReader::stream(pmclog::span_source(bytes, stream_chunk), abi);
    o.good = read_all(rd, &o.err);
  }
  return o;
}

// Both readers stop at the same error, after `good` intact records (their bytes unchanged
// from `original`), and the message names the offset and every number in `names`.
void expect_error(const std::vector<uint8_t>& bytes, const std::vector<uint8_t>& original,
                  const Abi& abi, size_t good, Errc code, uint64_t offset,
                  Tokens names, std::optional<uint64_t> missing = {}) {
  for (size_t chunk : {size_t{0}, size_t{7}, size_t{4096}}) {
    SCOPED_TRACE(chunk ? "stream reader, chunk " + std::to_string(chunk) : std::string("span reader"));
    const Outcome o = run(bytes, abi, chunk);
    EXPECT_EQ(o.good.size(), good);
    for (const Owned& r : o.good) {
      ASSERT_LE(r.offset + r.raw.size(), original.size());
      EXPECT_TRUE(std::equal(r.raw.begin(), r.raw.end(), original.begin() + static_cast<long>(r.offset)))
          << "record at " << r.offset << " changed";
    }
    EXPECT_EQ(o.err.code, code) << pmclog::errc_id(o.err.code) << ": " << o.err.message;
    EXPECT_EQ(o.err.offset, offset) << o.err.message;
    EXPECT_TRUE(has_token(o.err.message, std::to_string(offset))) << o.err.message;
    for (const auto& group : names) {
      bool any = false;
      for (const auto& t : group) any |= has_token(o.err.message, t);
      EXPECT_TRUE(any) << "message lacks " << group.front() << ": " << o.err.message;
    }
    if (missing) {
      EXPECT_EQ(o.err.missing, *missing) << o.err.message;
    }
  }
}

// A tiny word writer for hand-made logs (file byte order, EMIT64 low word first).
struct Words {
  ByteOrder order;
  std::vector<uint8_t> b;
  Words& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      const int shift = order == ByteOrder::little ? 8 * i : 24 - 8 * i;
      b.push_back(static_cast<uint8_t>(v >> shift));
    }
    return *this;
  }
  Words& u64w(uint64_t v) { return u32(static_cast<uint32_t>(v)).u32(static_cast<uint32_t>(v >> 32)); }
};

// Seed listing: rec=14 PMCALLOCATE at 4784 (24 bytes) follows 14 good records.
constexpr size_t kAlloc = 4784;

TEST(BadInput, BadMagic) {
  const auto orig = seed();
  auto b = orig;
  b[kAlloc + 3] = 0xED;
  expect_error(b, orig, kSeedAbi, 14, Errc::bad_magic, kAlloc, {{"0xed", "237"}, {"0xee", "238"}});
}

TEST(BadInput, BadMagicBigEndianFirstRecord) {
  // The first record itself: nothing good before it.
  Words w{ByteOrder::big, {}};
  w.u32(0xEF020014).u32(1).u32(2).u32(0x03010000).u32(0x91);
  expect_error(w.b, w.b, Abi::make(Generation::L3, 4, ByteOrder::big), 0, Errc::bad_magic, 0, {});
}

TEST(BadInput, LengthZero) {
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, kAlloc, 0);
  expect_error(b, orig, kSeedAbi, 14, Errc::length_below_header, kAlloc, {{"0"}, {"12", "24"}});
}

TEST(BadInput, LengthBelowHeader) {
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, kAlloc, 8);
  expect_error(b, orig, kSeedAbi, 14, Errc::length_below_header, kAlloc, {{"8"}, {"12", "24"}});
}

TEST(BadInput, LengthBelowModernHeader) {
  // Modern golden rec=5 DROPNOTIFY at 4416: length 12 is a legacy header, too short here.
  const auto orig = modern();
  auto b = orig;
  set_len_le(b, 4416, 12);
  expect_error(b, orig, kModernAbi, 5, Errc::length_below_header, 4416, {{"12"}, {"16"}});
}

TEST(BadInput, LengthNotMultipleOf4) {
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, kAlloc, 22);
  expect_error(b, orig, kSeedAbi, 14, Errc::length_not_multiple_of_4, kAlloc, {{"22"}, {"4"}});
}

TEST(BadInput, FixedRecordBelowItsSize) {
  // The plainest case: a PMCALLOCATE shorter than its 24 bytes.
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, kAlloc, 16);
  expect_error(b, orig, kSeedAbi, 14, Errc::length_below_minimum, kAlloc, {{"16"}, {"24"}, {"PMCALLOCATE"}});
}

TEST(BadInput, VariableRecordBelowItsFixedPart) {
  // Seed rec=6 MAP_IN at 464: LP64 fixed part is 24 bytes (28 with the NUL).
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, 464, 20);
  expect_error(b, orig, kSeedAbi, 6, Errc::length_below_minimum, 464, {{"20"}, {"24", "28"}, {"MAP_IN"}});
}

TEST(BadInput, FixedRecordWrongSize) {
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, kAlloc, 28);
  expect_error(b, orig, kSeedAbi, 14, Errc::length_wrong_size, kAlloc, {{"28"}, {"24"}, {"PMCALLOCATE"}});
}

TEST(BadInput, TruncatedTail) {
  // Seed rec=25 PROCEXEC at 5256, 60 bytes: keep 30 of them.
  const auto orig = seed();
  std::vector<uint8_t> b(orig.begin(), orig.begin() + 5256 + 30);
  expect_error(b, orig, kSeedAbi, 25, Errc::truncated, 5256, {{"60"}, {"30"}}, 30);
}

TEST(BadInput, TruncatedInsideTheHeader) {
  // Only 6 bytes of the 12-byte header: the length is known, 54 bytes are missing.
  const auto orig = seed();
  std::vector<uint8_t> b(orig.begin(), orig.begin() + 5256 + 6);
  expect_error(b, orig, kSeedAbi, 25, Errc::truncated, 5256, {{"60"}}, 54);
}

TEST(BadInput, UnknownTypeIsSkippable) {
  const auto orig = seed();
  auto b = orig;
  b[kAlloc + 2] = 18;  // THR_CREATE's number, undefined in L3
  expect_error(b, orig, kSeedAbi, 14, Errc::unknown_type, kAlloc, {{"18"}});

  auto rd = pmclog::LogReader::over(b, kSeedAbi);
  pmclog::Record r;
  pmclog::Error e;
  for (int i = 0; i < 14; ++i) ASSERT_EQ(rd.next(r, e), pmclog::Step::record);
  ASSERT_EQ(rd.next(r, e), pmclog::Step::error);
  EXPECT_EQ(r.header.type, 18);  // the header is filled for an unknown type
  EXPECT_EQ(r.header.length, 24);
  ASSERT_TRUE(rd.skip());
  EXPECT_EQ(rd.offset(), kAlloc + 24);
  ASSERT_EQ(rd.next(r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.offset, kAlloc + 24);
  EXPECT_EQ(r.kind, Kind::pmcallocate);
  int rest = 1;
  pmclog::Error e2;
  while (rd.next(r, e2) == pmclog::Step::record) ++rest;
  EXPECT_EQ(e2.code, Errc::none) << e2.message;
  EXPECT_EQ(rest, 31 - 15);  // records 15..30
}

TEST(BadInput, UnknownModernTypes0And4) {
  // Modern golden rec=5 DROPNOTIFY at 4416: types 0 and 4 do not exist in M (format.md §6).
  const auto orig = modern();
  for (uint8_t t : {0, 4}) {
    auto b = orig;
    b[4416 + 2] = t;
    expect_error(b, orig, kModernAbi, 5, Errc::unknown_type, 4416, {{std::to_string(t)}});
    auto st = pmclog::LogReader::stream(pmclog::span_source(b, 5), kModernAbi);
    pmclog::Record r;
    pmclog::Error e;
    for (int i = 0; i < 5; ++i) ASSERT_EQ(st.next(r, e), pmclog::Step::record);
    ASSERT_EQ(st.next(r, e), pmclog::Step::error);
    ASSERT_TRUE(st.skip());
    ASSERT_EQ(st.next(r, e), pmclog::Step::record) << e.message;
    EXPECT_EQ(r.offset, 4432u);
    EXPECT_EQ(r.kind, Kind::map_in);
  }
}

TEST(BadInput, PathWithoutTerminator) {
  // Seed rec=8 MAP_IN at 532, 28 bytes, path "/ab" + NUL in bytes 24..27: overwrite the NUL.
  const auto orig = seed();
  auto b = orig;
  ASSERT_EQ(b[532 + 27], 0);
  b[532 + 27] = 'c';
  expect_error(b, orig, kSeedAbi, 8, Errc::unterminated_string, 532, {});
}

TEST(BadInput, PathWithoutTerminatorModern) {
  // Modern golden rec=8 MAP_IN at 4516, 36 bytes, "/ab" + NUL at 32..35.
  const auto orig = modern();
  auto b = orig;
  ASSERT_EQ(b[4516 + 35], 0);
  b[4516 + 35] = 'c';
  expect_error(b, orig, kModernAbi, 8, Errc::unterminated_string, 4516, {});
}

// A log with INITIALIZE then one CALLCHAIN of n frames, written word by word.
std::vector<uint8_t> callchain_log(Generation g, uint8_t width, ByteOrder o, uint32_t n) {
  Words w{o, {}};
  const bool legacy = is_legacy(g);
  if (legacy) {
    w.u32(0xEE020014).u32(1700000000).u32(5).u32(0x03010000).u32(0x91);
    w.u32(0xEE100000 | (24 + n * width)).u32(1700000001).u32(6).u32(1234).u32(0x02000701).u32(0x00020000);
  } else {
    const uint32_t version = g == Generation::M10 ? 0x0A000000 : 0x09030000;
    w.u32(0xEE030070).u32(0).u64w(0).u32(version).u32(0x98).u64w(0).u64w(0).u64w(0);
    for (int i = 0; i < 16; ++i) w.u32(0);  // cpuid[64]
    // The header TSC is a native 64-bit value: low word first only on little-endian.
    w.u32(0xEE100000 | (32 + n * width)).u32(0).u32(0).u32(7).u32(1234).u32(100321).u32(0x00201701).u32(0x00020000);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (width == 8) w.u64w(0xffffffff80000000ull + i);
    else w.u32(0xc0000000u + i);
  }
  return w.b;
}

// The depth limit at exactly the limit and one above, in every generation with callchains,
// both widths and byte orders, for next() (span and stream), for_each's fast path and the
// encoder.
TEST(BadInput, CallchainTooDeep) {
  struct Case { Generation g; uint32_t limit; uint64_t off; };
  for (const Case& c : {Case{Generation::L2, 32, 20}, Case{Generation::L3, 128, 20},
                        Case{Generation::M9, 512, 112}, Case{Generation::M10, 512, 112}}) {
    for (uint8_t width : {4, 8}) {
      for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
        SCOPED_TRACE(std::string(pmclog::generation_name(c.g)) + " width " + std::to_string(width) +
                     (o == ByteOrder::big ? " big" : " little"));
        Abi abi = Abi::make(c.g, width, o);
        abi.time_width = 8;  // callchain_log writes the 112-byte INITIALIZE
        ASSERT_EQ(abi.callchain_depth_max(), c.limit);
        const auto ok = callchain_log(c.g, width, o, c.limit);
        for (size_t chunk : {size_t{0}, size_t{7}}) {
          const Outcome out = run(ok, abi, chunk);
          EXPECT_EQ(out.err.code, Errc::none) << "the limit itself is allowed: " << out.err.message;
          ASSERT_EQ(out.good.size(), 2u);
          EXPECT_EQ(out.good[1].value.pcs.size(), c.limit);
        }
        const auto bad = callchain_log(c.g, width, o, c.limit + 1);
        expect_error(bad, bad, abi, 1, Errc::callchain_too_deep, c.off,
                     {{std::to_string(c.limit + 1)}, {std::to_string(c.limit)}});

        for (const auto* bytes : {&ok, &bad}) {  // for_each's inline path draws the same line
          auto rd = pmclog::LogReader::over(*bytes, abi);
          pmclog::Error e;
          size_t frames = 0, n = 0;
          const auto st = rd.for_each([&](const pmclog::Record& r) { ++n; frames += r.pcs.size(); }, e);
          if (bytes == &ok) {
            EXPECT_EQ(st, pmclog::Step::end) << e.message;
            EXPECT_EQ(frames, c.limit);
          } else {
            EXPECT_EQ(st, pmclog::Step::error);
            EXPECT_EQ(e.code, Errc::callchain_too_deep) << e.message;
            EXPECT_EQ(n, 1u);
          }
        }

        pmclog::RecordValue v;
        v.kind = pmclog::Kind::callchain;
        v[pmclog::Field::pid] = 1234;
        v.pcs.assign(c.limit, width == 8 ? 0xffffffff80000000ull : 0xc0000000u);
        std::vector<uint8_t> enc;
        EXPECT_TRUE(pmclog::encode(v, abi, enc).ok());
        v.pcs.push_back(v.pcs.back());
        auto refused = pmclog::encode(v, abi, enc);
        ASSERT_FALSE(refused.ok());
        EXPECT_EQ(refused.error().code, Errc::callchain_too_deep);
      }
    }
  }
}

TEST(BadInput, CallchainPayloadNotWholeAddresses) {
  // Seed rec=1 CALLCHAIN at 20, 32 bytes with one 8-byte pc: 28 leaves 4 bytes.
  const auto orig = seed();
  auto b = orig;
  set_len_le(b, 20, 28);
  expect_error(b, orig, kSeedAbi, 1, Errc::callchain_misaligned, 20, {{"8"}});
}

// error.h: stable identifiers, e.g. "truncated", "bad-magic"; one per code.
TEST(BadInput, ErrcIdsAreStableAndDistinct) {
  EXPECT_EQ(pmclog::errc_id(Errc::truncated), "truncated");
  EXPECT_EQ(pmclog::errc_id(Errc::bad_magic), "bad-magic");
  std::set<std::string> seen;
  for (int c = 0; c <= static_cast<int>(Errc::io); ++c) {
    const std::string id(pmclog::errc_id(static_cast<Errc>(c)));
    EXPECT_FALSE(id.empty());
    EXPECT_TRUE(seen.insert(id).second) << id << " used twice";
  }
}

TEST(BadInput, ErrorsNeverThrowOnEmptyOrTinyInput) {
  const std::vector<uint8_t> empty;
  auto rd = pmclog::LogReader::over(empty, kSeedAbi);
  pmclog::Record r;
  pmclog::Error e;
  EXPECT_EQ(rd.next(r, e), pmclog::Step::end);
  const std::vector<uint8_t> two = {0x14, 0x00};
  auto rd2 = pmclog::LogReader::over(two, kSeedAbi);
  EXPECT_EQ(rd2.next(r, e), pmclog::Step::error);
  EXPECT_EQ(e.code, Errc::truncated);
  EXPECT_EQ(e.offset, 0u);
}

}  // namespace
