// One crafted log per rule: each triggers exactly that rule, and the valid baseline of
// every ABI triggers none.
#include <gtest/gtest.h>

#include "config.h"
#include "log_builder.h"
#include "rules.h"

namespace validate_test {
namespace {

using pmclog::validate::Config;
using V = std::vector<std::string>;

Config defaults() { return Config::defaults(false, std::nullopt); }
Config pedantic() { return Config::defaults(true, std::nullopt); }

std::vector<Abi> all_abis() {
  std::vector<Abi> out;
  for (int g = 0; g < kGenerationCount; ++g) {
    for (uint8_t w : {4, 8}) {
      for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
        out.push_back(Abi::make(static_cast<Generation>(g), w, o));
      }
    }
  }
  Abi i386_tw8 = Abi::make(Generation::M9, 4, ByteOrder::little);
  i386_tw8.time_width = 8;  // 32-bit arm/powerpc: 112-byte INITIALIZE (§5)
  out.push_back(i386_tw8);
  return out;
}

TEST(Rules, ValidBaselineOfEveryAbiIsClean) {
  for (const Abi& abi : all_abis()) {
    LogBuilder b(abi);
    build_valid(b);
    const auto r = check(b, pedantic());
    EXPECT_TRUE(r.diagnostics.empty()) << describe(abi) << "\n" << dump(r);
    EXPECT_EQ(r.errors + r.warnings, 0u) << describe(abi);
    EXPECT_EQ(r.records, b.count()) << describe(abi);
    EXPECT_EQ(r.bytes, b.bytes().size()) << describe(abi);
  }
}

TEST(Rules, FramingAndStructureRulesInEveryAbi) {
  // Byte order, width and header size come from the ABI; the same damage must be found in
  // each of them, at the same record.
  for (const Abi& abi : all_abis()) {
    {
      LogBuilder b(abi);
      const auto x = build_valid(b);
      b.set_magic(x.userdata, 0x12);
      b.set_type(x.sysexit, 77);
      b.truncate(2);
      const auto r = check(b);
      EXPECT_EQ(rule_ids(r), (V{"bad-magic", "unknown-type", "truncated"}))
          << describe(abi) << "\n" << dump(r);
      if (r.diagnostics.size() == 3) {
        EXPECT_EQ(r.diagnostics[0].offset, b.offset(x.userdata));
        EXPECT_EQ(r.diagnostics[1].offset, b.offset(x.sysexit));
        EXPECT_EQ(r.diagnostics[2].offset, b.offset(x.closelog));
      }
    }
    {
      LogBuilder b(abi);
      build_valid(b, false);
      b.sample(kPid, process_pmcid(abi.generation, 9));
      const auto r = check(b);
      EXPECT_EQ(rule_ids(r), (V{"pmcid-never-allocated", "missing-closelog"}))
          << describe(abi) << "\n" << dump(r);
    }
  }
}

TEST(Rules, EveryRuleHasACraftedTest) {
  // Keeps this file honest when a rule is added: each id below has a TEST that triggers it.
  const V tested = {"not-a-log", "bad-magic", "length-below-header", "length-unaligned",
                    "length-below-minimum", "length-above-maximum", "callchain-misaligned",
                    "truncated", "trailing-garbage", "unknown-type", "type-never-written",
                    "mappingchange-l1", "dropnotify", "foreign-generation",
                    "unterminated-string", "path-too-long", "nonzero-pad",
                    "nonzero-unwritten", "callchain-too-deep", "callchain-deep-for-era",
                    "callchain-empty", "cpu-out-of-range", "nsec-out-of-range",
                    "first-not-initialize", "duplicate-initialize", "version-mismatch",
                    "record-after-closelog", "missing-closelog", "pmcid-never-allocated",
                    "pmcid-allocated-later", "sample-after-exit", "map-out-without-map-in",
                    "time-backwards"};
  V all;
  for (const auto& r : pmclog::validate::rules()) all.emplace_back(r.id);
  EXPECT_EQ(all, tested);
}

// --- framing ------------------------------------------------------------------------------

TEST(Rules, BadMagic) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.set_magic(x.userdata, 0xEF);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"bad-magic"}) << dump(r);
  EXPECT_EQ(r.diagnostics.at(0).offset, b.offset(x.userdata));
  EXPECT_NE(r.diagnostics.at(0).message.find("skipped"), std::string::npos);
}

