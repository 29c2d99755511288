// The 20 committed fixtures, read at offsets worked out by hand from format.md §3-§8 and the
// values tests/codec/fixture_records.cpp puts in. Neither the decoder nor the layout tables
// are consulted, so a layout bug that the generator wrote into the fixtures and their
// listings (which the decoder then agrees with) still fails here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "listing.h"
#include "test_util.h"

namespace {

struct Probe {
  size_t offset;
  const char* bytes;  // as they sit in the file
  const char* what;
};

struct FixtureProbes {
  const char* stem;
  size_t size;
  std::vector<Probe> probes;
};

// Header words: legacy 0xEE<<24 | type<<16 | length, modern the same in its first word; the
// modern header TSC (0x0000123456789000) is one native 64-bit store at 8 (format.md §4). 64-bit values
// elsewhere are two words, low word first (format.md §4). The modern timespec is native: tv_sec is
// time_t (4 on i386, else 8), tv_nsec a long (4 on 32-bit, 8 on 64-bit), then 4 bytes of
// padding on 32-bit producers with an 8-byte time_t (powerpc) (format.md §8.1).
const char* const kSecLE4 = "00 F1 53 65";  // 1700000000
const char* const kSecBE4 = "65 53 F1 00";
const char* const kNsecLE4 = "15 CD 5B 07";  // 123456789
const char* const kNsecBE4 = "07 5B CD 15";

std::vector<Probe> legacy(bool be, const char* version, const char* arch) {
  return {{0, be ? "EE 02 00 14" : "14 00 02 EE", "INITIALIZE header word"},
          {4, be ? kSecBE4 : kSecLE4, "header tv_sec"},
          {8, be ? kNsecBE4 : kNsecLE4, "header tv_nsec"},
          {12, version, "version"},
          {16, arch, "cputype"}};
}

std::vector<Probe> modern(bool be, bool i386, bool lp64, const char* version) {
  std::vector<Probe> p = {
      {8, be ? "00 00 12 34 56 78 90 00" : "00 90 78 56 34 12 00 00", "header TSC, native"},
      {16, version, "version"}};
  if (i386) {
    p.push_back({0, "68 00 03 EE", "INITIALIZE header word, 104 bytes"});
    p.push_back({32, kSecLE4, "tv_sec, 4-byte time_t"});
    p.push_back({36, kNsecLE4, "tv_nsec, 4-byte long"});
    p.push_back({40, "47 65 6E 75 69 6E 65", "cpuid \"Genuine\""});
    return p;
  }
  p.push_back({0, be ? "EE 03 00 70" : "70 00 03 EE", "INITIALIZE header word, 112 bytes"});
  p.push_back({32, be ? "00 00 00 00 65 53 F1 00" : "00 F1 53 65 00 00 00 00", "tv_sec"});
  if (lp64)
    p.push_back({40, be ? "00 00 00 00 07 5B CD 15" : "15 CD 5B 07 00 00 00 00", "tv_nsec, 8-byte long"});
  else
    p.push_back({40, "07 5B CD 15 00 00 00 00", "tv_nsec, 4-byte long, then 4 bytes of padding"});
  p.push_back({48, be ? "50 4F 57 45 52" : "47 65 6E 75 69 6E 65", "cpuid"});
  p.push_back({24, be ? "00 00 00 00 00 00 00 00" : "00 5E D0 B2 00 00 00 00",
               "tsc_freq (3 GHz, 0 off x86), low word first"});
  return p;
}

void add(std::vector<Probe>& p, std::initializer_list<Probe> more) { p.insert(p.end(), more); }

std::vector<FixtureProbes> all_fixtures() {
  std::vector<FixtureProbes> out;
  const char* const kernel64LE = "00 00 20 80 FF FF FF FF";  // 0xffffffff80200000, low word first
  const char* const kernel64BE = "80 20 00 00 FF FF FF FF";
  for (bool be : {false, true}) {
    const char* const close_legacy = be ? "EE 00 00 0C" : "0C 00 00 EE";
    const char* const close_modern = be ? "EE 01 00 10" : "10 00 01 EE";
    // L1: PMCALLOCATE after MAPPINGCHANGE and PCSAMPLE; event code TSC 0x1000 at +16.
    for (bool wide : {false, true}) {
      FixtureProbes f{nullptr, wide ? 376u : 360u,
                      legacy(be, be ? "01 02 00 03" : "03 00 02 01", be ? "00 00 00 08" : "08 00 00 00")};
      const size_t alloc = wide ? 96 : 84;
      add(f.probes, {{alloc + 16, be ? "00 00 10 00" : "00 10 00 00", "PMCALLOCATE event (TSC)"},
                     {36, wide ? (be ? "00 40 00 00 00 00 00 00" : "00 00 40 00 00 00 00 00")
                               : (be ? "08 04 80 00" : "00 80 04 08"),
                      "MAPPINGCHANGE start"},
                     {f.size - 12, close_legacy, "CLOSELOG header word"}});
      f.stem = be ? (wide ? "L1-64-be" : "L1-32-be") : (wide ? "L1-64-le" : "L1-32-le");
      out.push_back(f);
    }
    // L2/L3: the PMCALLOCATE at 20, event at 36; the kernel MAP_IN's start at +16.
    for (int gen : {2, 3}) {
      for (bool wide : {false, true}) {
        FixtureProbes f{nullptr, 0,
                        legacy(be, be ? "03 01 00 00" : "00 00 01 03", be ? "00 00 03 00" : "91 00 00 00")};
        add(f.probes, {{36, be ? "00 01 00 00" : "00 00 01 00", "PMCALLOCATE event"}});
        if (wide) add(f.probes, {{gen == 2 ? 164u : 252u, be ? kernel64BE : kernel64LE, "MAP_IN start"}});
        f.size = gen == 2 ? (wide ? 520 : 472) : (wide ? 608 : 560);
        add(f.probes, {{f.size - 12, close_legacy, "CLOSELOG header word"}});
        static const char* const stems[2][2][2] = {{{"L2-32-le", "L2-64-le"}, {"L2-32-be", "L2-64-be"}},
                                                   {{"L3-32-le", "L3-64-le"}, {"L3-32-be", "L3-64-be"}}};
        f.stem = stems[gen - 2][be][wide];
        out.push_back(f);
      }
    }
    // M9/M10: PMCALLOCATE right after INITIALIZE, event (K8 0x2098) at +20; the kernel
    // MAP_IN's start at +24.
    for (int gen : {9, 10}) {
      for (bool wide : {false, true}) {
        const bool i386 = !wide && !be;
        const char* version = gen == 9 ? (be ? "09 03 00 00" : "00 00 03 09")
                                       : (be ? "0A 00 00 00" : "00 00 00 0A");
        FixtureProbes f{nullptr, 0, modern(be, i386, wide, version)};
        const size_t init = i386 ? 104 : 112;
        add(f.probes, {{init + 20, be ? "00 00 20 98" : "98 20 00 00", "PMCALLOCATE event"}});
        if (wide) add(f.probes, {{gen == 9 ? 496u : 504u, be ? kernel64BE : kernel64LE, "MAP_IN start"}});
        static const size_t sizes[2][2][2] = {{{900, 956}, {908, 956}}, {{904, 964}, {912, 964}}};
        f.size = sizes[gen - 9][be][wide];
        add(f.probes, {{f.size - 16, close_modern, "CLOSELOG header word"}});
        static const char* const stems[2][2][2] = {{{"M9-32-le", "M9-64-le"}, {"M9-32-be", "M9-64-be"}},
                                                   {{"M10-32-le", "M10-64-le"}, {"M10-32-be", "M10-64-be"}}};
        f.stem = stems[gen - 9][be][wide];
        out.push_back(f);
      }
    }
  }
  return out;
}

TEST(FixtureOffsets, EveryFixtureHoldsTheHandComputedBytes) {
  const auto fixtures = all_fixtures();
  ASSERT_EQ(fixtures.size(), 20u);
  for (const auto& f : fixtures) {
    SCOPED_TRACE(f.stem);
    const auto bytes = codec_test::slurp_bytes(codec_test::fixtures_dir() + "/" + f.stem + ".pmclog");
    ASSERT_EQ(bytes.size(), f.size);
    for (const Probe& p : f.probes) {
      const auto want = codec_test::hex(p.bytes);
      ASSERT_LE(p.offset + want.size(), bytes.size()) << p.what;
      const std::vector<uint8_t> got(bytes.begin() + static_cast<long>(p.offset),
                                     bytes.begin() + static_cast<long>(p.offset + want.size()));
      EXPECT_EQ(codec_test::to_hex(got), codec_test::to_hex(want)) << p.what << " at " << p.offset;
    }
  }
}

}  // namespace
