// parse_json_record (libpmclog/src/json_parse.cpp): docs/jsonl.md read back, friendly
// defaults, and rejections that name the field and the reason (more in strict_json_test.cpp).
#include <gtest/gtest.h>

#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/layout.h"

namespace pmclog {
namespace {

const Abi kL3 = Abi::make(Generation::L3, 8, ByteOrder::little);
const Abi kM9 = Abi::make(Generation::M9, 8, ByteOrder::little);
const Abi kL3_32 = Abi::make(Generation::L3, 4, ByteOrder::little);

TEST(JsonParse, MinimalCallchainLineIsComplete) {
  auto r = parse_json_record(R"({"type":"callchain","pid":42,"pcs":["0x401000","0x401200"]})", kL3);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->value.kind, Kind::callchain);
  EXPECT_EQ(r->value[Field::pid], 42u);
  EXPECT_EQ(r->value.pcs, (std::vector<uint64_t>{0x401000, 0x401200}));
  EXPECT_EQ(r->value.length, 0);  // derived by the encoder
  EXPECT_EQ(r->value[Field::cpuflags], 0u);
  EXPECT_FALSE(r->has_offset);
}

TEST(JsonParse, CpuflagsDerivedFromCpuAndUsermode) {
  auto r = parse_json_record(R"({"type":"callchain","pid":1,"cpu":3,"usermode":1,"pcs":[4096]})", kM9);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->value[Field::cpuflags], 0x30001u);
  // cpuflags, when given, wins over the informational members
  auto g = parse_json_record(
      R"({"type":"callchain","pid":1,"cpuflags":196608,"cpu":9,"usermode":1,"pcs":[4096]})", kM9);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->value[Field::cpuflags], 0x30000u);
}

TEST(JsonParse, HexTwinWinsWhicheverComesFirst) {
  auto a = parse_json_record(
      R"({"type":"map-in","pid":5,"start":18446744071563116544,"start_hex":"0xffffffff80200001","path":"/k"})",
      kL3);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->value[Field::start], 0xffffffff80200001ull);
  auto b = parse_json_record(
      R"({"type":"map-in","start_hex":"0xffffffff80200001","start":1,"pid":5,"path":"/k"})", kL3);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->value[Field::start], 0xffffffff80200001ull);
  auto t = parse_json_record(R"({"type":"sysexit","pid":5,"tsc":1,"tsc_hex":"0x8000000000000003"})", kM9);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->value.tsc, 0x8000000000000003ull);
}

TEST(JsonParse, TextHexGivesExactBytes) {
  auto r = parse_json_record(R"({"type":"map-in","pid":1,"start":0,"path":"\ufffd","path_hex":"ff2f61"})", kL3);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->value.text, std::string("\xff/a"));
}

TEST(JsonParse, NegativePidWrapsToTheWord) {
  auto r = parse_json_record(R"({"type":"map-in","pid":-1,"start":"0xc0400000","path":"/boot/kernel/kernel"})", kL3_32);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->value[Field::pid], 0xFFFFFFFFu);
}

TEST(JsonParse, UnwrittenBecomePatchesAndOffsetIsKept) {
  auto r = parse_json_record(
      R"({"offset":40,"type":"sysexit","pid":7,"unwritten":[{"at":20,"hex":"a5a5a5a5"}]})", kM9);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->patches.size(), 1u);
  EXPECT_EQ(r->patches[0].first, 20);
  EXPECT_EQ(r->patches[0].second, (std::vector<uint8_t>{0xa5, 0xa5, 0xa5, 0xa5}));
  EXPECT_TRUE(r->has_offset);
  EXPECT_EQ(r->offset, 40u);
}

TEST(JsonParse, UnknownRecordKeepsCodeAndPayload) {
  auto r = parse_json_record(R"({"type":"unknown","type_code":200,"payload_hex":"01020304"})", kL3);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->value.kind, Kind::unknown);
  EXPECT_EQ(r->value.type, 200);
  EXPECT_EQ(r->value.payload, (std::vector<uint8_t>{1, 2, 3, 4}));
}

TEST(JsonParse, TypeCodeAloneNamesTheKindOfTheGeneration) {
  auto m = parse_json_record(R"({"type_code":3,"version":150994944})", kM9);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->value.kind, Kind::initialize);
}

TEST(JsonParse, UnknownMemberIsAnError) {
  // A misspelled field used to become 0 silently.
  auto r = parse_json_record(R"({"type":"sysexit","pdi":3})", kL3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'pdi'"), std::string::npos) << r.error().message;
}

// Escapes, spacing and non-ASCII text read the same as the plain form.
TEST(JsonParse, EscapedAndPlainLinesAgree) {
  const char* plain = R"({"type":"map-in","pid":7,"start":"0x800600000","path":"/lib/libc.so.7"})";
  const char* escaped =
      "{ \"type\" : \"map-in\",\n \"pid\":7 , \"start\":34366029824,"
      "\"path\":\"\\/lib\\/libc.so.7\" }";
  auto a = parse_json_record(plain, kL3);
  auto b = parse_json_record(escaped, kL3);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(a->value, b->value);
  auto u = parse_json_record(R"({"type":"map-in","pid":1,"start":0,"path":"/usr/lib/caf\u00e9"})", kL3);
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_EQ(u->value.text, "/usr/lib/caf\xc3\xa9");
  const std::string raw = std::string(R"({"type":"map-in","pid":1,"start":0,"path":"/x/caf)") +
                          "\xc3\xa9\"}";  // raw UTF-8 bytes
  auto n = parse_json_record(raw, kL3);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(n->value.text, "/x/caf\xc3\xa9");
}

struct Bad {
  const char* line;
  Abi abi;
  const char* field;   // must appear in the message
  const char* reason;  // must appear too
};

class JsonParseRejects : public ::testing::TestWithParam<Bad> {};

TEST_P(JsonParseRejects, NamesFieldAndReason) {
  const Bad& b = GetParam();
  auto r = parse_json_record(b.line, b.abi);
  ASSERT_FALSE(r.ok()) << b.line;
  EXPECT_NE(r.error().message.find(b.field), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(b.reason), std::string::npos) << r.error().message;
}

const std::string kLongPath(1024, 'a');
const std::string kLongPathLine =
    R"({"type":"map-in","pid":1,"start":0,"path":")" + kLongPath + "\"}";

