// Lossless: a log that decodes without error, turned into JSON Lines (the library's
// append_json, and pmclog-dump --format=jsonl when it is built) and back through
// pmclog-write, is byte-identical, stale bytes included, for every fixture and every ABI.
#include <gtest/gtest.h>

#include "pmclog/json.h"
#include "pmclog/open.h"
#include "pmclog/reader.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

std::vector<fs::path> fixtures() {
  std::vector<fs::path> v;
  for (const char* sub : {"golden", ""}) {
    const fs::path dir = fs::path(PMCLOG_FIXTURES_DIR) / sub;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".pmclog") v.push_back(e.path());
  }
  std::sort(v.begin(), v.end());
  return v;
}

// JSON Lines of a log through the library; empty optional when the log has a decode error.
std::optional<std::string> to_jsonl(const fs::path& log, Abi& abi) {
  auto opened = open_log(log.string());
  if (!opened.ok()) return std::nullopt;
  abi = opened->detection.abi;
  std::string out;
  Record r;
  Error err;
  for (Step s; (s = opened->reader->next(r, err)) != Step::end;) {
    if (s == Step::error) return std::nullopt;
    append_json(r, abi, out);
    out += '\n';
  }
  return out;
}

// No ABI options: the INITIALIZE line carries byte_order, address_width and time_width
// (docs/jsonl.md), so the JSON Lines alone must give every log back.
std::vector<std::string> abi_flags(const Abi&) { return {}; }

// False when the log does not decode cleanly (the promise covers only clean logs).
bool expect_round_trip_via_library(const fs::path& log) {
  ScratchDir d;
  Abi abi;
  const auto jsonl = to_jsonl(log, abi);
  if (!jsonl) return false;
  write_file(d / "in.jsonl", *jsonl);
  const Ran r = run(concat({{write_bin(), "-q"}, abi_flags(abi), {d / "in.jsonl", "-o", d / "out.pmclog"}}));
  EXPECT_EQ(r.status, 0) << log << ": " << r.err;
  EXPECT_TRUE(slurp_bytes(d / "out.pmclog") == slurp_bytes(log)) << log << " does not come back exact";
  return true;
}

TEST(RoundTrip, EveryFixtureThroughLibraryJson) {
  const auto files = fixtures();
  ASSERT_GE(files.size(), 2u);  // golden; plus fixtures/<gen>-<32|64>-<le|be>.pmclog
  size_t clean = 0;
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    clean += expect_round_trip_via_library(f);
  }
  // The golden logs and the per-ABI fixtures all decode cleanly.
  EXPECT_EQ(clean, files.size());
}

TEST(RoundTrip, EveryFixtureThroughPmclogDump) {
#ifndef PMCLOG_DUMP_BIN
  GTEST_SKIP() << "pmclog-dump is not built";
#else
  for (const fs::path& f : fixtures()) {
    SCOPED_TRACE(f.string());
    ScratchDir d;
    auto opened = open_log(f.string());
    ASSERT_TRUE(opened.ok());
    const Abi abi = opened->detection.abi;
    const Ran dump = run({PMCLOG_DUMP_BIN, "--format=jsonl", f});
    const Ran r = run(concat({{write_bin(), "-q"}, abi_flags(abi), {"-", "-o", d / "out.pmclog"}}),
                      stdin_piped(dump.out));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(slurp_bytes(d / "out.pmclog") == slurp_bytes(f)) << f << " does not come back exact";
  }
#endif
}

