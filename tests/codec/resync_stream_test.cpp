// Resynchronizing after damage: garbage inserted in the middle of a log is reported as an
// exact skipped byte range, and every record after it decodes; the streaming reader does
// the same at the same offsets.
#include <gtest/gtest.h>

#include "format_rules.h"
#include "listing.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::ByteOrder;
using pmclog::Errc;

namespace {

const Abi kSeedAbi = Abi::make(Generation::L3, 8, ByteOrder::little);
constexpr size_t kAt = 4784;        // seed rec=14, after 14 good records
constexpr size_t kSeedRecords = 31;

std::vector<uint8_t> with_garbage(size_t n) {
  auto b = slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog");
  std::vector<uint8_t> junk(n);
  for (size_t i = 0; i < n; ++i) junk[i] = static_cast<uint8_t>(0x5A + i % 7);  // no 0xEE
  b.insert(b.begin() + kAt, junk.begin(), junk.end());
  return b;
}

void check_resync(pmclog::LogReader rd, size_t garbage, size_t total_size) {
  pmclog::Record r;
  pmclog::Error e;
  size_t n = 0;
  while (rd.next(r, e) == pmclog::Step::record) ++n;
  EXPECT_EQ(n, 14u);
  ASSERT_EQ(e.code, Errc::bad_magic) << e.message;
  EXPECT_EQ(e.offset, kAt);
  EXPECT_EQ(rd.offset(), kAt) << "the reader stays at the bad record";

  const pmclog::SkippedRange skipped = rd.resync();
  EXPECT_EQ(skipped.from, kAt);
  EXPECT_EQ(skipped.to, kAt + garbage);
  EXPECT_EQ(rd.offset(), kAt + garbage);

  ASSERT_EQ(rd.next(r, e), pmclog::Step::record) << e.message;
  EXPECT_EQ(r.offset, kAt + garbage);
  EXPECT_EQ(r.kind, pmclog::Kind::pmcallocate);
  EXPECT_EQ(r[pmclog::Field::pmcid], 0x0a010001u);  // seed rec=14
  ++n;
  pmclog::Error e2;
  while (rd.next(r, e2) == pmclog::Step::record) ++n;
  EXPECT_EQ(e2.code, Errc::none) << e2.message;
  EXPECT_EQ(n, kSeedRecords);  // only the garbage is lost, no record
  EXPECT_EQ(rd.offset(), total_size);
}

TEST(Resync, AlignedGarbageSpanReader) {
  const auto b = with_garbage(40);
  check_resync(pmclog::LogReader::over(b, kSeedAbi), 40, b.size());
}

TEST(Resync, AlignedGarbageStreamReader) {
  const auto b = with_garbage(40);
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    SCOPED_TRACE(chunk);
    check_resync(pmclog::LogReader::stream(pmclog::span_source(b, chunk), kSeedAbi), 40, b.size());
  }
}

// Garbage of a length that is not a multiple of 4 shifts every later record off the 4-byte
// grid; a resync that scans byte by byte still finds the next header.
TEST(Resync, UnalignedGarbageSpanReader) {
  const auto b = with_garbage(7);
  check_resync(pmclog::LogReader::over(b, kSeedAbi), 7, b.size());
}

TEST(Resync, UnalignedGarbageStreamReader) {
  const auto b = with_garbage(7);
  check_resync(pmclog::LogReader::stream(pmclog::span_source(b, 7), kSeedAbi), 7, b.size());
}

// Garbage that holds a record which decodes on its own (an L3 CLOSELOG: a stray 0xEE and a
// sound length) but is followed by more garbage: resync must not stop there, since no
// plausible header follows it.
std::vector<uint8_t> with_decodable_garbage(size_t n) {
  auto b = with_garbage(n);
  const uint8_t fake[12] = {0x0C, 0x00, 0x00, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0};
  std::copy(std::begin(fake), std::end(fake), b.begin() + kAt + 8);
  return b;
}

TEST(Resync, DecodableRecordInsideGarbageIsSkipped) {
  const auto b = with_decodable_garbage(40);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(kSeedAbi, b.data() + kAt + 8, 12, kAt + 8, r, e),
            pmclog::Step::record)
      << "the planted record must decode by itself: " << e.message;
  check_resync(pmclog::LogReader::over(b, kSeedAbi), 40, b.size());
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    SCOPED_TRACE(chunk);
    check_resync(pmclog::LogReader::stream(pmclog::span_source(b, chunk), kSeedAbi), 40, b.size());
  }
}

TEST(Resync, GarbageAtTheEndSkipsToTheEnd) {
  auto b = slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog");
  const size_t good = b.size();
  b.insert(b.end(), 64, 0x00);
  auto rd = pmclog::LogReader::over(b, kSeedAbi);
  pmclog::Record r;
  pmclog::Error e;
  size_t n = 0;
  while (rd.next(r, e) == pmclog::Step::record) ++n;
  EXPECT_EQ(n, kSeedRecords);
  ASSERT_EQ(e.code, Errc::bad_magic) << e.message;
  EXPECT_EQ(e.offset, good);
  const auto skipped = rd.resync();
  EXPECT_EQ(skipped.from, good);
  EXPECT_EQ(skipped.to, b.size());
  EXPECT_EQ(rd.next(r, e), pmclog::Step::end);
}

