// Legacy records (L1/L2/L3, 12-byte header; format.md §3, §7, §14) against bytes written out
// by hand. LE64 = amd64, LE32 = i386, BE32 = powerpc, BE64 = sparc64.
#include "hand_bytes.h"

#include "format_rules.h"

using namespace codec_test;
using pmclog::ByteOrder;
using K = pmclog::Kind;

namespace {

const Abi kL1_64 = Abi::make(Generation::L1, 8, ByteOrder::little);
const Abi kL1_32 = Abi::make(Generation::L1, 4, ByteOrder::little);
const Abi kL2_32 = Abi::make(Generation::L2, 4, ByteOrder::little);
const Abi kL3_64 = Abi::make(Generation::L3, 8, ByteOrder::little);
const Abi kL3_32 = Abi::make(Generation::L3, 4, ByteOrder::little);
const Abi kL3_32BE = Abi::make(Generation::L3, 4, ByteOrder::big);
const Abi kL3_64BE = Abi::make(Generation::L3, 8, ByteOrder::big);
const Abi kL2_32BE = Abi::make(Generation::L2, 4, ByteOrder::big);

std::string le(const char* head, const char* body) {
  return std::string(head) + " " + kLegacyTsLE + " " + body;
}
std::string be(const char* head, const char* body) {
  return std::string(head) + " " + kLegacyTsBE + " " + body;
}

// format.md §14, verbatim: legacy LP64 LE INITIALIZE, version 3.1.0, cputype HASWELL.
TEST(HandBytesLegacy, Section9aInitialize) {
  expect_bytes(kL3_64,
               make(K::initialize, true, {{Field::version, 0x03010000}, {Field::arch, 0x91}}),
               "14 00 02 EE  00 00 00 5A  67 45 23 01  00 00 01 03  91 00 00 00");
}

// format.md §14, verbatim (with the 8 ts bytes filled in): LP64 LE CALLCHAIN, cpu 2, kernel mode.
TEST(HandBytesLegacy, Section9aCallchain) {
  expect_bytes(kL3_64,
               make(K::callchain, true,
                    {{Field::pid, 1234}, {Field::pmcid, 0x02000701}, {Field::cpuflags, 0x00020000}},
                    "", {0xffffffff80b3c9f1ull, 0x800a01234ull}),
               "28 00 10 EE  00 00 00 5A 67 45 23 01  D2 04 00 00  01 07 00 02  00 00 02 00  "
               "F1 C9 B3 80 FF FF FF FF  34 12 A0 00 08 00 00 00");
}

// format.md §14: LP64 MAP_IN with "/lib/libc.so.7": 24 + 15 = 39, rounded to 40; byte 39 is padding.
TEST(HandBytesLegacy, Section9aMapInPadding) {
  expect_bytes(kL3_64,
               make(K::map_in, true, {{Field::pid, 1234}, {Field::start, 0x800600000ull}},
                    "/lib/libc.so.7"),
               le("28 00 0E EE", "D2 04 00 00  00 00 60 00 08 00 00 00  "
                                 "2F 6C 69 62 2F 6C 69 62 63 2E 73 6F 2E 37 00 00"));
}

TEST(HandBytesLegacy, CloselogAndDropnotify) {
  expect_bytes(kL3_64, make(K::closelog, true, {}), le("0C 00 00 EE", ""));
  expect_bytes(kL3_64, make(K::dropnotify, true, {}), le("0C 00 01 EE", ""));
  expect_bytes(kL1_32, make(K::closelog, true, {}), le("0C 00 00 EE", ""));
  expect_bytes(kL3_32BE, make(K::closelog, true, {}), be("EE 00 00 0C", ""));
}

TEST(HandBytesLegacy, Pmcallocate) {
  const auto v = make(K::pmcallocate, true,
                      {{Field::pmcid, 0x02000701}, {Field::event, 0x10000}, {Field::flags, 0x20080}});
  expect_bytes(kL3_64, v, le("18 00 05 EE", "01 07 00 02  00 00 01 00  80 00 02 00"));
  expect_bytes(kL3_32BE, v, be("EE 05 00 18", "02 00 07 01  00 01 00 00  00 02 00 80"));
}

TEST(HandBytesLegacy, Pmcattach) {
  // 20 + strlen("/usr/bin/yes") + 1 = 33, rounded to 36.
  expect_bytes(kL3_64,
               make(K::pmcattach, true, {{Field::pmcid, 0xff020700}, {Field::pid, 1234}}, "/usr/bin/yes"),
               le("24 00 06 EE", "00 07 02 FF  D2 04 00 00  2F 75 73 72 2F 62 69 6E 2F 79 65 73 00 00 00 00"));
}

TEST(HandBytesLegacy, Pmcdetach) {
  expect_bytes(kL3_64, make(K::pmcdetach, true, {{Field::pmcid, 0xff020700}, {Field::pid, 1234}}),
               le("14 00 07 EE", "00 07 02 FF  D2 04 00 00"));
}

// EMIT64: low word first, then the high word (format.md §4), in each byte order.
TEST(HandBytesLegacy, ProccswValueLowWordFirst) {
  const auto v = make(K::proccsw, true,
                      {{Field::pmcid, 0xff020700}, {Field::value, 0x0000000500000007ull}, {Field::pid, 1234}});
  expect_bytes(kL3_64, v, le("1C 00 08 EE", "00 07 02 FF  07 00 00 00 05 00 00 00  D2 04 00 00"));
  expect_bytes(kL3_32BE, v, be("EE 08 00 1C", "FF 02 07 00  00 00 00 07 00 00 00 05  00 00 04 D2"));
}

TEST(HandBytesLegacy, Procexec) {
  // LP64: 12 pid, 16 entry (8), 24 pmcid, 28 path; 28 + 13 = 41, rounded to 44.
  expect_bytes(kL3_64,
               make(K::procexec, true,
                    {{Field::pid, 1234}, {Field::entryaddr, 0x800600140ull}, {Field::pmcid, 0xff020700}},
                    "/usr/bin/yes"),
               le("2C 00 09 EE", "D2 04 00 00  40 01 60 00 08 00 00 00  00 07 02 FF  "
                                 "2F 75 73 72 2F 62 69 6E 2F 79 65 73 00 00 00 00"));
  // ILP32: 24 + 13 = 37, rounded to 40.
  expect_bytes(kL3_32,
               make(K::procexec, true,
                    {{Field::pid, 1234}, {Field::entryaddr, 0x28061140}, {Field::pmcid, 0xff020700}},
                    "/usr/bin/yes"),
               le("28 00 09 EE", "D2 04 00 00  40 11 06 28  00 07 02 FF  "
                                 "2F 75 73 72 2F 62 69 6E 2F 79 65 73 00 00 00 00"));
}

TEST(HandBytesLegacy, Procexit) {
  const auto v = make(K::procexit, true,
                      {{Field::pmcid, 0xff020700}, {Field::value, 98765432}, {Field::pid, 1234}});
  expect_bytes(kL3_64, v, le("1C 00 0A EE", "00 07 02 FF  78 0A E3 05 00 00 00 00  D2 04 00 00"));
  const auto big = make(K::procexit, true,
                        {{Field::pmcid, 0xff020700}, {Field::value, 0xfedcba9876543210ull}, {Field::pid, 1234}});
  expect_bytes(kL3_64BE, big, be("EE 0A 00 1C", "FF 02 07 00  76 54 32 10 FE DC BA 98  00 00 04 D2"));
}

TEST(HandBytesLegacy, ProcforkSysexitUserdata) {
  expect_bytes(kL3_64, make(K::procfork, true, {{Field::oldpid, 1234}, {Field::newpid, 1240}}),
               le("14 00 0B EE", "D2 04 00 00  D8 04 00 00"));
  expect_bytes(kL3_64, make(K::sysexit, true, {{Field::pid, 1234}}), le("10 00 0C EE", "D2 04 00 00"));
  expect_bytes(kL3_64, make(K::userdata, true, {{Field::userdata, 0xcafe}}), le("10 00 0D EE", "FE CA 00 00"));
  expect_bytes(kL2_32BE, make(K::userdata, true, {{Field::userdata, 0xcafe}}), be("EE 0D 00 10", "00 00 CA FE"));
}

TEST(HandBytesLegacy, MapIn) {
  // ILP32 kernel mapping: 20 + 20 = 40, no padding needed.
  expect_bytes(kL3_32,
               make(K::map_in, true, {{Field::pid, 0xffffffff}, {Field::start, 0xc0400000}},
                    "/boot/kernel/kernel"),
               le("28 00 0E EE", "FF FF FF FF  00 00 40 C0  "
                                 "2F 62 6F 6F 74 2F 6B 65 72 6E 65 6C 2F 6B 65 72 6E 65 6C 00"));
  // Big-endian ILP32: 20 + 15 = 35, rounded to 36.
  expect_bytes(kL3_32BE,
               make(K::map_in, true, {{Field::pid, 1234}, {Field::start, 0x28100000}}, "/lib/libc.so.7"),
               be("EE 0E 00 24", "00 00 04 D2  28 10 00 00  "
                                 "2F 6C 69 62 2F 6C 69 62 63 2E 73 6F 2E 37 00 00"));
}

TEST(HandBytesLegacy, MapOut) {
  const auto v64 = make(K::map_out, true,
                        {{Field::pid, 1234}, {Field::start, 0x800a00000ull}, {Field::end, 0x800c00000ull}});
  expect_bytes(kL3_64, v64, le("20 00 0F EE", "D2 04 00 00  00 00 A0 00 08 00 00 00  00 00 C0 00 08 00 00 00"));
  expect_bytes(kL3_64BE, v64, be("EE 0F 00 20", "00 00 04 D2  00 A0 00 00 00 00 00 08  00 C0 00 00 00 00 00 08"));
  expect_bytes(kL2_32BE,
               make(K::map_out, true, {{Field::pid, 1234}, {Field::start, 0x28100000}, {Field::end, 0x28300000}}),
               be("EE 0F 00 18", "00 00 04 D2  28 10 00 00  28 30 00 00"));
}

TEST(HandBytesLegacy, CallchainIlp32) {
  const auto v = make(K::callchain, true,
                      {{Field::pid, 1234}, {Field::pmcid, 0x02000701}, {Field::cpuflags, 0x00030001}},
                      "", {0x28101234, 0x08048b2c});
  expect_bytes(kL2_32, v, le("20 00 10 EE", "D2 04 00 00  01 07 00 02  01 00 03 00  34 12 10 28  2C 8B 04 08"));
  expect_bytes(kL2_32BE, v, be("EE 10 00 20", "00 00 04 D2  02 00 07 01  00 03 00 01  28 10 12 34  08 04 8B 2C"));
}

TEST(HandBytesLegacy, PmcallocatedynL3) {
  // 24 + 64-byte evname = 88.
  const auto v = make(K::pmcallocatedyn, true,
                      {{Field::pmcid, 0xff020f00}, {Field::event, 0x20005}, {Field::flags, 0x20080}},
                      "SOFT-CLOCK.HARD");
  const std::string name = "53 4F 46 54 2D 43 4C 4F 43 4B 2E 48 41 52 44 00" + zeros(48);
  expect_bytes(kL3_64, v, le("58 00 11 EE", ("00 0F 02 FF  05 00 02 00  80 00 02 00  " + name).c_str()));
  expect_bytes(kL3_32BE, v, be("EE 11 00 58", ("FF 02 0F 00  00 02 00 05  00 02 00 80  " + name).c_str()));
}

TEST(HandBytesLegacy, Pcsample) {
  // LP64: 12 pid, 16 pc (8), 24 pmcid, 28 usermode = 32; ILP32: 28.
  expect_bytes(kL1_64,
               make(K::pcsample, true,
                    {{Field::pid, 1234}, {Field::pc, 0x800a01234ull}, {Field::pmcid, 0xff020700}, {Field::usermode, 1}}),
               le("20 00 04 EE", "D2 04 00 00  34 12 A0 00 08 00 00 00  00 07 02 FF  01 00 00 00"));
  expect_bytes(kL1_32,
               make(K::pcsample, true,
                    {{Field::pid, 1234}, {Field::pc, 0x08048b2c}, {Field::pmcid, 0xff020700}, {Field::usermode, 0}}),
               le("1C 00 04 EE", "D2 04 00 00  2C 8B 04 08  00 07 02 FF  00 00 00 00"));
}

TEST(HandBytesLegacy, MappingchangeL1) {
  // LP64: 12 type, 16 start, 24 end, 32 pid, 36 path; 36 + 8 = 44.
  expect_bytes(kL1_64,
               make(K::mappingchange, true,
                    {{Field::maptype, 1}, {Field::start, 0x400000}, {Field::end, 0x4a0000}, {Field::pid, 1234}},
                    "/bin/sh"),
               le("2C 00 03 EE", "01 00 00 00  00 00 40 00 00 00 00 00  00 00 4A 00 00 00 00 00  D2 04 00 00  "
                                 "2F 62 69 6E 2F 73 68 00"));
  expect_bytes(kL1_32,
               make(K::mappingchange, true,
                    {{Field::maptype, 2}, {Field::start, 0x08048000}, {Field::end, 0x080a0000}, {Field::pid, 1234}},
                    "/bin/sh"),
               le("24 00 03 EE", "02 00 00 00  00 80 04 08  00 00 0A 08  D2 04 00 00  2F 62 69 6E 2F 73 68 00"));
}

TEST(HandBytesLegacy, InitializeBigEndian) {
  expect_bytes(kL3_32BE, make(K::initialize, true, {{Field::version, 0x03010000}, {Field::arch, 0x300}}),
               "EE 02 00 14  5A 00 00 00  01 23 45 67  03 01 00 00  00 00 03 00");
}

// format.md §3.2: seconds truncated to 32 bits, nanoseconds masked to 28 bits (7 F's).
TEST(HandBytesLegacy, TimestampMask) {
  const auto [sec, nsec] = pmclog::legacy_timestamp(0x100000005ull, 999999999u);
  EXPECT_EQ(sec, 5u);
  EXPECT_EQ(nsec, 999999999u - 3u * 268435456u);  // 999999999 mod 2^28
}

}  // namespace
