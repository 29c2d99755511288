// Modern records (M9/M10, 16-byte header; format.md §3, §4, §8, §14) against bytes written
// out by hand. LE64 = amd64, LE32 = i386 (time_t 4), BE64 = powerpc64, BE32 = powerpc.
#include "hand_bytes.h"

#include "format_rules.h"

using namespace codec_test;
using pmclog::ByteOrder;
using K = pmclog::Kind;

namespace {

const Abi kM9_64 = Abi::make(Generation::M9, 8, ByteOrder::little);
const Abi kM9_32 = Abi::make(Generation::M9, 4, ByteOrder::little);
const Abi kM10_64 = Abi::make(Generation::M10, 8, ByteOrder::little);
const Abi kM10_32 = Abi::make(Generation::M10, 4, ByteOrder::little);
const Abi kM10_64BE = Abi::make(Generation::M10, 8, ByteOrder::big);
const Abi kM9_32BE = producer_abi(Generation::M9, 4, ByteOrder::big);  // time_t 8

std::string le(const char* head, const std::string& body) {
  return std::string(head) + " " + kModernTsLE + " " + body;
}
std::string be(const char* head, const std::string& body) {
  return std::string(head) + " " + kModernTsBE + " " + body;
}
const std::string kYesPath = "2F 75 73 72 2F 62 69 6E 2F 79 65 73 00 00 00 00";  // "/usr/bin/yes"
const std::string kLibcPath = "2F 6C 69 62 2F 6C 69 62 63 2E 73 6F 2E 37 00 00";  // "/lib/libc.so.7"

// format.md §14, verbatim: powerpc64 (main) PROCEXIT with value 0x0000000100000002. The header TSC is
// a native big-endian uint64; the value is EMIT64, low word first.
TEST(HandBytesModern, Section9aBigEndianProcexit) {
  RecordValue v = make(K::procexit, false,
                       {{Field::pmcid, 0xfff20700}, {Field::pid, 1234}, {Field::value, 0x0000000100000002ull}});
  v.tsc = 0x0000000100000002ull;
  expect_bytes(kM10_64BE, v,
               "EE 0A 00 20  00 00 00 00  00 00 00 01 00 00 00 02  "
               "FF F2 07 00  00 00 04 D2  00 00 00 02 00 00 00 01");
}

TEST(HandBytesModern, CloselogAndDropnotify) {
  expect_bytes(kM9_64, make(K::closelog, false, {}), le("10 00 01 EE", ""));
  expect_bytes(kM9_64, make(K::dropnotify, false, {}), le("10 00 02 EE", ""));
  expect_bytes(kM10_64BE, make(K::closelog, false, {}), be("EE 01 00 10", ""));
}

TEST(HandBytesModern, InitializeLp64) {
  // 16 version, 20 cputype, 24 tsc_freq (EMIT64), 32 timespec (2 x 8), 48 cpuid[64] = 112.
  expect_bytes(kM9_64,
               make(K::initialize, false,
                    {{Field::version, 0x09030000}, {Field::arch, 0x98}, {Field::tsc_freq, 0xb2d05e00},
                     {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 123456789}},
                    "GenuineIntel-6-55-4"),
               le("70 00 03 EE", "00 00 03 09  98 00 00 00  00 5E D0 B2 00 00 00 00  "
                                 "00 F1 53 65 00 00 00 00  15 CD 5B 07 00 00 00 00  "
                                 "47 65 6E 75 69 6E 65 49 6E 74 65 6C 2D 36 2D 35 35 2D 34" + zeros(45)));
}

TEST(HandBytesModern, InitializeI386Is104) {
  // i386: time_t is 4 bytes, so the timespec is 8 and the record 104 (format.md §8.1).
  expect_bytes(kM9_32,
               make(K::initialize, false,
                    {{Field::version, 0x09030000}, {Field::arch, 0x98}, {Field::tsc_freq, 0xb2d05e00},
                     {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 123456789}},
                    "GenuineIntel-6-55-4"),
               le("68 00 03 EE", "00 00 03 09  98 00 00 00  00 5E D0 B2 00 00 00 00  "
                                 "00 F1 53 65  15 CD 5B 07  "
                                 "47 65 6E 75 69 6E 65 49 6E 74 65 6C 2D 36 2D 35 35 2D 34" + zeros(45)));
}

// The timespec is a native struct {time_t tv_sec; long tv_nsec;} (format.md §4, §8.1): one test per
// 32/64-bit x little/big-endian producer. tv_nsec is a `long`: 8 bytes on LP64, 4 on ILP32,
// where an 8-byte time_t (powerpc, arm) leaves 4 bytes of struct padding after it.
TEST(HandBytesModern, InitializeBigEndianLp64Timespec) {  // powerpc64
  const auto v = make(K::initialize, false,
                      {{Field::version, 0x0A000000}, {Field::arch, 0x390}, {Field::tsc_freq, 0},
                       {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 123456789}},
                      "POWER_004d");
  expect_bytes(kM10_64BE, v,
               be("EE 03 00 70", "0A 00 00 00  00 00 03 90  00 00 00 00 00 00 00 00  "
                                 "00 00 00 00 65 53 F1 00  00 00 00 00 07 5B CD 15  "
                                 "50 4F 57 45 52 5F 30 30 34 64" + zeros(54)));
}

TEST(HandBytesModern, InitializeBigEndianIlp32TimespecHasPadding) {  // powerpc
  // tv_sec: 8 bytes at 32; tv_nsec: 4 bytes at 40; 4 bytes of padding at 44 (zero when we
  // write, stale from the kernel's stack in a real log); cpuid at 48.
  const auto v = make(K::initialize, false,
                      {{Field::version, 0x09030000}, {Field::arch, 0x390}, {Field::tsc_freq, 0},
                       {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 123456789}},
                      "POWER_004d");
  expect_bytes(kM9_32BE, v,
               be("EE 03 00 70", "09 03 00 00  00 00 03 90  00 00 00 00 00 00 00 00  "
                                 "00 00 00 00 65 53 F1 00  07 5B CD 15  00 00 00 00  "
                                 "50 4F 57 45 52 5F 30 30 34 64" + zeros(54)));
}

TEST(HandBytesModern, InitializeLittleEndianIlp32TimespecHasPadding) {  // 32-bit arm
  const auto v = make(K::initialize, false,
                      {{Field::version, 0x0A000000}, {Field::arch, 0x500}, {Field::tsc_freq, 0},
                       {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 123456789}},
                      "ARMv7");
  Abi arm = Abi::make(Generation::M10, 4, ByteOrder::little);
  arm.time_width = 8;  // unlike i386
  expect_bytes(arm, v,
               le("70 00 03 EE", "00 00 00 0A  00 05 00 00  00 00 00 00 00 00 00 00  "
                                 "00 F1 53 65 00 00 00 00  15 CD 5B 07  00 00 00 00  "
                                 "41 52 4D 76 37" + zeros(59)));
}

// The padding after a 4-byte tv_nsec is stale in a real log: it must not reach the value
// (a little-endian 8-byte read would put it in the high half) and the patches carry it, so
// that the record re-encodes byte for byte.
TEST(HandBytesModern, InitializeTimespecPaddingIsStaleNotValue) {
  for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
    Abi abi = Abi::make(Generation::M10, 4, o);
    abi.time_width = 8;
    const auto v = make(K::initialize, false,
                        {{Field::version, 0x0A000000}, {Field::arch, 0x500},
                         {Field::init_ts_sec, 1700000000}, {Field::init_ts_nsec, 999999999}},
                        "x");
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(pmclog::encode(v, abi, bytes).ok());
    ASSERT_EQ(bytes.size(), 112u);
    for (int i = 44; i < 48; ++i) bytes[i] = static_cast<uint8_t>(0xA0 + i);
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(pmclog::decode_record(abi, bytes.data(), bytes.size(), 0, r, e), pmclog::Step::record)
        << e.message;
    EXPECT_EQ(r[Field::init_ts_nsec], 999999999u);
    EXPECT_EQ(r[Field::init_ts_sec], 1700000000u);
    const auto patches = pmclog::unwritten_bytes(r, abi);
    ASSERT_EQ(patches.size(), 1u);
    EXPECT_EQ(patches[0].first, 44u);
    std::vector<uint8_t> again;
    ASSERT_TRUE(pmclog::encode(pmclog::to_value(r, abi), abi, again).ok());
    ASSERT_TRUE(pmclog::apply_patches(again, patches));
    EXPECT_EQ(to_hex(again), to_hex(bytes));
  }
}

