// Untrusted strings (paths, event names, cpuid) with control characters, terminal escape
// sequences, quotes, backslashes and invalid UTF-8: escaped in text output, valid JSON in
// jsonl (checked with nlohmann::json), exact bytes kept in "<name>_hex".
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "build_log.h"
#include "run_tool.h"

using namespace dumptest;
using pmclog::Field;
using pmclog::Kind;

namespace {

// ESC [31m, BEL, newline, quotes, a backslash, two invalid bytes, then a valid "é".
const std::string kHostile = "/tmp/\x1b[31mred\x07\n\"q\"\\b\xff\xfe\xc3\xa9.so";
const std::string kHostileEscaped = "/tmp/\\e[31mred\\x07\\n\\\"q\\\"\\\\b\\xff\\xfe\xc3\xa9.so";

std::string hostile_log(pmclog::Generation g) {
  LogBuilder b(pmclog::Abi::make(g, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = g == pmclog::Generation::L3 ? 0x03010000 : 0x09030000;
    v[Field::arch] = 0x91; if (g != pmclog::Generation::L3) v.text = "Genuine\x1b]0;title\x07"; }
  { auto& v = b.add(Kind::map_in); v[Field::pid] = 7; v[Field::start] = 0x400000; v.text = kHostile; }
  { auto& v = b.add(Kind::pmcallocatedyn); v[Field::pmcid] = 0xff000d01; v[Field::event] = 0x20001;
    v.text = "EV\tNAME\x9b"; }
  const std::string path = temp_dir() + "/hostile-" + std::string(pmclog::generation_name(g)) + ".pmclog";
  write_file(path, b.finish());
  return path;
}

void expect_no_raw_controls(const std::string& out) {
  for (unsigned char c : out) {
    if (c == '\n') continue;
    EXPECT_FALSE(c < 0x20 || c == 0x7F) << "raw control byte " << int(c);
  }
}

}  // namespace

TEST(Strings, EscapedInTextAndPmcstat) {
  const std::string log = hostile_log(pmclog::Generation::L3);
  const Ran t = run_dump({log});
  ASSERT_EQ(t.status, 0) << t.err;
  expect_no_raw_controls(t.out);
  EXPECT_NE(t.out.find("path=\"" + kHostileEscaped + "\""), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("evname=\"EV\\tNAME\\x9b\""), std::string::npos) << t.out;
  EXPECT_EQ(lines(t.out).size(), 3u);

  const Ran p = run_dump({"--format=pmcstat", log});
  ASSERT_EQ(p.status, 0) << p.err;
  expect_no_raw_controls(p.out);
  EXPECT_NE(p.out.find("map-in    7 0x400000 \"" + kHostileEscaped + "\"\n"), std::string::npos) << p.out;
}

TEST(Strings, ValidJsonWithExactBytes) {
  for (auto g : {pmclog::Generation::L3, pmclog::Generation::M9}) {
    const Ran r = run_dump({"--format=jsonl", hostile_log(g)});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ls = lines(r.out);
    ASSERT_EQ(ls.size(), 3u);
    std::vector<nlohmann::json> j;
    for (const auto& l : ls) ASSERT_NO_THROW(j.push_back(nlohmann::json::parse(l))) << l;
    const std::string path = j[1].at("path").get<std::string>();
    EXPECT_EQ(path.substr(0, 15), "/tmp/\x1b[31mred\x07\n");  // control characters survive JSON escaping
    EXPECT_NE(path.find("\xef\xbf\xbd"), std::string::npos);  // invalid bytes became U+FFFD
    EXPECT_NE(path.find("\xc3\xa9.so"), std::string::npos);   // valid UTF-8 kept
    std::string hex;
    for (unsigned char c : kHostile) {
      static const char* d = "0123456789abcdef";
      hex += d[c >> 4];
      hex += d[c & 15];
    }
    EXPECT_EQ(j[1].at("path_hex").get<std::string>(), hex);
    EXPECT_EQ(j[2].at("evname_hex").get<std::string>(), "4556094e414d459b");
    if (g == pmclog::Generation::M9) {
      EXPECT_EQ(j[0].at("cpuid").get<std::string>(), "Genuine\x1b]0;title\x07");
      EXPECT_FALSE(j[0].contains("cpuid_hex"));  // valid UTF-8: no hex form needed
    }
  }
}

// A valid UTF-8 path with backslashes (one before an 'n', which an unescaped JSON string
// would read as a newline) and C1 controls encoded as UTF-8: U+009B is a one-byte CSI on
// terminals that honour C1, U+0085 is NEL. Text escapes each C1 byte, keeps U+00A0 (not a
// control); JSON keeps the exact string, with no _hex form since it is valid UTF-8.
TEST(Strings, ValidUtf8BackslashesAndC1Controls) {
  const std::string path = "/opt/a\\nb\\\\c\xc2\x9b[31m\xc2\x85\xc2\xa0z.so";
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  { auto& v = b.add(Kind::map_in); v[Field::pid] = 7; v[Field::start] = 0x400000; v.text = path; }
  const std::string log = temp_dir() + "/c1-backslash.pmclog";
  write_file(log, b.finish());

  const Ran t = run_dump({log});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("path=\"/opt/a\\\\nb\\\\\\\\c\\xc2\\x9b[31m\\xc2\\x85\xc2\xa0z.so\""),
            std::string::npos)
      << t.out;
  EXPECT_EQ(t.out.find("\xc2\x9b"), std::string::npos) << "raw CSI in text output";
  EXPECT_EQ(t.out.find("\xc2\x85"), std::string::npos) << "raw NEL in text output";

