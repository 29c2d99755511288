// One crafted log per rule: each triggers exactly that rule, and the valid baseline of
// every ABI triggers none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iterator>

#include <unistd.h>

#include <fstream>

#include "config.h"
#include "pmclog/container.h"
#include "scan.h"
#include "log_builder.h"
#include "pmclog/parts.h"
#include "rules.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

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
  i386_tw8.time_width = 8;  // 32-bit arm/powerpc: 112-byte INITIALIZE (format.md §8.1)
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
      const auto r = check(b, pedantic());
      EXPECT_EQ(rule_ids(r), (V{"pmcid-never-allocated", "missing-closelog"}))
          << describe(abi) << "\n" << dump(r);
    }
  }
}

// --- the PMCL container (format.md §18) ------------------------------------------------

// A valid log behind `c` (infos as given, DONE added unless `done` is false), with
// `patch` applied to the container's bytes, validated as a file.
pmclog::validate::FileResult check_container(pmclog::Container c, bool done,
                                              const std::function<void(std::vector<uint8_t>&)>& patch,
                                              bool with_log = true) {
  if (done) c.infos.push_back(pmclog::make_done());
  std::vector<uint8_t> bytes;
  pmclog::encode_container(c, bytes);
  patch(bytes);
  if (with_log) {
    LogBuilder b(Abi::make(Generation::M10, 8, c.byte_order));
    build_valid(b);
    bytes.insert(bytes.end(), b.bytes().begin(), b.bytes().end());
  }
  const pmclog_test::ScratchDir d;
  const std::string path = d.file("container.pmclog");
  pmclog_test::write_file(path, bytes);
  return pmclog::validate::validate_file(path, {}, defaults());
}

pmclog::Container amd64(ByteOrder o = ByteOrder::little) {
  pmclog::Container c;
  c.byte_order = o;
  c.arch = 1;
  c.infos.push_back(pmclog::make_sysinfo({"cpu", "14.3-RELEASE", "abc"}));
  return c;
}

TEST(Rules, ContainerCleanInBothByteOrdersWithStaleReservedBytes) {
  for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
    auto c = amd64(o);
    c.infos[0].reserved8 = 0xA5;  // uninitialised in the recorder: never checked
    c.infos[0].reserved32 = 0xDEADBEEF;
    c.infos[0].payload[10] = 0x7F;  // after the NUL of "cpu"
    const auto r = check_container(c, true, [](auto&) {});
    EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
  }
}

TEST(Rules, ContainerRules) {
  struct K {
    const char* id;
    uint64_t offset;
    std::function<void(pmclog::Container&)> edit;
    bool done;
    std::function<void(std::vector<uint8_t>&)> patch;
    bool with_log;
  };
  const auto none = [](std::vector<uint8_t>&) {};
  const auto keep = [](pmclog::Container&) {};
  const K cases[] = {
      {"container-truncated", 0, keep, true, [](auto& b) { b.resize(5); }, false},
      {"container-past-end", 8, keep, true, [](auto& b) { b.resize(100); }, false},
      {"container-no-done", 208, keep, false, none, false},
      {"container-version", 4, keep, true, [](auto& b) { b[4] = 1; }, true},
      {"container-sysinfo-length", 8,
       [](auto& c) { c.infos[0].payload.resize(100); }, true, none, true},
      {"container-cpuid-length", 208,
       [](auto& c) { c.infos.push_back(pmclog::ContainerInfo{0, 3, 0, 0, {1, 2, 3}}); }, true, none, true},
      {"container-pmcinfo-length", 208,
       [](auto& c) { c.infos.push_back(pmclog::ContainerInfo{0, 2, 0, 0, {1, 2}}); }, true, none, true},
      {"container-done-length", 208,
       [](auto& c) { c.infos.push_back(pmclog::ContainerInfo{0, 0, 0, 0, {0, 0, 0, 0}}); }, false, none, true},
      {"container-arch", 6, [](auto& c) { c.arch = 77; }, true, none, true},
      {"container-unknown-info", 208,
       [](auto& c) { c.infos.push_back(pmclog::ContainerInfo{0, 42, 0, 0, {9}}); }, true, none, true},
  };
  for (const K& k : cases) {
    SCOPED_TRACE(k.id);
    auto c = amd64();
    k.edit(c);
    const auto r = check_container(c, k.done, k.patch, k.with_log);
    EXPECT_EQ(rule_ids(r), (V{k.id})) << dump(r);
    if (!r.diagnostics.empty()) {
      EXPECT_EQ(r.diagnostics[0].offset, k.offset);
      EXPECT_NE(r.diagnostics[0].message.find("offset " + std::to_string(k.offset)),
                std::string::npos) << r.diagnostics[0].message;
    }
  }
}

