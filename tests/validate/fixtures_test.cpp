// Every committed fixture validates without errors: the codec's logs of every generation x
// width x byte order, and the golden logs written by FreeBSD's own writer code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "config.h"
#include "log_builder.h"
#include "scan.h"

namespace validate_test {
namespace {

namespace fs = std::filesystem;
using pmclog::validate::Config;
using pmclog::validate::FileResult;

std::vector<fs::path> logs_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".pmclog") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::multiset<std::string> ids(const FileResult& r) {
  auto v = rule_ids(r);
  return {v.begin(), v.end()};
}

TEST(Fixtures, EveryAbiFixtureHasNoErrors) {
  const auto files = logs_in(PMCLOG_FIXTURES_DIR);
  // <gen>-<32|64>-<le|be>.pmclog for L1 L2 L3 M9 M10 (tests/codec/make_fixtures.cpp).
  ASSERT_GE(files.size(), 20u);
  // These fixtures exercise every record type, so they carry the record kinds that real
  // kernels write rarely or never; those rules are warnings, and nothing else may fire (in
  // particular not event-unknown-to-libpmc: pmcstat must read every fixture to its end).
  const std::set<std::string> allowed = {"dropnotify", "mappingchange-l1",
                                         "pmcid-allocated-later"};
  for (const auto& f : files) {
    for (bool pedantic : {false, true}) {
      const FileResult r = validate_file(f.string(), {}, Config::defaults(pedantic, {}));
      EXPECT_FALSE(r.io_error) << f;
      EXPECT_EQ(r.errors, 0u) << f << "\n" << dump(r);
      for (const auto& id : rule_ids(r)) EXPECT_TRUE(allowed.count(id)) << f << ": " << id;
      EXPECT_EQ(r.bytes, fs::file_size(f)) << f;
    }
  }
}

TEST(Fixtures, AbiFixturesAreCleanWithoutTheRareKindRules) {
  Config cfg = Config::defaults(true, {});
  cfg.set(pmclog::validate::Rule::dropnotify, false);
  cfg.set(pmclog::validate::Rule::mappingchange_l1, false);
  for (const auto& f : logs_in(PMCLOG_FIXTURES_DIR)) {
    const std::string name = f.filename().string();
    const FileResult r = validate_file(f.string(), {}, cfg);
    if (name.rfind("L1-", 0) == 0) {
      // The L1 fixtures sample before the PMCALLOCATE (allowed out of order, a warning).
      EXPECT_EQ(ids(r), std::multiset<std::string>{"pmcid-allocated-later"}) << f << dump(r);
    } else {
      EXPECT_TRUE(r.diagnostics.empty()) << f << "\n" << dump(r);
    }
  }
}

TEST(Fixtures, GoldenLogsGiveExactlyTheExpectedFindings) {
  // The golden logs drive FreeBSD's writer functions one by one with chosen values: their
  // CALLCHAINs name pmc ids that no PMCALLOCATE in the file allocates (see the
  // .expected.txt files), they contain a DROPNOTIFY, and unmap a range of another pid.
  // Everything else, byte for byte from the kernel's writer, must be clean, even pedantic;
  // and a kernel's own bytes are never an error (their findings are all warnings). The
  // unmapping is normal operation (a partial munmap looks the same), so pedantic only.
  const std::multiset<std::string> expected = {
      "pmcid-never-allocated", "pmcid-never-allocated", "pmcid-never-allocated",
      "pmcid-never-allocated", "dropnotify"};
  std::multiset<std::string> expected_pedantic = expected;
  expected_pedantic.insert("map-out-without-map-in");
  const auto files = logs_in(fs::path(PMCLOG_FIXTURES_DIR) / "golden");
  ASSERT_EQ(files.size(), 2u);
  for (const auto& f : files) {
    for (bool pedantic : {false, true}) {
      const FileResult r = validate_file(f.string(), {}, Config::defaults(pedantic, {}));
      EXPECT_EQ(ids(r), pedantic ? expected_pedantic : expected) << f << "\n" << dump(r);
      EXPECT_EQ(r.errors, 0u) << f << "\n" << dump(r);
      EXPECT_EQ(r.bytes, fs::file_size(f));
    }
  }
}

}  // namespace
}  // namespace validate_test
