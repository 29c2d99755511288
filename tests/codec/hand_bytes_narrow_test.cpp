// 4-byte addresses in 8-byte slots (powerpc64 before FreeBSD 13; format.md §19),
// big-endian, against bytes written out by hand: the kernel sizes each
// record with 8 bytes per address but stores the low 32 bits as one word, so the next field
// follows that word, and the record ends with 4 never-written bytes per address (a
// CALLCHAIN of n frames: n packed words, then n*4 such bytes). Stale bytes are 0x00 in the
// encoder's output and 0xA5 in the "as a kernel leaves them" variants.
#include "hand_bytes.h"

#include "pmclog/detect.h"
#include "pmclog/json.h"
#include "pmclog/reader.h"

using namespace codec_test;
using pmclog::Abi;
using pmclog::ByteOrder;
using K = pmclog::Kind;

namespace {

const Abi kL3n = Abi::make_narrow(pmclog::Generation::L3, ByteOrder::big);
const Abi kM9n = Abi::make_narrow(pmclog::Generation::M9, ByteOrder::big);

std::string l3(const char* head, const std::string& body) {
  return std::string(head) + " " + kLegacyTsBE + " " + body;
}
std::string m9(const char* head, const std::string& body) {
  return std::string(head) + " " + kModernTsBE + " " + body;
}
std::string stale(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += " A5";
  return s;
}

// The bytes as a kernel leaves them (stale tail): they decode to `v`, and re-encoding plus
// the unwritten-byte patches gives them back exactly, also through a JSON line.
void expect_stale_roundtrip(const Abi& abi, const RecordValue& v, const std::string& hexstr) {
  const std::vector<uint8_t> bytes = hex(hexstr);
  pmclog::Record r;
  pmclog::Error e;
  ASSERT_EQ(pmclog::decode_record(abi, bytes.data(), bytes.size(), 0, r, e), pmclog::Step::record)
      << e.message;
  EXPECT_TRUE(pmclog::to_value(r, abi) == v) << "the stale bytes changed a decoded value";
  std::vector<uint8_t> again;
  ASSERT_TRUE(pmclog::encode(pmclog::to_value(r, abi), abi, again).ok());
  ASSERT_TRUE(pmclog::apply_patches(again, pmclog::unwritten_bytes(r, abi)));
  EXPECT_EQ(to_hex(again), to_hex(bytes));

  std::string line;
  pmclog::append_json(r, abi, line);
  auto j = pmclog::parse_json_record(line, abi);
  ASSERT_TRUE(j.ok()) << j.error().message << "\n" << line;
  std::vector<uint8_t> from_json;
  ASSERT_TRUE(pmclog::encode(j->value, abi, from_json).ok());
  ASSERT_TRUE(pmclog::apply_patches(from_json, j->patches));
  EXPECT_EQ(to_hex(from_json), to_hex(bytes)) << line;
}

const std::string kLibc = "2F 6C 69 62 2F 6C 69 62 63 2E 73 6F 2E 37 00";  // "/lib/libc.so.7"
const std::string kLs = "2F 62 69 6E 2F 6C 73 00";                        // "/bin/ls"

TEST(HandBytesNarrow, AbiDescribesTheSlots) {
  EXPECT_TRUE(kL3n.narrow());
  EXPECT_EQ(kL3n.address_width, 4);
  EXPECT_EQ(kL3n.slot_width(), 8);
  EXPECT_EQ(pmclog::describe(kL3n), "L3, 32-bit addresses in 64-bit slots, big-endian");
  EXPECT_FALSE(Abi::make(pmclog::Generation::L3, 4, ByteOrder::big).narrow());
  EXPECT_FALSE(kL3n == Abi::make(pmclog::Generation::L3, 4, ByteOrder::big));
}

// Legacy MAP_IN: offsetof(path) is 12 + 4 + 8 = 24, so 24 + 15 = 39, rounded to 40; the path
// starts at 20, right after the 4-byte start, and 5 bytes follow its NUL.
TEST(HandBytesNarrow, L3MapIn) {
  const auto v = make(K::map_in, true, {{Field::pid, 1234}, {Field::start, 0x01800000}},
                      "/lib/libc.so.7");
  expect_bytes(kL3n, v, l3("EE 0E 00 28", "00 00 04 D2  01 80 00 00  " + kLibc + zeros(5)));
  expect_stale_roundtrip(kL3n, v, l3("EE 0E 00 28", "00 00 04 D2  01 80 00 00  " + kLibc + stale(5)));
}

// Legacy MAP_OUT: 16 + 2*8 = 32 bytes; start at 16, end at 20, bytes 24-31 unwritten.
TEST(HandBytesNarrow, L3MapOut) {
  const auto v = make(K::map_out, true,
                      {{Field::pid, 1234}, {Field::start, 0x01800000}, {Field::end, 0x01A00000}});
  expect_bytes(kL3n, v, l3("EE 0F 00 20", "00 00 04 D2  01 80 00 00  01 A0 00 00" + zeros(8)));
  expect_stale_roundtrip(kL3n, v, l3("EE 0F 00 20", "00 00 04 D2  01 80 00 00  01 A0 00 00" + stale(8)));
}

// Legacy PROCEXEC: 12 pid; 16 entry; 20 pmcid; 24 path; length 28 + 8 = 36.
TEST(HandBytesNarrow, L3Procexec) {
  const auto v = make(K::procexec, true,
                      {{Field::pid, 1234}, {Field::entryaddr, 0x01801140}, {Field::pmcid, 0xff020700}},
                      "/bin/ls");
  expect_bytes(kL3n, v, l3("EE 09 00 24", "00 00 04 D2  01 80 11 40  FF 02 07 00  " + kLs + zeros(4)));
  expect_stale_roundtrip(kL3n, v,
                         l3("EE 09 00 24", "00 00 04 D2  01 80 11 40  FF 02 07 00  " + kLs + stale(4)));
}

// Legacy CALLCHAIN of 3 frames: 24 + 3*8 = 48 bytes; the frames are packed at 24-35.
TEST(HandBytesNarrow, L3Callchain) {
  const auto v = make(K::callchain, true,
                      {{Field::pid, 1234}, {Field::pmcid, 0x02000701}, {Field::cpuflags, 0x00020000}},
                      "", {0xc0b3c9f1, 0x01801234, 0x01805678});
  const std::string body = "00 00 04 D2  02 00 07 01  00 02 00 00  C0 B3 C9 F1  01 80 12 34  01 80 56 78";
  expect_bytes(kL3n, v, l3("EE 10 00 30", body + zeros(12)));
  expect_stale_roundtrip(kL3n, v, l3("EE 10 00 30", body + stale(12)));
}

// Modern MAP_IN: 16 pid; 20 pad; 24 start; path at 28; offsetof(path) 32, so 32 + 15 -> 48.
TEST(HandBytesNarrow, M9MapIn) {
  const auto v = make(K::map_in, false, {{Field::pid, 1234}, {Field::start, 0x01800000}},
                      "/lib/libc.so.7");
  expect_bytes(kM9n, v, m9("EE 0E 00 30", "00 00 04 D2  00 00 00 00  01 80 00 00  " + kLibc + zeros(5)));
  expect_stale_roundtrip(kM9n, v,
                         m9("EE 0E 00 30", "00 00 04 D2  00 00 00 00  01 80 00 00  " + kLibc + stale(5)));
}

TEST(HandBytesNarrow, M9MapOut) {
  const auto v = make(K::map_out, false,
                      {{Field::pid, 1234}, {Field::start, 0x01800000}, {Field::end, 0x01A00000}});
  const std::string body = "00 00 04 D2  00 00 00 00  01 80 00 00  01 A0 00 00";
  expect_bytes(kM9n, v, m9("EE 0F 00 28", body + zeros(8)));
  expect_stale_roundtrip(kM9n, v, m9("EE 0F 00 28", body + stale(8)));
}

// M9 (one-address) PROCEXEC: 16 pid; 20 pmcid; 24 entry; 28 path; 32 + 8 = 40.
TEST(HandBytesNarrow, M9Procexec) {
  const auto v = make(K::procexec, false,
                      {{Field::pid, 1234}, {Field::pmcid, 0xfff02700}, {Field::entryaddr, 0x01801140}},
                      "/bin/ls");
  const std::string body = "00 00 04 D2  FF F0 27 00  01 80 11 40  " + kLs;
  expect_bytes(kM9n, v, m9("EE 09 00 28", body + zeros(4)));
  expect_stale_roundtrip(kM9n, v, m9("EE 09 00 28", body + stale(4)));
}

TEST(HandBytesNarrow, M9Callchain) {
  const auto v = make(K::callchain, false,
                      {{Field::pid, 1234}, {Field::tid, 100001}, {Field::pmcid, 0x00201701},
                       {Field::cpuflags, 0x00020000}},
                      "", {0xc0b3c9f1, 0x01801234});
  const std::string body = "00 00 04 D2  00 01 86 A1  00 20 17 01  00 02 00 00  C0 B3 C9 F1  01 80 12 34";
  expect_bytes(kM9n, v, m9("EE 10 00 30", body + zeros(8)));
  expect_stale_roundtrip(kM9n, v, m9("EE 10 00 30", body + stale(8)));
}

// Damage: a CALLCHAIN whose frames are not whole 8-byte slots, a MAP_OUT of the 4-byte-slot
// size, a path whose NUL sits in the unfilled slot bytes; each an error naming its offset, the record before it still read.
TEST(HandBytesNarrow, DamagedRecordsNameTheirOffset) {
  const std::string good = l3("EE 0F 00 20", "00 00 04 D2  01 80 00 00  01 A0 00 00" + zeros(8));
  struct Case {
    std::string bytes;
    pmclog::Errc code;
    std::string says;
  };
  const Case cases[] = {
      // 24 + 12: one and a half slots of frames
      {l3("EE 10 00 24", "00 00 04 D2  02 00 07 01  00 02 00 00  C0 B3 C9 F1  01 80 12 34" + zeros(4)),
       pmclog::Errc::callchain_misaligned, "4-byte addresses in 8-byte slots"},
      {l3("EE 0F 00 18", "00 00 04 D2  01 80 00 00  01 A0 00 00"), pmclog::Errc::length_below_minimum,
       "32-byte minimum"},
      // A 32-byte MAP_IN whose path "/bin/lsx" ends at 28, inside the 4 bytes its start
      // address's slot leaves unfilled: the kernel would have sized it 24 + 9 -> 36.
      {l3("EE 0E 00 20", "00 00 04 D2  01 80 00 00  2F 62 69 6E 2F 6C 73 78 00 A5 A5 A5"),
       pmclog::Errc::unterminated_string, "unfilled part of its 8-byte address slots"},
  };
  for (const Case& c : cases) {
    const auto bytes = hex(good + " " + c.bytes);
    auto rd = pmclog::LogReader::over(bytes, kL3n);
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(rd.next(r, e), pmclog::Step::record) << e.message;
    EXPECT_EQ(r[Field::end], 0x01A00000u);
    ASSERT_EQ(rd.next(r, e), pmclog::Step::error);
    EXPECT_EQ(e.code, c.code) << e.message;
    EXPECT_EQ(e.offset, 32u);
    EXPECT_NE(e.message.find(c.says), std::string::npos) << e.message;
  }
}

// Detection from hand-written bytes: a legacy INITIALIZE with a PPC_970 cputype, then the
// MAP_IN above. The path's position settles 4-byte values in 8-byte slots; without the path
// the cputype does; an ordinary LP64 big-endian MAP_IN is still read as 8-byte addresses.
TEST(HandBytesNarrow, Detected) {
  const std::string init = l3("EE 02 00 14", "03 01 00 00  00 00 03 80");
  const std::string map_in = l3("EE 0E 00 28", "00 00 04 D2  01 80 00 00  " + kLibc + stale(5));
  const std::string map_out = l3("EE 0F 00 20", "00 00 04 D2  01 80 00 00  01 A0 00 00" + stale(8));
  auto det = pmclog::detect_abi(hex(init + " " + map_in));
  ASSERT_TRUE(det.ok()) << det.error().message;
  EXPECT_EQ(det->abi, kL3n);
  bool named = false;
  for (const auto& line : det->evidence)
    named |= line.find("address values: 4 bytes in 8-byte slots (MAP_IN") == 0;
  EXPECT_TRUE(named) << "the evidence does not name the MAP_IN";

  det = pmclog::detect_abi(hex(init + " " + map_out));
  ASSERT_TRUE(det.ok());
  EXPECT_EQ(det->abi, kL3n);
  named = false;
  for (const auto& line : det->evidence) named |= line.find("INITIALIZE cputype 0x380 at offset 16") != std::string::npos;
  EXPECT_TRUE(named);

  const std::string wide = l3("EE 0E 00 28", "00 00 04 D2  01 80 00 00 00 00 00 00  " + kLibc + zeros(1));
  det = pmclog::detect_abi(hex(init + " " + wide));
  ASSERT_TRUE(det.ok());
  EXPECT_EQ(det->abi, Abi::make(pmclog::Generation::L3, 8, ByteOrder::big));

  // Given: both widths, or the slots only (the path then decides the values).
  pmclog::AbiHint hint;
  hint.address_width = 4;
  hint.address_slot = 8;
  det = pmclog::detect_abi(hex(init + " " + map_out), hint);
  ASSERT_TRUE(det.ok());
  EXPECT_EQ(det->abi, kL3n);
  hint = {};
  hint.address_slot = 8;
  det = pmclog::detect_abi(hex(l3("EE 02 00 14", "03 01 00 00  00 00 00 91") + " " + map_in), hint);
  ASSERT_TRUE(det.ok());
  EXPECT_EQ(det->abi, kL3n);
}

}  // namespace