TEST(Rules, EveryRuleHasACraftedTest) {
  // Keeps this file honest when a rule is added: each id below has a TEST that triggers it.
  const V tested = {"not-a-log", "bad-magic", "length-below-header", "length-unaligned",
                    "length-below-minimum", "length-above-maximum", "callchain-misaligned",
                    "truncated", "trailing-garbage", "compressed-damaged", "unknown-type",
                    "type-never-written",
                    "mappingchange-l1", "dropnotify", "foreign-generation",
                    "unterminated-string", "path-too-long", "nonzero-pad",
                    "nonzero-unwritten", "callchain-too-deep", "callchain-deep-for-era",
                    "callchain-empty", "multipart-damaged", "multipart-after-none",
                    "multipart-unknown-part", "multipart-ibs-length", "cpu-out-of-range", "nsec-out-of-range",
                    "event-unknown-to-libpmc", "first-not-initialize", "duplicate-initialize", "version-mismatch",
                    "record-after-closelog", "missing-closelog", "pmcid-never-allocated",
                    "pmcid-allocated-later", "sample-after-exit", "map-out-without-map-in",
                    "time-backwards", "container-truncated", "container-past-end",
                    "container-no-done", "container-version", "container-sysinfo-length",
                    "container-cpuid-length", "container-pmcinfo-length", "container-done-length",
                    "container-arch", "container-unknown-info"};
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
  b.set_length(x.userdata, 12);  // USERDATA is 16 bytes in L3 (format.md §7)
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

// A gzip stream cut short: the records it held are checked, then one error where the
// decompressed data stops (no missing-closelog on top: the tail is lost, not absent).
TEST(Rules, CompressedDamaged) {
  LogBuilder b(l3());
  build_valid(b);
  const pmclog_test::ScratchDir d;
  const std::string base = d.file("log.pmclog");
  pmclog_test::write_file(base, b.bytes());
  const pmclog_test::Ran packed = pmclog_test::run({"gzip", "-c", base});
  ASSERT_EQ(packed.status, 0) << packed.err;
  std::string gz = packed.out;
  gz.resize(gz.size() - 12);  // the trailer and some deflate data
  pmclog_test::write_file(base + ".gz", gz);
  const auto r = pmclog::validate::validate_file(base + ".gz", {}, pedantic());
  EXPECT_FALSE(r.io_error) << r.io_message;
  ASSERT_EQ(rule_ids(r), V{"compressed-damaged"}) << dump(r);
  EXPECT_EQ(r.errors, 1u);
  EXPECT_GE(r.diagnostics[0].offset, r.bytes);  // where decompression stopped
  EXPECT_NE(r.diagnostics[0].message.find("gzip: "), std::string::npos) << dump(r);
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
  // A legacy 64-bit MAP_OUT (32 bytes) is not the 40-byte modern MAP_OUT (format.md §7, §8).
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

// main's MAP_IN pad word begins with pl_pageshift (format.md §16): a kernel may set that
// byte; the other three stay explicit zeros, and stable/12 (M9) writes the whole word as 0.
TEST(Rules, NonzeroPadLeavesTheM10PageshiftByteAlone) {
  for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
    for (uint8_t w : {4, 8}) {
      const Abi m10 = Abi::make(Generation::M10, w, o);
      SCOPED_TRACE(describe(m10));
      {
        LogBuilder b(m10);
        const auto x = build_valid(b);
        b.bytes()[b.offset(x.map_libm) + 20] = 12;  // 4 KiB pages
        const auto r = check(b, pedantic());
        EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
      }
      for (size_t at : {21, 22, 23}) {
        LogBuilder b(m10);
        const auto x = build_valid(b);
        b.bytes()[b.offset(x.map_libm) + 20] = 12;
        b.bytes()[b.offset(x.map_libm) + at] = 1;
        const auto r = check(b);
        EXPECT_EQ(rule_ids(r), V{"nonzero-pad"}) << at << "\n" << dump(r);
      }
      LogBuilder b(Abi::make(Generation::M9, w, o));
      const auto x = build_valid(b);
      b.bytes()[b.offset(x.map_libm) + 20] = 12;
      const auto r = check(b);
      EXPECT_EQ(rule_ids(r), V{"nonzero-pad"}) << dump(r);
    }
  }
}

TEST(Rules, UnterminatedPathOfAnM10ProcexecIsNotAForeignGeneration) {
  // Read with the M9 layout, the path starts one address earlier, in the second (zero)
  // address, and so "ends" at once; the right diagnosis is still the M10 one.
  for (ByteOrder o : {ByteOrder::little, ByteOrder::big}) {
    for (uint8_t w : {4, 8}) {
      const Abi m10 = Abi::make(Generation::M10, w, o);
      LogBuilder b(m10);
      const auto x = build_valid(b);
      const size_t start = b.offset(x.exec), end = start + b.length(x.exec);
      const std::string path = "/usr/bin/yes";
      const auto at = std::search(b.bytes().begin() + static_cast<long>(start),
                                  b.bytes().begin() + static_cast<long>(end), path.begin(),
                                  path.end());
      ASSERT_NE(at, b.bytes().begin() + static_cast<long>(end));
      std::fill(at + static_cast<long>(path.size()), b.bytes().begin() + static_cast<long>(end),
                'x');  // the NUL and the padding
      const auto r = check(b);
      EXPECT_EQ(rule_ids(r), V{"unterminated-string"}) << describe(m10) << "\n" << dump(r);
      if (!r.diagnostics.empty()) {
        EXPECT_EQ(r.diagnostics[0].offset, start);
      }
    }
  }
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
  b.set_word(x.map_libm, 20, 0x5A5A5A5A);  // modern MAP_IN pad word (format.md §8)
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"nonzero-pad"}) << dump(r);
}