TEST(Rules, LengthZeroAndBelowHeader) {
  for (uint32_t len : {0u, 8u}) {
    LogBuilder b(l3());
    const auto x = build_valid(b);
    b.set_length(x.userdata, len);
    const auto r = check(b);
    EXPECT_EQ(rule_ids(r), V{"length-below-header"}) << len << "\n" << dump(r);
  }
}

TEST(Rules, LengthUnaligned) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.set_length(x.userdata, 18);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"length-unaligned"}) << dump(r);
}

TEST(Rules, LengthBelowMinimum) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.set_length(x.userdata, 12);  // USERDATA is 16 bytes in L3 (§4)
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"length-below-minimum"}) << dump(r);
}

TEST(Rules, LengthAboveMaximumFixed) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.grow(x.userdata, 4);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"length-above-maximum"}) << dump(r);
}

TEST(Rules, LengthAboveMaximumPath) {
  LogBuilder b(m9());
  const auto x = build_valid(b);
  b.grow(x.map_libm, 8);  // two words of zeros after the path's padding
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"length-above-maximum"}) << dump(r);
}

TEST(Rules, CallchainMisaligned) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.grow(x.sample1, 4);  // half an address on a 64-bit log
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"callchain-misaligned"}) << dump(r);
}

TEST(Rules, TruncatedTailSaysHowManyBytesAreMissing) {
  LogBuilder b(m9());
  build_valid(b);
  b.truncate(6);  // into the 16-byte CLOSELOG
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"truncated"}) << dump(r);
  EXPECT_NE(r.diagnostics[0].message.find("6 bytes missing"), std::string::npos)
      << r.diagnostics[0].message;
}

TEST(Rules, TruncatedInsideTheHeaderWord) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.userdata(1);
  b.truncate(14);  // 2 bytes of the last record's header word remain
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"truncated"}) << dump(r);
}

TEST(Rules, TrailingGarbage) {
  LogBuilder b(l3());
  build_valid(b);
  b.append_raw("garbage!garbage!");
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"trailing-garbage"}) << dump(r);
  EXPECT_NE(r.diagnostics[0].message.find("16 bytes"), std::string::npos);
}

// --- types --------------------------------------------------------------------------------

TEST(Rules, UnknownType) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.set_type(x.userdata, 30);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"unknown-type"}) << dump(r);
}

TEST(Rules, TypeNeverWrittenPcsampleInL3) {
  LogBuilder b(l3());
  const auto x = build_valid(b, false);
  RecordValue v;
  v.kind = Kind::pcsample;
  v[Field::pid] = kPid;
  v[Field::pmcid] = process_pmcid(Generation::L3);
  v[Field::pc] = 0x401000;
  b.add(v);
  b.simple(Kind::closelog);
  (void)x;
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"type-never-written"}) << dump(r);
}

TEST(Rules, MappingchangeInL1) {
  LogBuilder b(Abi::make(Generation::L1, 4, ByteOrder::big));
  build_valid(b, false);
  RecordValue v;
  v.kind = Kind::mappingchange;
  v[Field::maptype] = 1;
  v[Field::start] = 0x8048000;
  v[Field::end] = 0x80a0000;
  v[Field::pid] = kPid;
  v.text = "/bin/sh";
  b.add(v);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"mappingchange-l1"}) << dump(r);
}

TEST(Rules, Dropnotify) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.simple(Kind::dropnotify);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"dropnotify"}) << dump(r);
}

TEST(Rules, ForeignGenerationLegacyRecordInModernLog) {
  LogBuilder b(m9());
  build_valid(b, false);
  // A legacy 64-bit MAP_OUT (32 bytes) is not the 40-byte modern MAP_OUT (§4, §5).
  LogBuilder legacy(l3());
  const size_t i = legacy.map_out(kPid, kLibm, kLibm + 0x1000);
  b.bytes().insert(b.bytes().end(), legacy.bytes().begin() + static_cast<long>(legacy.offset(i)),
                   legacy.bytes().end());
  b.simple(Kind::closelog);
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"foreign-generation"}) << dump(r);
  EXPECT_NE(r.diagnostics[0].message.find("L3"), std::string::npos);
}

