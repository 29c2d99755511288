// Every fixture log that comes with an independent listing (NAME.expected.txt: the golden
// logs, and the codec's logs of every generation x width x byte order) is dumped as JSON
// Lines and as text, and each record's offset, length, type and every listed field value
// is checked against the listing. Every JSON line must parse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "listing.h"
#include "run_tool.h"

using namespace dumptest;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> listed_logs() {
  std::vector<std::string> v;
  for (const char* dir : {"golden", ""}) {
    const fs::path d = fs::path(PMCLOG_FIXTURES_DIR) / dir;
    if (!fs::is_directory(d)) continue;
    for (const auto& e : fs::directory_iterator(d)) {
      const std::string p = e.path().string();
      const std::string suffix = ".expected.txt";
      if (p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0) {
        const std::string log = p.substr(0, p.size() - suffix.size()) + ".pmclog";
        if (fs::exists(log)) v.push_back(p.substr(0, p.size() - suffix.size()));
      }
    }
  }
  std::sort(v.begin(), v.end());
  return v;
}

// "MAP_IN" -> "map-in": the kind ids of docs/jsonl.md are the format.md names, lowercased.
std::string kind_id_of(const std::string& name) {
  std::string s;
  for (char c : name) s += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

uint64_t json_u64(const nlohmann::json& obj, const std::string& key) {
  if (obj.contains(key + "_hex")) return std::stoull(obj[key + "_hex"].get<std::string>(), nullptr, 16);
  return obj.at(key).get<uint64_t>();
}

void check_jsonl(const std::string& base) {
  const auto listing = read_listing(base + ".expected.txt");
  ASSERT_FALSE(listing.empty()) << base;
  const Ran r = run_dump({"--format=jsonl", base + ".pmclog"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), listing.size()) << base;
  for (size_t i = 0; i < out.size(); ++i) {
    SCOPED_TRACE(base + " record " + std::to_string(i));
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(out[i]));
    const auto& want = listing[i];
    EXPECT_EQ(j.at("offset").get<uint64_t>(), want.off);
    EXPECT_EQ(j.at("length").get<uint64_t>(), want.len);
    EXPECT_EQ(j.at("type_code").get<int>(), want.code);
    EXPECT_EQ(j.at("type").get<std::string>(), kind_id_of(want.type));
    for (const auto& [key, v] : want.fields) {
      SCOPED_TRACE(key);
      if (key == "evname" && want.type == "PMCALLOCATE") {
        continue;  // libpmc's name for the event code (golden README); not in the record
      } else if (key == "npc") {
        EXPECT_EQ(j.at("pcs").size(), v.number);
      } else if (key == "pc" && v.is_list) {
        ASSERT_EQ(j.at("pcs_hex").size(), v.list.size());
        for (size_t k = 0; k < v.list.size(); ++k)
          EXPECT_EQ(std::stoull(j["pcs_hex"][k].get<std::string>(), nullptr, 16), v.list[k]);
      } else if (v.is_string) {
        EXPECT_EQ(j.at(key).get<std::string>(), v.text);
      } else {
        EXPECT_EQ(json_u64(j, key), v.number);
      }
    }
  }
}

void check_text(const std::string& base) {
  const auto listing = read_listing(base + ".expected.txt");
  const Ran r = run_dump({base + ".pmclog"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::string> heads;
  for (const auto& l : lines(r.out)) {
    if (l.compare(0, 11, std::string(11, ' ')) == 0) continue;  // a callchain frame line
    heads.push_back(l);
  }
  ASSERT_EQ(heads.size(), listing.size()) << base;
  for (size_t i = 0; i < heads.size(); ++i) {
    char want[64];
    std::snprintf(want, sizeof want, "%10llu %-14s", static_cast<unsigned long long>(listing[i].off),
                  listing[i].type.c_str());
    EXPECT_EQ(heads[i].substr(0, 25), want) << base << " record " << i;
  }
}

}  // namespace

TEST(Listing, FixturesExist) { EXPECT_GE(listed_logs().size(), 2u); }

TEST(Listing, JsonlMatchesEveryListedField) {
  for (const auto& base : listed_logs()) check_jsonl(base);
}

TEST(Listing, TextHasOneLinePerRecordWithOffsetAndType) {
  for (const auto& base : listed_logs()) check_text(base);
}
