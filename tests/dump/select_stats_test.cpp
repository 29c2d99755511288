// Selection options (combinable) and --stats, on the golden L3 log whose records are listed
// in fixtures/golden/seed-lp64-le.expected.txt.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_tool.h"

using namespace dumptest;

namespace {

const std::string kSeed = fixture("golden/seed-lp64-le.pmclog");

// Offsets of the records printed by a jsonl run.
std::vector<uint64_t> offsets(const std::vector<std::string>& args) {
  std::vector<std::string> a = {"--format=jsonl"};
  a.insert(a.end(), args.begin(), args.end());
  a.push_back(kSeed);
  const Ran r = run_dump(a);
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<uint64_t> v;
  for (const auto& l : lines(r.out)) v.push_back(nlohmann::json::parse(l).at("offset").get<uint64_t>());
  return v;
}

using V = std::vector<uint64_t>;

}  // namespace

TEST(Select, ByType) {
  EXPECT_EQ(offsets({"--type", "callchain"}), (V{20, 52, 140, 420}));
  EXPECT_EQ(offsets({"--type", "map-out,userdata"}), (V{4752, 5380}));
  EXPECT_EQ(offsets({"-t", "PMCALLOCATEDYN", "-t", "closelog"}), (V{4880, 4968, 5056, 5396}));
}

TEST(Select, ByPidIncludingForkAndNegative) {
  EXPECT_EQ(offsets({"--pid", "0x55550001"}), (V{5144, 5180}));         // attach, detach
  EXPECT_EQ(offsets({"--pid", "1145307138"}), (V{5344}));               // newpid of PROCFORK
  EXPECT_EQ(offsets({"--pid", "-1"}), (V{420}));                         // the kernel callchain
}

TEST(Select, ByPmcidAndCpu) {
  EXPECT_EQ(offsets({"--pmcid", "0x04030708"}), (V{5144, 5180}));
  // cpu of CALLCHAIN cpuflags; cpu field of system-mode pmc ids (layout I: bits 31..24)
  EXPECT_EQ(offsets({"--type", "callchain", "--cpu", "254"}), (V{52}));
  EXPECT_EQ(offsets({"--type", "pmcallocate", "--cpu", "10"}), (V{4784}));
}

TEST(Select, ByOffsetRangeAndHeadCombined) {
  EXPECT_EQ(offsets({"--from-offset", "4784", "--to-offset", "4880"}), (V{4784, 4808, 4832, 4856}));
  EXPECT_EQ(offsets({"--from-offset", "4784", "--to-offset", "4880", "--head", "2"}), (V{4784, 4808}));
  EXPECT_EQ(offsets({"--type", "callchain", "--from-offset", "0x34", "-n", "2"}), (V{52, 140}));
  EXPECT_EQ(offsets({"--head", "0"}), V{});
}

TEST(Select, DamageAfterToOffsetIsNotRead) {
  std::string b = slurp(kSeed);
  b.resize(5400);  // truncated CLOSELOG at 5396
  const std::string path = temp_dir() + "/select-cut.pmclog";
  write_file(path, b);
  const Ran r = run_dump({"--format=jsonl", "--to-offset", "5396", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 30u);
  EXPECT_EQ(r.err, "");
}

TEST(Stats, JsonSummary) {
  const Ran r = run_dump({"--stats", "--format=json", kSeed});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 31);
  EXPECT_EQ(j["bytes"], 5408);
  EXPECT_EQ(j["generation"], "L3");
  EXPECT_EQ(j["types"]["callchain"]["records"], 4);
  EXPECT_EQ(j["types"]["callchain"]["bytes"], 32 + 88 + 280 + 32);
  EXPECT_EQ(j["types"]["map-in"]["records"], 7);
  EXPECT_EQ(j["callchain_depths"], nlohmann::json::parse(R"({"1":2,"8":1,"32":1})"));
  EXPECT_EQ(j["samples"]["user"], 2);
  EXPECT_EQ(j["samples"]["kernel"], 2);
  EXPECT_EQ(j["drops"], 1);
  EXPECT_EQ(j["errors"].size(), 0u);
  EXPECT_EQ(j["time"]["first_ns"], 1700000000000000001ull);
  EXPECT_EQ(j["time"]["last_ns"], 4294967295194693631ull);
  bool found = false;
  for (const auto& p : j["pmcs"]) {
    if (p["pmcid"] == 0x01000703u) {
      EXPECT_EQ(p["name"], "SB_DRAIN.ANY");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(Stats, TextSummaryAndErrors) {
  std::string b = slurp(kSeed);
  b.resize(5400);
  const std::string path = temp_dir() + "/stats-cut.pmclog";
  write_file(path, b);
  const Ran r = run_dump({"--stats", path});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("records: 30 (5396 bytes)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("samples: 4 (2 user, 2 kernel)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("drop notifications: 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("errors: 1\n  record at offset 5396"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("offset 5396"), std::string::npos);
  const Ran j = run_dump({"--stats", "--format=json", path});
  EXPECT_EQ(j.status, 1);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["errors"][0]["offset"], 5396);
  EXPECT_EQ(doc["errors"][0]["code"], "truncated");
}