TEST(Rules, NonzeroUnwrittenOnlyWhenPedantic) {
  LogBuilder b(m9());
  const auto x = build_valid(b);
  b.set_word(x.userdata, 4, 0xA5A5A5A5);  // pl_spare: stale bytes in real logs (format.md §5)
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

// Boundaries: the era warning starts at 33 frames in L3 (10.2 raised 32 to 128), and every
// generation's limit itself is clean while one frame more is callchain-too-deep.
TEST(Rules, CallchainDeepForEraStartsAt33) {
  for (uint32_t n : {32u, 33u}) {
    SCOPED_TRACE(n);
    LogBuilder b(l3());
    build_valid(b, false);
    b.sample(kPid, process_pmcid(Generation::L3), std::vector<uint64_t>(n, 0x401000));
    b.simple(Kind::closelog);
    const auto r = check(b, pedantic());
    EXPECT_EQ(rule_ids(r), n == 32 ? V{} : V{"callchain-deep-for-era"}) << dump(r);
  }
}

TEST(Rules, CallchainTooDeepAtTheLimitOfEveryGeneration) {
  struct Case { Generation g; uint32_t limit; };
  for (const Case& c : {Case{Generation::L2, 32}, Case{Generation::L3, 128},
                        Case{Generation::M9, 512}, Case{Generation::M10, 512}}) {
    for (uint32_t n : {c.limit, c.limit + 1}) {
      SCOPED_TRACE(std::string(pmclog::generation_name(c.g)) + " " + std::to_string(n));
      LogBuilder b(Abi::make(c.g, 8, ByteOrder::little));
      build_valid(b, false);
      b.sample(kPid, process_pmcid(c.g), std::vector<uint64_t>(n, 0x401000), 1, false);
      b.simple(Kind::closelog);
      const auto r = check(b);
      EXPECT_EQ(rule_ids(r), n == c.limit ? V{} : V{"callchain-too-deep"}) << dump(r);
    }
  }
}

TEST(Rules, CallchainEmpty) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.sample(kPid, process_pmcid(Generation::M9), {});
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), V{"callchain-empty"}) << dump(r);
}