TEST(HandBytesModern, Pmcallocate) {
  const auto v = make(K::pmcallocate, false,
                      {{Field::pmcid, 0x00201701}, {Field::event, 0x10000}, {Field::flags, 0x20080},
                       {Field::rate, 0x0000000500000000ull}});
  // 16 pmcid, 20 event, 24 flags, 28 pad, 32 rate (EMIT64) = 40.
  expect_bytes(kM9_64, v, le("28 00 05 EE", "01 17 20 00  00 00 01 00  80 00 02 00  00 00 00 00  "
                                            "00 00 00 00 05 00 00 00"));
  expect_bytes(kM10_64BE, v, be("EE 05 00 28", "00 20 17 01  00 01 00 00  00 02 00 80  00 00 00 00  "
                                               "00 00 00 00 00 00 00 05"));
}

TEST(HandBytesModern, PmcallocatedynRateAt32NameAt40) {
  // The writer puts the rate at 32 and the name at 40; 56 name bytes fit in 96 (format.md §11).
  const auto v = make(K::pmcallocatedyn, false,
                      {{Field::pmcid, 0xfff00f05}, {Field::event, 0x20005}, {Field::flags, 0x20080},
                       {Field::rate, 0x10000}},
                      "PAGE_FAULT.ALL");
  const std::string name = "50 41 47 45 5F 46 41 55 4C 54 2E 41 4C 4C" + zeros(42);
  expect_bytes(kM9_64, v, le("60 00 11 EE", "05 0F F0 FF  05 00 02 00  80 00 02 00  00 00 00 00  "
                                            "00 00 01 00 00 00 00 00  " + name));
  expect_bytes(kM10_64BE, v, be("EE 11 00 60", "FF F0 0F 05  00 02 00 05  00 02 00 80  00 00 00 00  "
                                               "00 01 00 00 00 00 00 00  " + name));
}