// --- contents -----------------------------------------------------------------------------

TEST(Rules, UnterminatedString) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  // "/lib/libm.so.5" + NUL fills bytes 24..38; fill the NUL and the pad with 'x'.
  const size_t end = b.offset(x.map_libm) + b.length(x.map_libm);
  for (size_t i = b.offset(x.map_libm) + 24 + 14; i < end; ++i) b.bytes()[i] = 'x';
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"unterminated-string"}) << dump(r);
}

TEST(Rules, PathTooLong) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.map_in(kPid, 0x900000, "/" + std::string(1500, 'p'), false);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"path-too-long"}) << dump(r);
}

TEST(Rules, NonzeroPad) {
  LogBuilder b(m9());
  const auto x = build_valid(b);
  b.set_word(x.map_libm, 20, 0x5A5A5A5A);  // modern MAP_IN pad word (§5)
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"nonzero-pad"}) << dump(r);
}

TEST(Rules, NonzeroUnwrittenOnlyWhenPedantic) {
  LogBuilder b(m9());
  const auto x = build_valid(b);
  b.set_word(x.userdata, 4, 0xA5A5A5A5);  // pl_spare: stale bytes in real logs (§2)
  EXPECT_TRUE(check(b, defaults()).diagnostics.empty());
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"nonzero-unwritten"}) << dump(r);
}

TEST(Rules, NonzeroPathPaddingOnlyWhenPedantic) {
  LogBuilder b(l3());
  const auto x = build_valid(b);
  b.bytes()[b.offset(x.map_libm) + b.length(x.map_libm) - 1] = 0xA5;  // after the NUL
  EXPECT_TRUE(check(b, defaults()).diagnostics.empty());
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"nonzero-unwritten"}) << dump(r);
}

TEST(Rules, CallchainTooDeep) {
  LogBuilder b(Abi::make(Generation::L2, 4, ByteOrder::little));
  build_valid(b, false);
  b.sample(kPid, process_pmcid(Generation::L2), std::vector<uint64_t>(33, 0x401000), 1, false);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"callchain-too-deep"}) << dump(r);
}

TEST(Rules, CallchainDeepForEraIsPedantic) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.sample(kPid, process_pmcid(Generation::L3), std::vector<uint64_t>(40, 0x401000));
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b, defaults()).diagnostics.empty());
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"callchain-deep-for-era"}) << dump(r);
}

TEST(Rules, CallchainEmpty) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.sample(kPid, process_pmcid(Generation::M9), {});
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"callchain-empty"}) << dump(r);
}

TEST(Rules, CpuOutOfRangeOnlyWithMaxCpu) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.sample(kPid, process_pmcid(Generation::M9), {0x401000}, 9);
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b, defaults()).diagnostics.empty());
  EXPECT_TRUE(check(b, Config::defaults(false, 9u)).diagnostics.empty());
  const auto r = check(b, Config::defaults(false, 7u));
  EXPECT_EQ(rule_ids(r), V{"cpu-out-of-range"}) << dump(r);
}

TEST(Rules, CpuOutOfRangeInSystemModePmcId) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.pmcallocate(0x09000701);  // legacy layout I: cpu 9, system mode (§7.3)
  b.simple(Kind::closelog);
  const auto r = check(b, Config::defaults(false, 7u));
  EXPECT_EQ(rule_ids(r), V{"cpu-out-of-range"}) << dump(r);
}

TEST(Rules, NsecOutOfRange) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.legacy_time(0, 0x10000000u);  // 2^28: the kernel masks to 28 bits
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"nsec-out-of-range"}) << dump(r);
}

// --- structure ----------------------------------------------------------------------------

TEST(Rules, FirstNotInitialize) {
  LogBuilder b(l3());
  b.userdata(1);
  LogBuilder rest(l3());
  build_valid(rest);
  b.bytes().insert(b.bytes().end(), rest.bytes().begin(), rest.bytes().end());
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"first-not-initialize"}) << dump(r);
  EXPECT_EQ(r.diagnostics.at(0).offset, 0u);
}

