// The checker keeps going after damage: ten independent problems give ten diagnostics, in
// offset order, from a mapped span and from a stream read in small chunks alike.
#include <gtest/gtest.h>

#include "config.h"
#include "log_builder.h"

namespace validate_test {
namespace {

using pmclog::validate::Config;
using V = std::vector<std::string>;

struct TenProblems {
  LogBuilder b{l3()};
  std::vector<size_t> damaged;  // record index of each problem, in file order
};

TenProblems build_ten() {
  TenProblems t;
  LogBuilder& b = t.b;
  const uint32_t pmc = process_pmcid(Generation::L3);
  build_valid(b, false);
  // Two good records after each problem: the library's resync accepts a record only when the
  // one after it is framed soundly too, so back-to-back damage would merge (format.md §15).
  auto filler = [&] {
    b.userdata(0x1111);
    b.userdata(0x2222);
  };
  auto mark = [&](size_t i) {
    t.damaged.push_back(i);
    filler();
  };
  size_t i = b.userdata(1);
  b.set_magic(i, 0x00);
  mark(i);  // 1 bad-magic
  i = b.userdata(2);
  b.set_length(i, 14);
  mark(i);  // 2 length-unaligned
  i = b.userdata(3);
  b.set_type(i, 40);
  mark(i);  // 3 unknown-type
  i = b.map_in(kPid, 0x900000, "/x");  // 24 + 3 -> 28; overwrite NUL and pad
  for (size_t k = 24 + 2; k < b.length(i); ++k) b.bytes()[b.offset(i) + k] = 'y';
  mark(i);  // 4 unterminated-string
  i = b.sample(kPid, pmc);
  b.grow(i, 4);
  mark(i);  // 5 callchain-misaligned
  mark(b.simple(Kind::dropnotify));               // 6 dropnotify
  mark(b.map_out(kPid, 0xABC0000, 0xABD0000));    // 7 map-out-without-map-in
  mark(b.legacy_time(1500000000u, 0));            // 8 time-backwards
  mark(b.sample(kPid, pmc, {}));                  // 9 callchain-empty
  mark(b.map_in(kPid, 0xA00000, std::string(1200, 'q'), false));  // 10 path-too-long
  b.simple(Kind::closelog);
  return t;
}

// Two of the ten (map-out-without-map-in, time-backwards) are what FreeBSD writes in normal
// operation, so only --pedantic reports them.
Config pedantic() { return Config::defaults(true, {}); }

const V kTenRules = {"bad-magic", "length-unaligned", "unknown-type", "unterminated-string",
                     "callchain-misaligned", "dropnotify", "map-out-without-map-in",
                     "time-backwards", "callchain-empty", "path-too-long"};

TEST(KeepGoing, TenProblemsGiveTenDiagnosticsInOffsetOrder) {
  TenProblems t = build_ten();
  const auto r = check(t.b, pedantic());
  ASSERT_EQ(rule_ids(r), kTenRules) << dump(r);
  for (size_t k = 0; k < t.damaged.size(); ++k) {
    EXPECT_EQ(r.diagnostics[k].offset, t.b.offset(t.damaged[k])) << k;
  }
  EXPECT_EQ(r.bytes, t.b.bytes().size());
  EXPECT_EQ(r.records, t.b.count());
}

TEST(KeepGoing, StreamingReaderGivesTheSameDiagnostics) {
  TenProblems t = build_ten();
  const auto mapped = check(t.b, pedantic());
  for (size_t chunk : {size_t{7}, size_t{4096}}) {
    LogReader rd = LogReader::stream(span_source(t.b.bytes(), chunk), t.b.abi());
    const auto streamed = pmclog::validate::validate_reader("pipe", rd, pedantic());
    ASSERT_EQ(rule_ids(streamed), kTenRules) << chunk << "\n" << dump(streamed);
    for (size_t k = 0; k < mapped.diagnostics.size(); ++k) {
      EXPECT_EQ(streamed.diagnostics[k].offset, mapped.diagnostics[k].offset);
      EXPECT_EQ(streamed.diagnostics[k].message, mapped.diagnostics[k].message);
    }
    EXPECT_EQ(streamed.bytes, mapped.bytes);
  }
}

TEST(KeepGoing, MaxDiagnosticsKeepsTheLowestOffsetsAndCountsAll) {
  TenProblems t = build_ten();
  Config cfg = pedantic();
  cfg.max_diagnostics = 3;
  const auto r = check(t.b, cfg);
  EXPECT_EQ(rule_ids(r), (V{"bad-magic", "length-unaligned", "unknown-type"}));
  EXPECT_EQ(r.not_shown, 7u);
  EXPECT_EQ(r.errors + r.warnings, 10u);
}

TEST(KeepGoing, DeferredDiagnosticsAreSortedIntoPlace) {
  // pmcid-never-allocated is only known at the end, but is printed at its first use.
  LogBuilder b(l3());
  build_valid(b, false);
  const size_t s = b.sample(kPid, 0xFF020709);
  const size_t d = b.simple(Kind::dropnotify);
  b.simple(Kind::closelog);
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), (V{"pmcid-never-allocated", "dropnotify"})) << dump(r);
  EXPECT_EQ(r.diagnostics[0].offset, b.offset(s));
  EXPECT_EQ(r.diagnostics[1].offset, b.offset(d));
}

TEST(KeepGoing, RandomDamageNeverCrashesAndCoversEveryByte) {
  // Flip bytes all over a valid log: the checker must stop at the end every time, count
  // every byte, and report at least one problem whenever framing changed.
  LogBuilder base(m9());
  build_valid(base);
  uint32_t seed = 12345;
  for (int round = 0; round < 300; ++round) {
    std::vector<uint8_t> bytes = base.bytes();
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      bytes[(seed >> 8) % bytes.size()] ^= static_cast<uint8_t>(seed >> 24 | 1);
    }
    LogReader rd = LogReader::over(bytes, base.abi());
    const auto r = pmclog::validate::validate_reader("fuzz", rd, Config::defaults(true, 3u));
    EXPECT_EQ(r.bytes, bytes.size()) << round;
    for (size_t k = 1; k < r.diagnostics.size(); ++k) {
      EXPECT_LE(r.diagnostics[k - 1].offset, r.diagnostics[k].offset);
    }
  }
}

}  // namespace
}  // namespace validate_test