// --- multipart callchains (format.md §17) ------------------------------------------------

// A multipart sample: the slots built from (type, slots) parts, cpuflags' 0x02 set.
size_t multipart_sample(LogBuilder& b, std::vector<pmclog::PartSpec> spec,
                        std::array<uint8_t, 8>* raw_header = nullptr) {
  const Abi& abi = b.abi();
  std::vector<uint64_t> pcs = pmclog::build_multipart(abi.byte_order, abi.address_width, spec);
  if (raw_header) pmclog::header_slots(abi.byte_order, abi.address_width, *raw_header, pcs.data());
  const size_t rec = b.sample(kPid, process_pmcid(abi.generation), pcs);
  b.set_word(rec, 28, b.word(rec, 28) | pmclog::kCallchainMultipart);  // modern cpuflags
  return rec;
}

std::vector<Abi> multipart_abis() {
  return {Abi::make(Generation::M10, 8, ByteOrder::little), Abi::make(Generation::M10, 8, ByteOrder::big),
          Abi::make(Generation::M10, 4, ByteOrder::little), Abi::make(Generation::M10, 4, ByteOrder::big)};
}

TEST(Rules, MultipartWellFormedIsClean) {
  for (const Abi& abi : multipart_abis()) {
    LogBuilder b(abi);
    build_valid(b, false);
    const uint32_t per = pmclog::slots_per_u64(abi.address_width);
    multipart_sample(b, {{3, std::vector<uint64_t>(8 * per, 1)}, {1, {0x401000, 0x401200}}});
    multipart_sample(b, {{2, std::vector<uint64_t>(4 * per, 1)}, {1, {0x401000}}});
    multipart_sample(b, {{4, std::vector<uint64_t>(4 * per, 1)}, {1, {0x401000}}});
    b.simple(Kind::closelog);
    const auto r = check(b);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(abi) << "\n" << dump(r);
  }
}

TEST(Rules, MultipartDamagedIsThatRecordsError) {
  for (const Abi& abi : multipart_abis()) {
    LogBuilder b(abi);
    build_valid(b, false);
    std::array<uint8_t, 8> h{1, 200, 0, 0, 0, 0, 0, 0};  // a CALLCHAIN part of 200 slots
    const size_t bad = multipart_sample(b, {{1, {0x401000, 0x401200}}}, &h);
    b.sample(kPid, process_pmcid(abi.generation));  // still read and checked
    b.simple(Kind::closelog);
    const auto r = check(b);
    ASSERT_EQ(rule_ids(r), V{"multipart-damaged"}) << describe(abi) << "\n" << dump(r);
    EXPECT_EQ(r.diagnostics.at(0).offset, b.offset(bad));
    EXPECT_NE(r.diagnostics.at(0).message.find("part 0 (callchain, 200 slots"), std::string::npos)
        << r.diagnostics.at(0).message;
    EXPECT_EQ(r.records, b.count());
  }
}

