// The JSON Lines form is lossless (docs/jsonl.md): for every record of every fixture, and of a
// log with stale bytes, append_json -> parse_json_record -> encode -> apply_patches gives the
// record's exact bytes back.
#include <gtest/gtest.h>

#include <filesystem>

#include "pmclog/json.h"
#include "pmclog/open.h"
#include "run_tool.h"

using namespace dumptest;
namespace fs = std::filesystem;

namespace {

void expect_roundtrip(const std::string& path) {
  SCOPED_TRACE(path);
  auto opened = pmclog::open_log(path);
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  auto& reader = *opened.value().reader;
  const pmclog::Abi abi = reader.abi();
  pmclog::Record r;
  pmclog::Error e;
  int n = 0;
  while (reader.next(r, e) == pmclog::Step::record) {
    std::string line;
    pmclog::append_json(r, abi, line);
    auto back = pmclog::parse_json_record(line, abi);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << line;
    std::vector<uint8_t> bytes;
    auto enc = pmclog::encode(back.value().value, abi, bytes, {.check_limits = false});
    ASSERT_TRUE(enc.ok()) << enc.error().message << "\n" << line;
    ASSERT_TRUE(pmclog::apply_patches(bytes, back.value().patches)) << line;
    EXPECT_EQ(std::vector<uint8_t>(r.raw.begin(), r.raw.end()), bytes) << line;
    ++n;
  }
  EXPECT_EQ(e.code, pmclog::Errc::none) << e.message;
  EXPECT_GT(n, 0);
}

}  // namespace

TEST(JsonlRoundTrip, EveryFixtureRecordComesBackByteForByte) {
  int files = 0;
  for (const auto* dir : {"golden", ""}) {
    for (const auto& ent : fs::directory_iterator(fs::path(PMCLOG_FIXTURES_DIR) / dir)) {
      if (ent.path().extension() != ".pmclog") continue;
      expect_roundtrip(ent.path().string());
      ++files;
    }
  }
  EXPECT_GE(files, 22);
}

TEST(JsonlRoundTrip, StaleBytesAreCarried) {
  std::string b = slurp(fixture("golden/modern-lp64-le.pmclog"));
  b.replace(4416 + 4, 4, "\xa5\xa5\xa5\xa5");  // DROPNOTIFY's spare word
  b.replace(9312 + 20, 4, "\x01\x02\x03\x04");  // SYSEXIT's pad word
  const std::string path = temp_dir() + "/stale.pmclog";
  write_file(path, b);
  expect_roundtrip(path);
  const Ran r = run_dump({"--format=jsonl", "--type", "sysexit", path});
  EXPECT_NE(r.out.find("\"unwritten\":[{\"at\":20,\"hex\":\"01020304\"}]"), std::string::npos) << r.out;
}
