// Multipart callchains (format.md §17, parts.h): hand-written bytes for 64-bit little- and
// big-endian and 32-bit little-endian producers, the parts read back from them, damage of
// one record only, unknown part types kept raw, and the JSON Lines round trip.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hand_bytes.h"
#include "pmclog/decode.h"
#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/parts.h"
#include "pmclog/reader.h"
#include "test_util.h"

namespace codec_test {
namespace {

using pmclog::Abi;
using pmclog::ByteOrder;
using pmclog::Generation;
using pmclog::Kind;
using pmclog::PartSpec;
using pmclog::PartType;

const Abi kLE64 = Abi::make(Generation::M10, 8, ByteOrder::little);
const Abi kBE64 = Abi::make(Generation::M10, 8, ByteOrder::big);
const Abi kLE32 = Abi::make(Generation::M10, 4, ByteOrder::little);

// The IBS op values of the 64-bit records: every byte distinct where it matters.
const uint64_t kOp[8] = {0x0000000100061000ull, 0xffffffff80b3c9f1ull, 0x1111111122222222ull,
                         0x3, 0x0000012c00000001ull, 0xfffff80012345678ull, 0x00000000abcdef00ull, 0};

std::vector<uint64_t> split_all(const Abi& abi, const uint64_t* v, size_t n) {
  const uint32_t per = pmclog::slots_per_u64(abi.address_width);
  std::vector<uint64_t> out(n * per);
  for (size_t k = 0; k < n; ++k) pmclog::split_u64(abi.byte_order, abi.address_width, v[k], &out[k * per]);
  return out;
}

RecordValue op_record(const Abi& abi, std::vector<uint64_t> frames) {
  std::vector<PartSpec> spec(2);
  spec[0].type = static_cast<uint8_t>(PartType::ibs_op);
  spec[0].slots = split_all(abi, kOp, 8);
  spec[1].type = static_cast<uint8_t>(PartType::callchain);
  spec[1].slots = std::move(frames);
  return make(Kind::callchain, false,
              {{Field::pid, 1234}, {Field::tid, 100001}, {Field::pmcid, 0x200},
               {Field::cpuflags, 0x00030002}},
              {}, pmclog::build_multipart(abi.byte_order, abi.address_width, spec));
}

pmclog::Record decode_one(const Abi& abi, const std::vector<uint8_t>& b) {
  pmclog::Record r;
  pmclog::Error e;
  EXPECT_EQ(pmclog::decode_record(abi, b.data(), b.size(), 0, r, e), pmclog::Step::record) << e.message;
  return r;
}

void expect_op_parts(const Abi& abi, const pmclog::Record& r, std::vector<uint64_t> frames) {
  ASSERT_TRUE(pmclog::is_multipart(r));
  const pmclog::Parts ps = pmclog::parts(r, abi);
  EXPECT_FALSE(ps.error()) << ps.error().message;
  ASSERT_EQ(ps.parts().size(), 2u);
  const auto& op = ps.parts()[0];
  EXPECT_EQ(op.kind(), PartType::ibs_op);
  const uint32_t per = pmclog::slots_per_u64(abi.address_width);
  EXPECT_EQ(op.len, 8 * per);
  EXPECT_EQ(op.first, per);
  ASSERT_EQ(ps.values(op), 8u);
  for (uint32_t k = 0; k < 8; ++k) EXPECT_EQ(ps.value(op, k), kOp[k]) << pmclog::kIbsOpFields[k];
  const auto* cc = ps.find(PartType::callchain);
  ASSERT_NE(cc, nullptr);
  ASSERT_EQ(cc->len, frames.size());
  for (uint32_t k = 0; k < cc->len; ++k) EXPECT_EQ(ps.slot(cc->first + k), frames[k]);
  EXPECT_EQ(ps.end(), r.pcs.size());
  EXPECT_FALSE(ps.nonzero_after_none());
}

// 64-bit little-endian: the header slot's bytes in the file are the struct's bytes.
TEST(Multipart, HandBytesLE64) {
  const std::vector<uint64_t> frames{0xffffffff80b3c9f1ull, 0xffffffff80b3e631ull};
  const RecordValue v = op_record(kLE64, frames);
  const std::string want =
      "78 00 10 EE  " + std::string(kModernTsLE) +
      " D2 04 00 00  A1 86 01 00  00 02 00 00  02 00 03 00"
      " 03 08 01 02 00 00 00 00"  // header: {IBS_OP, 8} {CALLCHAIN, 2} {NONE} {NONE}
      " 00 10 06 00 01 00 00 00  F1 C9 B3 80 FF FF FF FF  22 22 22 22 11 11 11 11"
      " 03 00 00 00 00 00 00 00  01 00 00 00 2C 01 00 00  78 56 34 12 00 F8 FF FF"
      " 00 EF CD AB 00 00 00 00  00 00 00 00 00 00 00 00"
      " F1 C9 B3 80 FF FF FF FF  31 E6 B3 80 FF FF FF FF";
  expect_bytes(kLE64, v, want);
  expect_op_parts(kLE64, decode_one(kLE64, hex(want)), frames);
}

// 64-bit big-endian: a slot is EMIT64 (low word first), so the header's 8 memory bytes
// 03 08 01 02 00 00 00 00 (a big-endian u64 0x0308010200000000) reach the file as the low
// word 00 00 00 00 and then the high word 03 08 01 02.
TEST(Multipart, HandBytesBE64) {
  const std::vector<uint64_t> frames{0xffffffff80b3c9f1ull, 0xffffffff80b3e631ull};
  const RecordValue v = op_record(kBE64, frames);
  const std::string want =
      "EE 10 00 78  " + std::string(kModernTsBE) +
      " 00 00 04 D2  00 01 86 A1  00 00 02 00  00 03 00 02"
      " 00 00 00 00 03 08 01 02"
      " 00 06 10 00 00 00 00 01  80 B3 C9 F1 FF FF FF FF  22 22 22 22 11 11 11 11"
      " 00 00 00 03 00 00 00 00  00 00 00 01 00 00 01 2C  12 34 56 78 FF FF F8 00"
      " AB CD EF 00 00 00 00 00  00 00 00 00 00 00 00 00"
      " 80 B3 C9 F1 FF FF FF FF  80 B3 E6 31 FF FF FF FF";
  expect_bytes(kBE64, v, want);
  const std::vector<uint8_t> bytes = hex(want);  // the record is a view into them
  const pmclog::Record r = decode_one(kBE64, bytes);
  expect_op_parts(kBE64, r, frames);
  const auto h = pmclog::parts(r, kBE64).header();
  EXPECT_EQ(h[0], 3);
  EXPECT_EQ(h[1], 8);
  EXPECT_EQ(h[2], 1);
  EXPECT_EQ(h[3], 2);
}

// 32-bit little-endian: the header takes two slots, and each 64-bit value two slots (its
// low half first); an IBS_FETCH part of 4 values is 8 slots long.
TEST(Multipart, HandBytesLE32TwoSlotValues) {
  const uint64_t fetch[4] = {0x0003012c0000ffffull, 0x21, 0x80b3c9f1, 0x0000000112345640ull};
  std::vector<PartSpec> spec(2);
  spec[0].type = static_cast<uint8_t>(PartType::ibs_fetch);
  spec[0].slots = split_all(kLE32, fetch, 4);
  spec[1].type = static_cast<uint8_t>(PartType::callchain);
  spec[1].slots = {0x80b3c9f1};
  const RecordValue v = make(Kind::callchain, false,
                             {{Field::pid, 1234}, {Field::tid, 100001}, {Field::pmcid, 0x200},
                              {Field::cpuflags, 0x00000003}},
                             {}, pmclog::build_multipart(ByteOrder::little, 4, spec));
  const std::string want =
      "4C 00 10 EE  " + std::string(kModernTsLE) +
      " D2 04 00 00  A1 86 01 00  00 02 00 00  03 00 00 00"
      " 02 08 01 01  00 00 00 00"  // header over two slots
      " FF FF 00 00  2C 01 03 00   21 00 00 00  00 00 00 00"
      " F1 C9 B3 80  00 00 00 00   40 56 34 12  01 00 00 00"
      " F1 C9 B3 80";
  expect_bytes(kLE32, v, want);
  const std::vector<uint8_t> bytes = hex(want);  // the record is a view into them
  const pmclog::Record r = decode_one(kLE32, bytes);
  const pmclog::Parts ps = pmclog::parts(r, kLE32);
  EXPECT_FALSE(ps.error());
  EXPECT_EQ(ps.header_slots(), 2u);
  ASSERT_EQ(ps.parts().size(), 2u);
  const auto& f = ps.parts()[0];
  EXPECT_EQ(f.kind(), PartType::ibs_fetch);
  EXPECT_EQ(f.len, 8);
  ASSERT_EQ(ps.values(f), 4u);
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(ps.value(f, k), fetch[k]) << pmclog::kIbsFetchFields[k];
  EXPECT_EQ(ps.parts()[1].first, 10u);
  EXPECT_EQ(ps.slot(10), 0x80b3c9f1u);
  EXPECT_EQ(ps.slot_label(0), "part header ibs_fetch/8 callchain/1");
  EXPECT_EQ(ps.slot_label(2), "ibs_fetch ctl (low half)");
  EXPECT_EQ(ps.slot_label(3), "ibs_fetch ctl (high half)");
  EXPECT_EQ(ps.slot_label(10), "callchain part, frame 0");
}

// The conversions on their own, for the byte orders and widths they serve.
TEST(Multipart, HeaderAndValueConversions) {
  const std::array<uint8_t, 8> h{3, 8, 1, 2, 0, 0, 0, 0};
  uint64_t s[2] = {};
  pmclog::header_slots(ByteOrder::little, 8, h, s);
  EXPECT_EQ(s[0], 0x0000000002010803ull);
  pmclog::header_slots(ByteOrder::big, 8, h, s);
  EXPECT_EQ(s[0], 0x0308010200000000ull);
  pmclog::header_slots(ByteOrder::big, 4, h, s);
  EXPECT_EQ(s[0], 0x03080102u);
  EXPECT_EQ(s[1], 0u);
  EXPECT_EQ(pmclog::header_bytes(ByteOrder::big, 4, s), h);
  pmclog::split_u64(ByteOrder::big, 4, 0x1122334455667788ull, s);
  EXPECT_EQ(s[0], 0x11223344u);  // big-endian 32-bit: a native u64 puts the high half first
  EXPECT_EQ(s[1], 0x55667788u);
  EXPECT_EQ(pmclog::join_u64(ByteOrder::big, 4, s), 0x1122334455667788ull);
  pmclog::split_u64(ByteOrder::little, 4, 0x1122334455667788ull, s);
  EXPECT_EQ(s[0], 0x55667788u);
  EXPECT_EQ(pmclog::join_u64(ByteOrder::little, 4, s), 0x1122334455667788ull);
}

std::vector<uint8_t> encode_all(const Abi& abi, const std::vector<RecordValue>& rs) {
  std::vector<uint8_t> out;
  for (const auto& r : rs) {
    auto len = pmclog::encode(r, abi, out);
    EXPECT_TRUE(len.ok()) << len.error().message;
  }
  return out;
}

RecordValue raw_multipart(const Abi& abi, const std::array<uint8_t, 8>& h, std::vector<uint64_t> rest) {
  const uint32_t per = pmclog::slots_per_u64(abi.address_width);
  std::vector<uint64_t> pcs(per);
  pmclog::header_slots(abi.byte_order, abi.address_width, h, pcs.data());
  pcs.insert(pcs.end(), rest.begin(), rest.end());
  return make(Kind::callchain, false,
              {{Field::pid, 7}, {Field::tid, 8}, {Field::pmcid, 0x200}, {Field::cpuflags, 0x2}}, {},
              pcs);
}

// A part longer than its record: an error of that record (with its offset), the parts before
// it kept; the next record is read as usual.
TEST(Multipart, PartPastRecordIsThatRecordsError) {
  for (const Abi& abi : {kLE64, kBE64, kLE32}) {
    const RecordValue bad = raw_multipart(abi, {4, 2, 1, 9, 0, 0, 0, 0}, {10, 11, 12, 13, 14});
    const RecordValue good = op_record(abi, {0x1000, 0x2000});
    const std::vector<uint8_t> b = encode_all(abi, {good, bad, good});
    pmclog::LogReader rd = pmclog::LogReader::over(b, abi);
    std::vector<pmclog::Record> got;
    pmclog::Record r;
    pmclog::Error e;
    pmclog::Step st;
    while ((st = rd.next(r, e)) == pmclog::Step::record) got.push_back(r);
    ASSERT_EQ(st, pmclog::Step::end) << e.message;
    ASSERT_EQ(got.size(), 3u);
    const pmclog::Parts ps = pmclog::parts(got[1], abi);
    ASSERT_TRUE(ps.error());
    EXPECT_EQ(ps.error().code, pmclog::Errc::multipart_damaged);
    EXPECT_EQ(ps.error().offset, got[1].offset);
    EXPECT_NE(ps.error().message.find("record at offset " + std::to_string(got[1].offset)),
              std::string::npos)
        << ps.error().message;
    EXPECT_NE(ps.error().message.find("part 1 (callchain, 9 slots"), std::string::npos)
        << ps.error().message;
    ASSERT_EQ(ps.parts().size(), 1u);  // the LBR part before the damage
    EXPECT_EQ(ps.parts()[0].kind(), PartType::lbr);
    EXPECT_FALSE(pmclog::parts(got[2], abi).error());
    expect_op_parts(abi, got[2], {0x1000, 0x2000});
  }
}

TEST(Multipart, HeaderLargerThanRecord) {
  const RecordValue v = make(Kind::callchain, false, {{Field::cpuflags, 0x2}}, {}, {0x0103});
  const std::vector<uint8_t> b = encode_all(kLE32, {v});
  const pmclog::Parts ps = pmclog::parts(decode_one(kLE32, b), kLE32);
  ASSERT_TRUE(ps.error());
  EXPECT_NE(ps.error().message.find("needs 2 address slots, the record has 1"), std::string::npos)
      << ps.error().message;
  EXPECT_TRUE(ps.parts().empty());
}

TEST(Multipart, UnknownTypeKeptRawAndNonzeroAfterNone) {
  const RecordValue v = raw_multipart(kLE64, {9, 2, 1, 1, 0, 0, 5, 0}, {0xaaaa, 0xbbbb, 0xcccc});
  const std::vector<uint8_t> b = encode_all(kLE64, {v});
  const pmclog::Record r = decode_one(kLE64, b);
  const pmclog::Parts ps = pmclog::parts(r, kLE64);
  EXPECT_FALSE(ps.error());
  ASSERT_EQ(ps.parts().size(), 2u);
  EXPECT_FALSE(ps.parts()[0].known());
  EXPECT_EQ(ps.slot(ps.parts()[0].first), 0xaaaau);
  EXPECT_EQ(ps.slot(ps.parts()[0].first + 1), 0xbbbbu);
  EXPECT_TRUE(ps.nonzero_after_none());
  std::string j;
  pmclog::append_json(r, kLE64, j);
  EXPECT_NE(j.find("\"parts\":[{\"type\":9,\"len\":2,\"first\":1,\"slots\":[\"0xaaaa\",\"0xbbbb\"]},"
                   "{\"type\":\"callchain\",\"len\":1,\"first\":3}]"),
            std::string::npos)
      << j;
}

// JSON Lines: pcs carry the bytes; "parts" is derived, ignored on input (even when edited),
// and the encoder gives back the same bytes.
TEST(Multipart, JsonRoundTripByteExact) {
  for (const Abi& abi : {kLE64, kBE64, kLE32, Abi::make(Generation::M10, 4, ByteOrder::big)}) {
    const RecordValue bad = raw_multipart(abi, {2, 40, 0, 0, 0, 0, 0, 0}, {1, 2});
    const std::vector<uint8_t> b = encode_all(abi, {op_record(abi, {0x1000, 0x2000}), bad});
    pmclog::LogReader rd = pmclog::LogReader::over(b, abi);
    pmclog::Record r;
    pmclog::Error e;
    std::vector<uint8_t> back;
    while (rd.next(r, e) == pmclog::Step::record) {
      std::string line;
      pmclog::append_json(r, abi, line);
      EXPECT_NE(line.find("\"parts\":["), std::string::npos) << line;
      auto jr = pmclog::parse_json_record(line, abi);
      ASSERT_TRUE(jr.ok()) << jr.error().message << "\n" << line;
      auto len = pmclog::encode(jr->value, abi, back);
      ASSERT_TRUE(len.ok()) << len.error().message;
      // an edited "parts" changes nothing
      const size_t at = line.find("\"parts\":[");
      std::string edited = line.substr(0, at) + "\"parts\":[{\"type\":\"lbr\"}]}";
      auto je = pmclog::parse_json_record(edited, abi);
      ASSERT_TRUE(je.ok()) << je.error().message;
      EXPECT_EQ(je->value, jr->value);
    }
    EXPECT_EQ(to_hex(back), to_hex(b));
  }
}

}  // namespace
}  // namespace codec_test