TEST(Rules, MultipartAfterNoneUnknownPartAndIbsLength) {
  for (const Abi& abi : multipart_abis()) {
    LogBuilder b(abi);
    build_valid(b, false);
    std::array<uint8_t, 8> h{1, 1, 0, 0, 0, 7, 0, 0};
    multipart_sample(b, {{1, {0x401000}}}, &h);
    multipart_sample(b, {{9, {1, 2, 3}}, {1, {0x401000}}});
    multipart_sample(b, {{3, std::vector<uint64_t>(7, 1)}, {1, {0x401000}}});
    b.simple(Kind::closelog);
    const auto r = check(b);
    EXPECT_EQ(rule_ids(r), (V{"multipart-after-none", "multipart-unknown-part", "multipart-ibs-length"}))
        << describe(abi) << "\n" << dump(r);
  }
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
  b.pmcallocate(0x09000701);  // legacy layout I: cpu 9, system mode (format.md §9.3)
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

// A log of `abi` whose INITIALIZE gives `cputype`, then `allocs`, then CLOSELOG.
struct Allocating {
  LogBuilder b;
  std::vector<size_t> recs;
};
Allocating allocating(Abi abi, uint32_t cputype, const std::vector<RecordValue>& allocs) {
  Allocating a{LogBuilder(abi), {}};
  const size_t init = a.b.initialize();
  a.b.set_word(init, abi.header_size() + 4, cputype);  // INITIALIZE: version, then cputype
  for (const RecordValue& v : allocs) a.recs.push_back(a.b.add(v));
  a.b.simple(Kind::closelog);
  return a;
}

RecordValue alloc(uint32_t code, uint32_t flags = 0x20080, Kind k = Kind::pmcallocate,
                  std::string name = "") {
  RecordValue v;
  v.kind = k;
  v[Field::pmcid] = 0x02000701;
  v[Field::event] = code;
  v[Field::flags] = flags;
  v.text = std::move(name);
  return v;
}

// libpmc names a PMCALLOCATE's event through its era's tables and stops parsing the whole
// log when it cannot (format.md §12.1). The codes below and what libpmc does with them come from
// format.md §12.1 and pmc_events.h, not from the table under test.
TEST(Rules, EventUnknownToLibpmc) {
  struct Case {
    Generation g;
    uint32_t cputype;
    uint32_t code, flags;
    bool named;
  };
  const Case cases[] = {
      {Generation::L3, 0x8B, 0x1008C, 0x20080, true},    // SB_DRAIN.ANY: Core i7's alias table
      {Generation::L3, 0x91, 0x1008C, 0x20080, false},   // IAP, but no Haswell alias here
      {Generation::L3, 0x300, 0x1008C, 0x20080, false},  // IAP under a PowerPC cputype
      {Generation::L3, 0x91, 0x10000, 0x20080, true},    // IAF: named whatever the CPU
      {Generation::L3, 0x300, 0x2098, 0x20080, true},    // K8 block: whatever the CPU
      {Generation::L2, 0x8C, 0x10003, 0x20080, false},   // past the three IAF events
      {Generation::L2, 0x8B, 0x10148, 0x20080, true},    // unhalted-core-cycles (Core i7)
      {Generation::M9, 0x98, 0x10000, 0x20080, false},   // 12.x has no static IAF table
      {Generation::M9, 0x01, 0x2098, 0x20080, true},     // BU_CPU_CLK_UNHALTED
      {Generation::M9, 0x01, 0x202E, 0x20080, false},    // K7 has 23 events: 0x2000..0x2016
      {Generation::M10, 0x9C, 0x1000, 0x4, true},        // TSC ("cycles" in main)
      {Generation::M10, 0x9C, 0x10000, 0x20080, false},
      {Generation::M10, 0x9C, 0x10000, 0x20280, true},   // EV_PMU: a pmu-events index, not judged
      {Generation::L1, 0x08, 0x1000, 0x20000, true},
      {Generation::L1, 0x08, 0x10000, 0x20000, false},
  };
  for (const Case& c : cases) {
    const Abi abi = Abi::make(c.g, 8, ByteOrder::little);
    SCOPED_TRACE(describe(abi) + " cputype " + std::to_string(c.cputype) + " code " +
                 std::to_string(c.code));
    Allocating a = allocating(abi, c.cputype, {alloc(c.code, c.flags), alloc(0x1000)});
    const auto r = check(a.b);
    EXPECT_EQ(r.records, a.b.count()) << "decoding goes on past the record";
    if (c.named) {
      EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
      continue;
    }
    ASSERT_EQ(rule_ids(r), V{"event-unknown-to-libpmc"}) << dump(r);
    const auto& d = r.diagnostics[0];
    EXPECT_EQ(d.offset, a.b.offset(a.recs[0]));
    EXPECT_EQ(d.severity, pmclog::validate::Severity::warning);
    EXPECT_EQ(r.errors, 0u);
    EXPECT_NE(d.message.find("pmcstat stops here"), std::string::npos) << d.message;
  }
}

TEST(Rules, EventUnknownToLibpmcSoftEventsAreNamedByTheLog) {
  for (Generation g : {Generation::L3, Generation::M9, Generation::M10}) {
    const Abi abi = Abi::make(g, 8, ByteOrder::little);
    SCOPED_TRACE(describe(abi));
    // A PMCALLOCATEDYN carries its own name: libpmc looks nothing up, whatever the code.
    Allocating dyn = allocating(abi, 0x8B, {alloc(0x20005, 0x20080, Kind::pmcallocatedyn, "PAGE_FAULT.ALL"),
                                            alloc(0x10003, 0, Kind::pmcallocatedyn, "X"),
                                            alloc(0x20005)});  // named by the log above
    EXPECT_TRUE(check(dyn.b).diagnostics.empty()) << dump(check(dyn.b));
    Allocating unnamed = allocating(abi, 0x8B, {alloc(0x20007)});
    EXPECT_EQ(rule_ids(check(unnamed.b)), V{"event-unknown-to-libpmc"}) << dump(check(unnamed.b));
  }
}

TEST(Rules, EventUnknownToLibpmcBeforeAnyInitialize) {
  // No INITIALIZE: no cputype, so no alias table names an IAP code (libpmc's is unset).
  LogBuilder b(l3());
  const size_t a = b.add(alloc(0x1008C));
  b.simple(Kind::closelog);
  const auto r = check(b);
  EXPECT_EQ(rule_ids(r), (V{"first-not-initialize", "event-unknown-to-libpmc"})) << dump(r);
  if (r.diagnostics.size() == 2) {
    EXPECT_EQ(r.diagnostics[1].offset, b.offset(a));
  }
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
    EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));  // pedantic only
    const auto r = check(b, pedantic());
    if (abi.legacy()) {
      EXPECT_EQ(rule_ids(r), V{"record-after-closelog"}) << dump(r);
    } else {
      EXPECT_TRUE(r.diagnostics.empty()) << dump(r);  // per-CPU flush order (format.md §3.4)
    }
  }
}