TEST(HandBytesModern, PmcattachAndDetach) {
  expect_bytes(kM9_64, make(K::pmcattach, false, {{Field::pmcid, 0xfff02700}, {Field::pid, 1234}}, "/usr/bin/yes"),
               le("28 00 06 EE", "00 27 F0 FF  D2 04 00 00  " + kYesPath));
  expect_bytes(kM9_64, make(K::pmcdetach, false, {{Field::pmcid, 0xfff02700}, {Field::pid, 1234}}),
               le("18 00 07 EE", "00 27 F0 FF  D2 04 00 00"));
}

TEST(HandBytesModern, Proccsw) {
  // 16 value (EMIT64), 24 pmcid, 28 pid, 32 tid, 36 pad = 40.
  const auto v = make(K::proccsw, false,
                      {{Field::value, 0x0000000500000007ull}, {Field::pmcid, 0xfff02700},
                       {Field::pid, 1234}, {Field::tid, 100321}});
  expect_bytes(kM9_64, v, le("28 00 08 EE", "07 00 00 00 05 00 00 00  00 27 F0 FF  D2 04 00 00  E1 87 01 00  00 00 00 00"));
  expect_bytes(kM10_64BE, v, be("EE 08 00 28", "00 00 00 07 00 00 00 05  FF F0 27 00  00 00 04 D2  00 01 87 E1  00 00 00 00"));
}

TEST(HandBytesModern, ProcexecOneAddressM9) {
  // 16 pid, 20 pmcid, 24 entry (8), 32 path; 32 + 13 = 45, rounded to 48.
  expect_bytes(kM9_64,
               make(K::procexec, false,
                    {{Field::pid, 1234}, {Field::pmcid, 0xfff02700}, {Field::entryaddr, 0x800600140ull}},
                    "/usr/bin/yes"),
               le("30 00 09 EE", "D2 04 00 00  00 27 F0 FF  40 01 60 00 08 00 00 00  " + kYesPath));
}

TEST(HandBytesModern, ProcexecTwoAddressesM10) {
  // 24 base, 24+A dyn, 24+2A path: LP64 40 + 13 = 53 -> 56; ILP32 32 + 13 = 45 -> 48.
  const auto v64 = make(K::procexec, false,
                        {{Field::pid, 1234}, {Field::pmcid, 0xfff20700}, {Field::entryaddr, 0x800600140ull},
                         {Field::dynaddr, 0x1021000}},
                        "/usr/bin/yes");
  expect_bytes(kM10_64, v64, le("38 00 09 EE", "D2 04 00 00  00 07 F2 FF  40 01 60 00 08 00 00 00  "
                                               "00 10 02 01 00 00 00 00  " + kYesPath));
  expect_bytes(kM10_64BE, v64, be("EE 09 00 38", "00 00 04 D2  FF F2 07 00  00 60 01 40 00 00 00 08  "
                                                 "01 02 10 00 00 00 00 00  " + kYesPath));
  expect_bytes(kM10_32,
               make(K::procexec, false,
                    {{Field::pid, 1234}, {Field::pmcid, 0xfff20700}, {Field::entryaddr, 0x28061140},
                     {Field::dynaddr, 0x00401000}},
                    "/usr/bin/yes"),
               le("30 00 09 EE", "D2 04 00 00  00 07 F2 FF  40 11 06 28  00 10 40 00  " + kYesPath));
}