std::string deep_line(int n) {
  std::string s = R"({"type":"callchain","pid":1,"pcs":[)";
  for (int i = 0; i < n; ++i) s += (i ? ",1" : "1");
  return s + "]}";
}
const std::string kDeep129 = deep_line(129), kDeep33 = deep_line(33);
// Nested 200,000 deep: the syntax error's locator recursed once per '[' and ran off the stack.
const std::string kDeepNesting = R"({"type":"sysexit","pid":)" + std::string(200000, '[');

INSTANTIATE_TEST_SUITE_P(
    Lines, JsonParseRejects,
    ::testing::Values(
        Bad{R"({"type":"frobnicate","pid":1})", kL3, "'type'", "unknown type"},
        Bad{R"({"pid":1})", kL3, "'type'", "missing"},
        Bad{R"({"type":"map-in","pid":1,"start":0})", kL3, "'path'", "missing"},
        Bad{R"({"type":"callchain","pid":1})", kL3, "'pcs'", "missing"},
        Bad{R"({"type":"sysexit","pid":4294967296})", kL3, "'pid'", "does not fit in 32 bits"},
        Bad{R"({"type":"map-in","pid":1,"start":"0x100000000","path":"/a"})", kL3_32, "'start'",
            "does not fit in 32 bits"},
        Bad{R"({"type":"callchain","pid":1,"pcs":["0x100000000"]})", kL3_32, "'pcs'", "frame 0"},
        Bad{kLongPathLine.c_str(), kL3, "'path'", "PATH_MAX"},
        Bad{kDeep129.c_str(), kL3, "'pcs'", "129 frames"},
        Bad{kDeep33.c_str(), Abi::make(Generation::L2, 8, ByteOrder::little), "'pcs'", "L2"},
        Bad{R"({"type":"thr-create","tid":1})", kL3, "'type'", "does not exist in generation L3"},
        Bad{R"({"type":"proc-create","pid":1,"pcomm":"this-name-is-longer-than-20"})", kM9,
            "'pcomm'", "more than the 20"},
        Bad{R"({"type":"sysexit","pid":1.5})", kL3, "'pid'", "not an integer"},
        Bad{R"({"type":"sysexit","pid":"twelve"})", kL3, "'pid'", "not a number"},
        Bad{R"({"type":"sysexit","type_code":5,"pid":1})", kL3, "'type_code'", "is not the code"},
        Bad{R"({"type":"sysexit","length":13})", kL3, "'length'", "not a record length"},
        Bad{R"({"type":"unknown","payload_hex":"00"})", kL3, "'type_code'", "missing"},
        Bad{R"({"type":"sysexit","pid":1,"unwritten":[{"at":1}]})", kL3, "'unwritten'", "lacks"},
        Bad{R"({"type":"sysexit","pid":1)", kL3, "invalid JSON", "column"},
        // Found by the jsonl fuzz target: the locator crashed on a string left open.
        Bad{R"({"type":"callchain","ty)", kL3, "invalid JSON", "never closed"},
        // The 1,024th level (the object and 1,023 arrays are simdjson's limit), at its '['.
        Bad{kDeepNesting.c_str(), kL3, "invalid JSON at column 1048", "too deep"},
        // A column inside the line: it was counted in the parser's padded copy of the line.
        Bad{R"({"type":"sysexit", oops})", kL3, "invalid JSON at column 20", "structure"},
        Bad{R"([1,2])", kL3, "array", "not a JSON object"}));

TEST(JsonParse, EncodesToTheKernelBytes) {
  // format.md §14: legacy LP64 LE CALLCHAIN, pid 1234, pmcid 0x02000701, cpu 2, kernel mode.
  auto r = parse_json_record(
      R"({"type":"callchain","ts_sec":0,"ts_nsec":0,"pid":1234,"pmcid":"0x02000701","cpu":2,"usermode":0,"pcs":["0xffffffff80b3c9f1","0x800a01234"]})",
      kL3);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<uint8_t> out;
  ASSERT_TRUE(encode(r->value, kL3, out).ok());
  const std::vector<uint8_t> want = {0x28, 0x00, 0x10, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0,
                                     0xD2, 0x04, 0x00, 0x00, 0x01, 0x07, 0x00, 0x02,
                                     0x00, 0x00, 0x02, 0x00, 0xF1, 0xC9, 0xB3, 0x80,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0x34, 0x12, 0xA0, 0x00,
                                     0x08, 0x00, 0x00, 0x00};
  EXPECT_EQ(out, want);
}

}  // namespace
}  // namespace pmclog