TEST(Rules, EmptyLog) {
  LogBuilder b(l3());
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"first-not-initialize"}) << dump(r);
}

TEST(Rules, DuplicateInitialize) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.initialize();
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"duplicate-initialize"}) << dump(r);
}

TEST(Rules, VersionMismatch) {
  LogBuilder b(l3());
  b.initialize(0x09030000);  // a modern version over legacy records
  LogBuilder rest(l3());
  build_valid(rest);
  const size_t skip = rest.length(0);
  b.bytes().insert(b.bytes().end(), rest.bytes().begin() + static_cast<long>(skip),
                   rest.bytes().end());
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"version-mismatch"}) << dump(r);
}

TEST(Rules, RecordAfterCloselogInLegacyOnly) {
  for (const Abi& abi : {l3(), m9()}) {
    LogBuilder b(abi);
    build_valid(b);
    b.userdata(2);
    const auto r = check(b);
    if (abi.legacy()) {
      EXPECT_EQ(rule_ids(r), V{"record-after-closelog"}) << dump(r);
    } else {
      EXPECT_TRUE(r.diagnostics.empty()) << dump(r);  // per-CPU flush order (§8)
    }
  }
}

TEST(Rules, MissingCloselog) {
  LogBuilder b(l3());
  build_valid(b, false);
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"missing-closelog"}) << dump(r);
  EXPECT_EQ(r.diagnostics[0].offset, b.bytes().size());
}

TEST(Rules, PmcidNeverAllocated) {
  LogBuilder b(l3());
  build_valid(b, false);
  const size_t s = b.sample(kPid, 0xFF020705);
  b.sample(kPid, 0xFF020705);
  b.simple(Kind::closelog);
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"pmcid-never-allocated"}) << dump(r);
  EXPECT_EQ(r.diagnostics[0].offset, b.offset(s));  // reported at the first use
}

TEST(Rules, PmcidAllocatedLater) {
  LogBuilder b(m9());
  build_valid(b, false);
  const size_t s = b.sample(kPid, 0xFFF02705);
  b.pmcallocate(0xFFF02705);
  b.simple(Kind::closelog);
  const auto r = check(b);
  ASSERT_EQ(rule_ids(r), V{"pmcid-allocated-later"}) << dump(r);
  EXPECT_EQ(r.diagnostics[0].offset, b.offset(s));
}

TEST(Rules, SampleAfterExit) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.sample(kChild, process_pmcid(Generation::M9));  // kChild had SYSEXIT
  b.sample(kChild, process_pmcid(Generation::M9));  // said once per exit
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"sample-after-exit"}) << dump(r);
}

TEST(Rules, ForkAfterExitClearsTheExit) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.procfork(kPid, kChild);  // pid reused
  b.sample(kChild, process_pmcid(Generation::M9));
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));
}

TEST(Rules, MapOutWithoutMapIn) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.map_out(kPid, 0x12340000, 0x12350000);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"map-out-without-map-in"}) << dump(r);
}

TEST(Rules, TimeBackwards) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.legacy_time(1600000000u, 5);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"time-backwards"}) << dump(r);
}

TEST(Rules, TimeBackwardsAllowsThe28BitNanosecondWrap) {
  LogBuilder b(l3());
  build_valid(b, false);
  // 1800000000.268435455 then .268435456: stored as 0x0FFFFFFF then 0 (§2), not backwards.
  b.legacy_time(1800000000u, 0x0FFFFFFF);
  b.legacy_time(1800000000u, 1);
  // Within one second a smaller stored value can always be a later true value (it stands
  // for value + k * 2^28, k up to 3), so only a smaller second is surely backwards.
  b.legacy_time(1800000001u, 0x0F000000);
  b.legacy_time(1800000001u, 0x0E000000);
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
}

TEST(Rules, DisableTurnsARuleOff) {
  LogBuilder b(l3());
  build_valid(b, false);
  Config cfg = defaults();
  cfg.set(pmclog::validate::Rule::missing_closelog, false);
  EXPECT_TRUE(check(b, cfg).diagnostics.empty());
}

}  // namespace
}  // namespace validate_test