TEST(HandBytesModern, Procexit) {
  expect_bytes(kM9_64,
               make(K::procexit, false,
                    {{Field::pmcid, 0xfff02700}, {Field::pid, 1234}, {Field::value, 0x0000000100000002ull}}),
               le("20 00 0A EE", "00 27 F0 FF  D2 04 00 00  02 00 00 00 01 00 00 00"));
}

TEST(HandBytesModern, ProcforkSysexitUserdata) {
  expect_bytes(kM9_64, make(K::procfork, false, {{Field::oldpid, 1234}, {Field::newpid, 1241}}),
               le("18 00 0B EE", "D2 04 00 00  D9 04 00 00"));
  // The pad word of SYSEXIT and USERDATA is never written; the encoder writes zeros (format.md §5).
  expect_bytes(kM9_64, make(K::sysexit, false, {{Field::pid, 1234}}), le("18 00 0C EE", "D2 04 00 00  00 00 00 00"));
  expect_bytes(kM9_64, make(K::userdata, false, {{Field::userdata, 0xcafe}}),
               le("18 00 0D EE", "FE CA 00 00  00 00 00 00"));
  expect_bytes(kM10_64BE, make(K::sysexit, false, {{Field::pid, 1234}}), be("EE 0C 00 18", "00 00 04 D2  00 00 00 00"));
  expect_bytes(kM10_64BE, make(K::userdata, false, {{Field::userdata, 0xcafe}}),
               be("EE 0D 00 18", "00 00 CA FE  00 00 00 00"));
}

TEST(HandBytesModern, MapIn) {
  // 16 pid, 20 pad, 24 start, 24+A path. LP64: 32 + 15 = 47 -> 48.
  expect_bytes(kM9_64, make(K::map_in, false, {{Field::pid, 1234}, {Field::start, 0x800a00000ull}}, "/lib/libc.so.7"),
               le("30 00 0E EE", "D2 04 00 00  00 00 00 00  00 00 A0 00 08 00 00 00  " + kLibcPath));
  expect_bytes(kM10_64BE, make(K::map_in, false, {{Field::pid, 1234}, {Field::start, 0x800a00000ull}}, "/lib/libc.so.7"),
               be("EE 0E 00 30", "00 00 04 D2  00 00 00 00  00 A0 00 00 00 00 00 08  " + kLibcPath));
  // ILP32 kernel: 28 + 20 = 48.
  expect_bytes(kM9_32,
               make(K::map_in, false, {{Field::pid, 0xffffffff}, {Field::start, 0xc0400000}}, "/boot/kernel/kernel"),
               le("30 00 0E EE", "FF FF FF FF  00 00 00 00  00 00 40 C0  "
                                 "2F 62 6F 6F 74 2F 6B 65 72 6E 65 6C 2F 6B 65 72 6E 65 6C 00"));
}

// main's MAP_IN (M10): byte 20 is u8 pl_pageshift, 21..23 pad (format.md §16); the byte
// is the same whatever the byte order. M9 has no such field.
TEST(HandBytesModern, MapInPageshiftM10) {
  const auto v = make(K::map_in, false,
                      {{Field::pid, 1234}, {Field::pageshift, 12}, {Field::start, 0x800a00000ull}},
                      "/lib/libc.so.7");
  expect_bytes(kM10_64, v, le("30 00 0E EE", "D2 04 00 00  0C 00 00 00  00 00 A0 00 08 00 00 00  " + kLibcPath));
  expect_bytes(kM10_64BE, v, be("EE 0E 00 30", "00 00 04 D2  0C 00 00 00  00 A0 00 00 00 00 00 08  " + kLibcPath));
  expect_bytes(kM10_32,
               make(K::map_in, false, {{Field::pid, 7}, {Field::pageshift, 14}, {Field::start, 0x28100000}}, "/x"),
               le("20 00 0E EE", "07 00 00 00  0E 00 00 00  00 00 10 28  2F 78 00 00"));
  EXPECT_FALSE(pmclog::layout_for(kM9_64, K::map_in)->has(Field::pageshift));
  RecordValue big = v;
  big[Field::pageshift] = 256;
  std::vector<uint8_t> out;
  const auto r = pmclog::encode(big, kM10_64, out);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("pageshift does not fit in 8 bits"), std::string::npos) << r.error().message;
}