// skip() refuses when the length cannot be trusted (length 0 would never advance).
TEST(Resync, SkipRefusesAnUntrustworthyLength) {
  auto b = slurp_bytes(fixtures_dir() + "/golden/seed-lp64-le.pmclog");
  b[kAt] = 0;
  b[kAt + 1] = 0;
  auto rd = pmclog::LogReader::over(b, kSeedAbi);
  pmclog::Record r;
  pmclog::Error e;
  while (rd.next(r, e) == pmclog::Step::record) {
  }
  ASSERT_EQ(e.code, Errc::length_below_header);
  EXPECT_FALSE(rd.skip());
  const auto skipped = rd.resync();
  EXPECT_EQ(skipped.from, kAt);
  EXPECT_EQ(skipped.to, kAt + 24);  // the next record (seed rec=15) is intact
}

// Iteration can stop and resume: reading in two halves gives the same records.
TEST(Resync, StopAndResume) {
  const auto b = slurp_bytes(fixtures_dir() + "/golden/modern-lp64-le.pmclog");
  const Abi abi = Abi::make(Generation::M9, 8, ByteOrder::little);
  auto all = pmclog::LogReader::over(b, abi);
  const auto want = read_all(all);
  auto st = pmclog::LogReader::stream(pmclog::span_source(b, 100), abi);
  std::vector<Owned> got;
  pmclog::Record r;
  pmclog::Error e;
  for (int i = 0; i < 10 && st.next(r, e) == pmclog::Step::record; ++i) got.push_back(own(r, abi));
  EXPECT_EQ(st.offset(), want[10].offset);
  auto rest = read_all(st);
  got.insert(got.end(), rest.begin(), rest.end());
  EXPECT_TRUE(got == want);
}

}  // namespace

namespace {

// The largest record the 16-bit length allows (65532 bytes, format.md §10), of a type L3
// lacks, streamed in 7-byte reads through the smallest buffer: reported, skipped, and the
// record after it decodes.
TEST(Stream, LargestRecordThroughTheSmallestBuffer) {
  const Abi abi = Abi::make(Generation::L3, 8, ByteOrder::little);
  std::vector<uint8_t> b = hex("14 00 02 EE  00 00 00 5A  67 45 23 01  00 00 01 03  91 00 00 00");
  const std::vector<uint8_t> big_header = hex("FC FF 1E EE  00 00 00 5A  67 45 23 01");
  b.insert(b.end(), big_header.begin(), big_header.end());
  for (size_t i = 12; i < 65532; ++i) b.push_back(static_cast<uint8_t>(i * 31));
  const std::vector<uint8_t> tail = hex("10 00 0C EE  00 00 00 5A  67 45 23 01  D2 04 00 00");
  b.insert(b.end(), tail.begin(), tail.end());

  for (int streaming = 0; streaming < 2; ++streaming) {
    SCOPED_TRACE(streaming ? "stream" : "span");
    pmclog::LogReader rd = streaming ? pmclog::LogReader::stream(pmclog::span_source(b, 7), abi, 128 * 1024)
                                     : pmclog::LogReader::over(b, abi);
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(rd.next(r, e), pmclog::Step::record) << e.message;
    ASSERT_EQ(rd.next(r, e), pmclog::Step::error);
    EXPECT_EQ(e.code, Errc::unknown_type);
    EXPECT_EQ(e.offset, 20u);
    EXPECT_EQ(r.header.length, 65532);
    ASSERT_TRUE(rd.skip());
    pmclog::Error e2;
    ASSERT_EQ(rd.next(r, e2), pmclog::Step::record) << e2.message;
    EXPECT_EQ(r.offset, 20u + 65532u);
    EXPECT_EQ(r.kind, pmclog::Kind::sysexit);
    EXPECT_EQ(r[pmclog::Field::pid], 1234u);
    EXPECT_EQ(rd.next(r, e2), pmclog::Step::end);
    if (streaming) {
      EXPECT_LE(rd.buffer_capacity(), 128u * 1024u);
    }
  }
}

// What the tools do with a pipe: peek at the first bytes, detect the ABI, set it, read.
TEST(Stream, PeekDetectThenRead) {
  const auto b = slurp_bytes(fixtures_dir() + "/M10-32-be.pmclog");
  auto rd = pmclog::LogReader::stream(pmclog::span_source(b, 5), Abi::make(Generation::L3, 8, ByteOrder::little));
  const auto head = rd.peek(1u << 16);
  ASSERT_EQ(head.size(), b.size());  // the whole small log fits in the peek
  EXPECT_TRUE(std::equal(head.begin(), head.end(), b.begin()));
  auto det = pmclog::detect_abi(head);
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi.generation, Generation::M10);
  rd.set_abi(det->abi);
  EXPECT_EQ(rd.offset(), 0u);
  pmclog::Error err;
  const auto got = read_all(rd, &err);
  EXPECT_EQ(err.code, Errc::none) << err.message;
  auto over = pmclog::LogReader::over(b, det->abi);
  EXPECT_TRUE(got == read_all(over));
  EXPECT_EQ(got.size(), 22u);  // fixtures/M10-32-be.expected.txt
}

}  // namespace

namespace {

// Garbage longer than the stream buffer: the scan crosses many refills, and the range it
// reports is still exact.
TEST(Resync, GarbageLongerThanTheStreamBuffer) {
  const size_t n = 300000;
  const auto b = with_garbage(n);
  auto rd = pmclog::LogReader::stream(pmclog::span_source(b, 4096), kSeedAbi, 128 * 1024);
  check_resync(std::move(rd), n, b.size());
  auto rd2 = pmclog::LogReader::stream(pmclog::span_source(b, 4096), kSeedAbi, 128 * 1024);
  pmclog::Record r;
  pmclog::Error e;
  while (rd2.next(r, e) == pmclog::Step::record) {
  }
  rd2.resync();
  EXPECT_LE(rd2.buffer_capacity(), 128u * 1024u);
}

}  // namespace