  const Ran j = run_dump({"--format=jsonl", log});
  ASSERT_EQ(j.status, 0) << j.err;
  const auto ls = lines(j.out);
  ASSERT_EQ(ls.size(), 2u);
  nlohmann::json rec;
  ASSERT_NO_THROW(rec = nlohmann::json::parse(ls[1])) << ls[1];
  EXPECT_EQ(rec.at("path").get<std::string>(), path);
  EXPECT_FALSE(rec.contains("path_hex"));
}

// Unicode bidirectional controls (RLO, LRI, PDI, RLM, ALM) reorder the rest of a terminal
// line ("Trojan Source"): text and pmcstat output show them as \uXXXX; JSON keeps the same
// string (as \u escapes), with no _hex form since it is valid UTF-8.
TEST(Strings, BidiControlsEscaped) {
  const std::string path = "/lib/\xe2\x80\xaelibc\xe2\x81\xa6x\xe2\x81\xa9\xe2\x80\x8f\xd8\x9c.so";
  const std::string shown = "/lib/\\u202elibc\\u2066x\\u2069\\u200f\\u061c.so";
  LogBuilder b(pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little));
  { auto& v = b.add(Kind::initialize); v[Field::version] = 0x03010000; v[Field::arch] = 0x91; }
  { auto& v = b.add(Kind::map_in); v[Field::pid] = 7; v[Field::start] = 0x400000; v.text = path; }
  const std::string log = temp_dir() + "/bidi.pmclog";
  write_file(log, b.finish());

  for (const char* format : {"--format=text", "--format=pmcstat", "--format=jsonl"}) {
    const Ran t = run_dump({format, log});
    ASSERT_EQ(t.status, 0) << t.err;
    for (const char* raw :
         {"\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa9", "\xe2\x80\x8f", "\xd8\x9c"})
      EXPECT_EQ(t.out.find(raw), std::string::npos) << format << ": raw bidi control";
    if (std::string(format) != "--format=jsonl") {
      EXPECT_NE(t.out.find("\"" + shown + "\""), std::string::npos) << format << t.out;
      continue;
    }
    const auto ls = lines(t.out);
    ASSERT_EQ(ls.size(), 2u);
    nlohmann::json rec;
    ASSERT_NO_THROW(rec = nlohmann::json::parse(ls[1])) << ls[1];
    EXPECT_EQ(rec.at("path").get<std::string>(), path);
    EXPECT_FALSE(rec.contains("path_hex"));
  }
}