TEST(HandBytesModern, MapOut) {
  expect_bytes(kM9_64,
               make(K::map_out, false, {{Field::pid, 1234}, {Field::start, 0x800a00000ull}, {Field::end, 0x800c00000ull}}),
               le("28 00 0F EE", "D2 04 00 00  00 00 00 00  00 00 A0 00 08 00 00 00  00 00 C0 00 08 00 00 00"));
  const auto v32 = make(K::map_out, false, {{Field::pid, 1234}, {Field::start, 0x28100000}, {Field::end, 0x28300000}});
  expect_bytes(kM9_32, v32, le("20 00 0F EE", "D2 04 00 00  00 00 00 00  00 00 10 28  00 00 30 28"));
  expect_bytes(kM9_32BE, v32, be("EE 0F 00 20", "00 00 04 D2  00 00 00 00  28 10 00 00  28 30 00 00"));
}

TEST(HandBytesModern, Callchain) {
  // 16 pid, 20 tid, 24 pmcid, 28 cpuflags, 32 pc[n].
  expect_bytes(kM9_64,
               make(K::callchain, false,
                    {{Field::pid, 1234}, {Field::tid, 100321}, {Field::pmcid, 0x00201701}, {Field::cpuflags, 0x00020000}},
                    "", {0xffffffff80b3c9f1ull, 0x800a01234ull}),
               le("30 00 10 EE", "D2 04 00 00  E1 87 01 00  01 17 20 00  00 00 02 00  "
                                 "F1 C9 B3 80 FF FF FF FF  34 12 A0 00 08 00 00 00"));
  expect_bytes(kM9_32,
               make(K::callchain, false,
                    {{Field::pid, 1234}, {Field::tid, 100321}, {Field::pmcid, 0x00201701}, {Field::cpuflags, 0x00030001}},
                    "", {0xc0b3c9f1, 0x28101234, 0x08048b2c}),
               le("2C 00 10 EE", "D2 04 00 00  E1 87 01 00  01 17 20 00  01 00 03 00  "
                                 "F1 C9 B3 C0  34 12 10 28  2C 8B 04 08"));
  expect_bytes(kM10_64BE,
               make(K::callchain, false,
                    {{Field::pid, 1234}, {Field::tid, 100321}, {Field::pmcid, 0x00210701}, {Field::cpuflags, 0x00030001}},
                    "", {0x800a01234ull, 0x10000abc0ull}),
               be("EE 10 00 30", "00 00 04 D2  00 01 87 E1  00 21 07 01  00 03 00 01  "
                                 "00 A0 12 34 00 00 00 08  00 00 AB C0 00 00 00 01"));
}

TEST(HandBytesModern, ThrCreateThrExitProcCreate) {
  // THR_CREATE: 16 tid, 20 pid, 24 flags, 28 pad, 32 tdname[20] = 52.
  const auto tc = make(K::thr_create, false,
                       {{Field::tid, 100321}, {Field::pid, 1240}, {Field::flags, 0x10004000}}, "yes");
  expect_bytes(kM9_64, tc, le("34 00 12 EE", "E1 87 01 00  D8 04 00 00  00 40 00 10  00 00 00 00  79 65 73 00" + zeros(16)));
  expect_bytes(kM10_64BE, tc, be("EE 12 00 34", "00 01 87 E1  00 00 04 D8  10 00 40 00  00 00 00 00  79 65 73 00" + zeros(16)));
  // THR_EXIT: 16 tid, 20 pad (unwritten) = 24.
  expect_bytes(kM9_64, make(K::thr_exit, false, {{Field::tid, 100321}}), le("18 00 13 EE", "E1 87 01 00  00 00 00 00"));
  expect_bytes(kM10_64BE, make(K::thr_exit, false, {{Field::tid, 100321}}), be("EE 13 00 18", "00 01 87 E1  00 00 00 00"));
  // PROC_CREATE: 16 pid, 20 flags, 24 comm[20] = 44.
  const auto pc = make(K::proc_create, false, {{Field::pid, 1240}, {Field::flags, 0x10004000}}, "yes");
  expect_bytes(kM9_64, pc, le("2C 00 14 EE", "D8 04 00 00  00 40 00 10  79 65 73 00" + zeros(16)));
  expect_bytes(kM10_64BE, pc, be("EE 14 00 2C", "00 00 04 D8  10 00 40 00  79 65 73 00" + zeros(16)));
}

}  // namespace