// Stale bytes (format.md §5): the spare word of every modern header and the padding after
// each path, filled with 0xA5 as a reused kernel buffer would leave them.
TEST(RoundTrip, StaleBytesComeBack) {
  ScratchDir d;
  const fs::path src = fs::path(PMCLOG_FIXTURES_DIR) / "golden" / "modern-lp64-le.pmclog";
  auto bytes = slurp_bytes(src);
  ASSERT_FALSE(bytes.empty());
  auto opened = open_log(src.string());
  ASSERT_TRUE(opened.ok());
  std::vector<std::pair<uint64_t, size_t>> spans;  // record offset, length
  Record r;
  Error err;
  size_t paths = 0;
  while (opened->reader->next(r, err) == Step::record) {
    for (int i = 4; i < 8; ++i) bytes[r.offset + i] = 0xA5;
    if (r.layout && r.layout->has(Field::path)) {
      const size_t end = r.layout->find(Field::path)->offset + r.text.size() + 1;
      for (size_t i = end; i < r.raw.size(); ++i) bytes[r.offset + i] = 0xA5, ++paths;
    }
  }
  EXPECT_GT(paths, 0u);
  write_file(d / "stale.pmclog", std::string(bytes.begin(), bytes.end()));
  EXPECT_TRUE(expect_round_trip_via_library(d / "stale.pmclog"));
}

// A damaged log's --keep-going dump leaves the damaged record out, so writing the dump back
// gives the salvage: exactly the log's bytes without that record's, which decode cleanly.
TEST(RoundTrip, AKeepGoingDumpOfADamagedLogWritesItsSalvage) {
#ifndef PMCLOG_DUMP_BIN
  GTEST_SKIP() << "pmclog-dump is not built";
#else
  for (const char* name : {"L1-32-le", "L3-64-be", "M10-64-le", "M9-32-be"}) {
    SCOPED_TRACE(name);
    ScratchDir d;
    const fs::path src = fs::path(PMCLOG_FIXTURES_DIR) / (std::string(name) + ".pmclog");
    auto opened = open_log(src.string());
    ASSERT_TRUE(opened.ok());
    const Abi abi = opened->detection.abi;
    Record r;
    Error err;
    for (int i = 0; i < 3; ++i) ASSERT_EQ(opened->reader->next(r, err), Step::record);
    const size_t at = r.offset, len = r.raw.size();
    // The third record's magic byte: the header word's top byte, first in a big-endian file.
    auto bytes = slurp_bytes(src);
    bytes[at + (abi.byte_order == ByteOrder::big ? 0 : 3)] ^= 0xFF;
    write_file(d / "damaged.pmclog", std::string(bytes.begin(), bytes.end()));
    const Ran dump = run({PMCLOG_DUMP_BIN, "-k", "--format=jsonl", d / "damaged.pmclog"});
    EXPECT_EQ(dump.status, 1) << dump.err;
    EXPECT_NE(dump.err.find("offset " + std::to_string(at)), std::string::npos) << dump.err;
    const Ran w = run({write_bin(), "-q", "-", "-o", d / "salvage.pmclog"}, stdin_piped(dump.out));
    ASSERT_EQ(w.status, 0) << w.err;
    bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                bytes.begin() + static_cast<std::ptrdiff_t>(at + len));
    EXPECT_TRUE(slurp_bytes(d / "salvage.pmclog") == bytes) << "not the log less the record";
    const Ran again = run({PMCLOG_DUMP_BIN, "--format=jsonl", d / "salvage.pmclog"});
    EXPECT_EQ(again.status, 0) << again.err;
  }
#endif
}

// Synthetic logs of every ABI, through the same path.
TEST(RoundTrip, SynthLogsOfEveryAbi) {
  for (const char* g : {"L1", "L2", "L3", "M9", "M10"})
    for (const char* w : {"4", "8"})
      for (const char* b : {"little", "big"}) {
        SCOPED_TRACE(std::string(g) + " " + w + " " + b);
        ScratchDir d;
        const Ran s = run({write_bin(), "synth", "-q", "-n", "1500", "--seed", "9", "--generation", g,
                           "--address-width", w, "--byte-order", b, "-o", d / "s.pmclog"});
        ASSERT_EQ(s.status, 0) << s.err;
        EXPECT_TRUE(expect_round_trip_via_library(d / "s.pmclog"));
      }
}

}  // namespace
}  // namespace pmclog::write_test
