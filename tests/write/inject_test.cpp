// --inject: every fault lands where the --inject-log listing says, the library's decoder
// reports the matching error at exactly those offsets, and pmclog-validate (when built)
// reports exactly the listed diagnostics.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "pmclog/detect.h"
#include "pmclog/reader.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

using Listing = std::vector<std::tuple<std::string, uint64_t, std::string>>;  // kind, offset, expect

Listing read_listing(const fs::path& p) {
  const auto j = nlohmann::json::parse(slurp(p), nullptr, false);
  EXPECT_TRUE(j.is_array()) << slurp(p);
  Listing l;
  if (!j.is_array()) return l;
  for (const auto& f : j)
    l.emplace_back(f["kind"].get<std::string>(), f["offset"].get<uint64_t>(),
                   f["expect"].is_string() ? f["expect"].get<std::string>() : "");
  return l;
}

// The decoder's error for each fault.
Errc errc_for(const std::string& kind) {
  if (kind == "truncate") return Errc::truncated;
  if (kind == "bad-magic") return Errc::bad_magic;
  if (kind == "bad-length") return Errc::length_wrong_size;
  if (kind == "unknown-type") return Errc::unknown_type;
  if (kind == "unterminated-string") return Errc::unterminated_string;
  if (kind == "overlong-callchain") return Errc::callchain_too_deep;
  return Errc::none;
}

// (error id, offset) of every decode error, going on past each one.
std::set<std::pair<int, uint64_t>> decode_errors(const std::vector<uint8_t>& bytes,
                                                 const Abi& abi) {
  std::set<std::pair<int, uint64_t>> out;
  LogReader reader = LogReader::over(bytes, abi);
  Record r;
  Error err;
  for (int guard = 0; guard < 1000000; ++guard) {
    const Step s = reader.next(r, err);
    if (s == Step::end) break;
    if (s == Step::record) continue;
    out.emplace(static_cast<int>(err.code), err.offset);
    if (err.code == Errc::truncated) break;
    if (!reader.skip()) reader.resync();
  }
  return out;
}

void check(const std::string& abi_args, const std::string& injects) {
  ScratchDir d;
  const fs::path log = d / "bad.pmclog", listing = d / "faults.json";
  const Ran r = run(concat({{write_bin(), "synth", "-q", "-n", "3000", "--seed", "21"},
                            words(abi_args + injects), {"--inject-log", listing, "-o", log}}));
  ASSERT_EQ(r.status, 0) << r.err;
  const Listing faults = read_listing(listing);
  ASSERT_FALSE(faults.empty());
  const auto bytes = slurp_bytes(log);
  AbiHint hint;  // detection from the INITIALIZE, which is never damaged
  auto det = detect_abi({bytes.data(), std::min<size_t>(bytes.size(), 1 << 20)}, hint);
  ASSERT_TRUE(det.ok()) << det.error().message;

  std::set<std::pair<int, uint64_t>> want;
  for (const auto& [kind, offset, expect] : faults) {
    ASSERT_LT(offset, bytes.size());
    if (errc_for(kind) != Errc::none) want.emplace(static_cast<int>(errc_for(kind)), offset);
  }
  EXPECT_EQ(decode_errors(bytes, det->abi), want) << slurp(listing);

#ifdef PMCLOG_VALIDATE_BIN
  // time-backwards is pedantic (a clock stepped back is normal): asked for by name.
  const Ran v =
      run({PMCLOG_VALIDATE_BIN, "--format", "json", "--enable", "time-backwards", log});
  EXPECT_EQ(v.status, 1) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << v.out;
  std::set<std::pair<std::string, uint64_t>> got, expected;
  bool truncated = false;
  for (const auto& [kind, offset, expect] : faults) {
    if (!expect.empty()) expected.emplace(expect, offset);
    truncated |= kind == "truncate";
  }
  for (const auto& diag : j["files"][0]["diagnostics"]) {
    const std::string rule = diag["rule"].get<std::string>();
    // A cut file also lost its CLOSELOG; a checker may say so too.
    if (truncated && rule == "missing-closelog") continue;
    got.emplace(rule, diag["offset"].get<uint64_t>());
  }
  EXPECT_EQ(got, expected) << v.out << "\n" << slurp(listing);
#endif
}

const std::string kEveryKind =
    " --inject unterminated-string@3000 --inject bad-magic@20000 --inject unknown-type@40000"
    " --inject bad-length@60000 --inject overlong-callchain@80000 --inject time-backwards@100000"
    " --inject truncate";

TEST(Inject, EveryKindAtItsOffsetLegacy) { check("--generation L3 --address-width 8 --byte-order little", kEveryKind); }
TEST(Inject, EveryKindAtItsOffsetLegacyBig32) { check("--generation L2 --address-width 4 --byte-order big", kEveryKind); }
TEST(Inject, EveryKindAtItsOffsetModern) {
  check("--generation M10 --cpu-buffer-size 8KiB", kEveryKind);
}
TEST(Inject, RatesAreDeterministic) {
  check("--generation M9", " --inject bad-magic:0.01 --inject unknown-type:0.005");
  ScratchDir d;
  const std::vector<std::string> synth = {write_bin(), "synth", "-q", "-n", "3000", "--inject",
                                          "bad-magic:0.01", "--seed", "4", "-o"};
  ASSERT_EQ(run(concat({synth, {d / "a", "--inject-log", d / "a.json"}})).status, 0);
  ASSERT_EQ(run(concat({synth, {d / "b", "--inject-log", d / "b.json"}})).status, 0);
  EXPECT_EQ(slurp(d / "a"), slurp(d / "b"));
  EXPECT_EQ(slurp(d / "a.json"), slurp(d / "b.json"));
  EXPECT_GT(read_listing(d / "a.json").size(), 5u);
}

// The JSON form takes --inject too: a hand-made log with a fault at a chosen place.
TEST(Inject, WorksOnJsonInput) {
  ScratchDir d;
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n"
       "{\"type\":\"procfork\",\"oldpid\":1,\"newpid\":2}\n"
       "{\"type\":\"sysexit\",\"pid\":2}\n"
       "{\"type\":\"closelog\"}\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "--inject", "unknown-type@20", "--inject-log",
                     d / "f.json", "-o", d / "out.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Listing l = read_listing(d / "f.json");
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(std::get<0>(l[0]), "unknown-type");
  EXPECT_EQ(std::get<1>(l[0]), 20u);  // INITIALIZE is 20 bytes: the PROCFORK is hit
  const auto bytes = slurp_bytes(d / "out.pmclog");
  ASSERT_EQ(bytes.size(), 20u + 20 + 16 + 12);
  EXPECT_EQ(bytes[20 + 2], 200);  // the type byte of a little-endian header word
}

TEST(Inject, BadSpecIsAUsageError) {
  ScratchDir d;
  const Ran r = run({write_bin(), "synth", "-n", "100", "--inject", "frobnicate", "-o", d / "x"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown fault kind"), std::string::npos) << r.err;
  const Ran r2 = run({write_bin(), "synth", "-n", "100", "--inject", "bad-magic:2", "-o", d / "x"});
  EXPECT_EQ(r2.status, 2);
  EXPECT_TRUE(fs::is_empty(d.path()));
}

}  // namespace
}  // namespace pmclog::write_test
