// docs/jsonl.md stays true to what the dump prints: every example line is valid JSON, and the
// lines taken from the committed fixtures equal the dump's line for that record.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "run_tool.h"

using namespace dumptest;

TEST(DocsJsonl, ExampleLinesAreWhatTheDumpPrints) {
  const std::string doc = slurp(std::string(PMCLOG_FIXTURES_DIR) + "/../docs/jsonl.md");
  ASSERT_NE(doc.find("## Examples"), std::string::npos);
  // The examples name their fixtures by generation (docs/jsonl.md, "Examples").
  const std::map<std::string, std::string> fixture_of = {
      {"L1", "L1-32-le"}, {"L3", "L3-64-le"}, {"M10", "M10-64-le"}, {"M9", "M9-64-le"}};
  std::map<std::string, std::map<uint64_t, std::string>> dumped;
  int compared = 0, parsed = 0;
  bool in_json = false;
  for (const auto& l : lines(doc.substr(doc.find("## Examples")))) {
    if (l == "```json") { in_json = true; continue; }
    if (l == "```") { in_json = false; continue; }
    if (!in_json) continue;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(l)) << l;
    ++parsed;
    if (j.contains("unwritten") || j["type"] == "unknown") continue;  // not from a fixture
    const std::string name = fixture_of.at(j["generation"].get<std::string>());
    if (!dumped.count(name)) {
      for (const auto& d : lines(run_dump({"--format=jsonl", fixture(name + ".pmclog")}).out))
        dumped[name][nlohmann::json::parse(d)["offset"].get<uint64_t>()] = d;
    }
    EXPECT_EQ(dumped[name][j["offset"].get<uint64_t>()], l);
    ++compared;
  }
  EXPECT_GE(parsed, 24);
  EXPECT_GE(compared, 21);
}