TEST(Rules, MissingCloselog) {
  LogBuilder b(l3());
  build_valid(b, false);
  // No real FreeBSD log ends with CLOSELOG: pedantic only.
  EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));
  const auto r = check(b, pedantic());
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
  // Real kernels write such logs (the lost-record bug, dropped records: format.md §3.4).
  EXPECT_EQ(r.diagnostics[0].severity, pmclog::validate::Severity::warning);
  EXPECT_EQ(r.errors, 0u);
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
  EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));  // pedantic only
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"sample-after-exit"}) << dump(r);
}

TEST(Rules, ForkAfterExitClearsTheExit) {
  LogBuilder b(m9());
  build_valid(b, false);
  b.procfork(kPid, kChild);  // pid reused
  b.sample(kChild, process_pmcid(Generation::M9));
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b, pedantic()).diagnostics.empty()) << dump(check(b, pedantic()));
}

TEST(Rules, MapOutWithoutMapIn) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.map_out(kPid, 0x12340000, 0x12350000);
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));  // pedantic only
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"map-out-without-map-in"}) << dump(r);
}

TEST(Rules, TimeBackwards) {
  LogBuilder b(l3());
  build_valid(b, false);
  b.legacy_time(1600000000u, 5);
  b.simple(Kind::closelog);
  EXPECT_TRUE(check(b).diagnostics.empty()) << dump(check(b));  // pedantic only
  const auto r = check(b, pedantic());
  EXPECT_EQ(rule_ids(r), V{"time-backwards"}) << dump(r);
}

TEST(Rules, TimeBackwardsAllowsThe28BitNanosecondWrap) {
  LogBuilder b(l3());
  build_valid(b, false);
  // 1800000000.268435455 then .268435456: stored as 0x0FFFFFFF then 0 (format.md §3.2), not backwards.
  b.legacy_time(1800000000u, 0x0FFFFFFF);
  b.legacy_time(1800000000u, 1);
  // Within one second a smaller stored value can always be a later true value (it stands
  // for value + k * 2^28, k up to 3), so only a smaller second is surely backwards.
  b.legacy_time(1800000001u, 0x0F000000);
  b.legacy_time(1800000001u, 0x0E000000);
  b.simple(Kind::closelog);
  const auto r = check(b, pedantic());
  EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
}

TEST(Rules, DisableTurnsARuleOff) {
  LogBuilder b(l3());
  build_valid(b, false);
  Config cfg = pedantic();
  EXPECT_FALSE(check(b, cfg).diagnostics.empty());
  cfg.set(pmclog::validate::Rule::missing_closelog, false);
  EXPECT_TRUE(check(b, cfg).diagnostics.empty());
}

}  // namespace
}  // namespace validate_test
