// --explain: each 32-bit word in file byte order, its value and its field (format.md §3-§8),
// checked by hand against the golden logs' bytes and listings.
#include <gtest/gtest.h>

#include <cstdio>

#include "listing.h"
#include "run_tool.h"

using namespace dumptest;

TEST(Explain, LegacyInitializeAndCallchainWords) {
  const Ran r = run_dump({"--explain", "--head", "2", fixture("golden/seed-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  // 1700000000 = 0x6553f100; INITIALIZE is 20 bytes, type 2 (format.md §7)
  EXPECT_EQ(r.out.substr(0, r.out.find("@20 ")),
            "@0 INITIALIZE (type 2, 20 bytes)\n"
            "  +0     14 00 02 ee  0xee020014  header: magic 0xee, type 2, length 20\n"
            "  +4     00 f1 53 65  0x6553f100  ts_sec\n"
            "  +8     01 00 00 00  0x00000001  ts_nsec (28 bits)\n"
            "  +12    00 00 01 03  0x03010000  version\n"
            "  +16    8b 00 00 00  0x0000008b  arch\n");
  // CALLCHAIN: pc 0x7fffdeadbee0 as two words, low word first
  EXPECT_NE(r.out.find("  +24    e0 be ad de  0xdeadbee0  pcs[0] (low word)\n"
                       "  +28    ff 7f 00 00  0x00007fff  pcs[0] (high word)\n"),
            std::string::npos)
      << r.out;
}

TEST(Explain, ModernPmcallocatedynShowsRateThenName) {
  const Ran r = run_dump({"--explain", "--type", "pmcallocatedyn", "--head", "1",
                          fixture("golden/modern-lp64-le.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  // The stable/12 writer puts the rate (0x10000) at 32 and the name at 40 (format.md §11).
  EXPECT_NE(r.out.find("  +4     00 00 00 00  0x00000000  spare (unwritten by the kernel)\n"), std::string::npos);
  EXPECT_NE(r.out.find("  +32    00 00 01 00  0x00010000  rate (low word)\n"
                       "  +36    00 00 00 00  0x00000000  rate (high word)\n"
                       "  +40    50 41 47 45  0x45474150  evname[0..3] \"PAGE\"\n"),
            std::string::npos)
      << r.out;
}

// Every fixture of every generation x width x byte order: each record's words are the file's
// bytes at that offset, the value is those bytes in the log's byte order, the header word is
// labelled with the listing's type and length, and the words cover the whole record.
TEST(Explain, AllFixturesWordsMatchTheFileBytes) {
  int checked = 0;
  for (const char* gen : {"L1", "L2", "L3", "M9", "M10"}) {
    for (const char* abi : {"32-le", "32-be", "64-le", "64-be"}) {
      const std::string base = fixture(std::string(gen) + "-" + abi);
      const std::string bytes = slurp(base + ".pmclog");
      if (bytes.empty()) continue;
      SCOPED_TRACE(base);
      const bool be = std::string(abi).find("be") != std::string::npos;
      const auto listing = read_listing(base + ".expected.txt");
      const Ran r = run_dump({"--explain", base + ".pmclog"});
      ASSERT_EQ(r.status, 0) << r.err;
      size_t rec = 0, words = 0;
      uint64_t off = 0;
      for (const auto& l : lines(r.out)) {
        if (l[0] == '@') {
          if (rec > 0) {
            EXPECT_EQ(words * 4, listing[rec - 1].len);
          }
          ASSERT_LT(rec, listing.size());
          off = std::stoull(l.substr(1));
          EXPECT_EQ(off, listing[rec].off);
          words = 0;
          ++rec;
          continue;
        }
        // "  +O     b0 b1 b2 b3  0xVVVVVVVV  label"
        const uint64_t o = std::stoull(l.substr(3));
        EXPECT_EQ(o, words * 4);
        const std::string hex = l.substr(l.find_first_not_of(' ', l.find(' ', 3)), 11);
        uint32_t v = 0;
        char want[16];
        for (int i = 0; i < 4; ++i) {
          const auto b = static_cast<uint8_t>(bytes.at(off + o + i));
          v |= static_cast<uint32_t>(b) << (be ? 24 - 8 * i : 8 * i);
        }
        std::snprintf(want, sizeof want, "%02x %02x %02x %02x", static_cast<uint8_t>(bytes[off + o]),
                      static_cast<uint8_t>(bytes[off + o + 1]), static_cast<uint8_t>(bytes[off + o + 2]),
                      static_cast<uint8_t>(bytes[off + o + 3]));
        EXPECT_EQ(hex, want) << l;
        char value[16];
        std::snprintf(value, sizeof value, "0x%08x", v);
        EXPECT_NE(l.find(std::string("  ") + value + "  "), std::string::npos) << l;
        if (o == 0) {
          const auto& lr = listing[rec - 1];
          EXPECT_NE(l.find("header: magic 0xee, type " + std::to_string(lr.code) + ", length " +
                           std::to_string(lr.len)),
                    std::string::npos)
              << l;
        }
        ++words;
      }
      EXPECT_EQ(rec, listing.size());
      EXPECT_EQ(words * 4, listing.back().len);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 20);
}
