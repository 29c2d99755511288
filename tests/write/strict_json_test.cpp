// The strict JSON Lines reader: every member must be one the schema and the record
// have, required members must be there, values must fit, and an explicit length must agree
// with the contents. Each message names the member (the tool adds the line number:
// write_input_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/layout.h"

namespace pmclog {
namespace {

const Abi kL3 = Abi::make(Generation::L3, 8, ByteOrder::little);
const Abi kM10 = Abi::make(Generation::M10, 8, ByteOrder::little);

std::string error_of(const std::string& line, const Abi& abi = kL3) {
  auto r = parse_json_record(line, abi);
  return r.ok() ? std::string("(accepted)") : r.error().message;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(StrictJson, UnknownMemberIsNamedWithTheLikelyIntent) {
  const std::string e = error_of(R"({"type":"sysexit","pdi":3})");
  EXPECT_TRUE(has(e, "unknown member 'pdi'")) << e;
  EXPECT_TRUE(has(e, "did you mean 'pid'")) << e;
  // A name far from every known one gets no guess.
  const std::string f = error_of(R"({"type":"sysexit","pid":3,"frobnication":1})");
  EXPECT_TRUE(has(f, "'frobnication'")) << f;
  EXPECT_FALSE(has(f, "did you mean")) << f;
}

TEST(StrictJson, MemberOfAnotherRecordTypeIsNamed) {
  const std::string e = error_of(R"({"type":"sysexit","pid":1,"path":"/bin/sh"})");
  EXPECT_TRUE(has(e, "'path'")) << e;
  EXPECT_TRUE(has(e, "sysexit")) << e;
  // A legacy header time on a modern line would be ignored: refused too.
  const std::string t = error_of(R"({"type":"sysexit","pid":1,"ts_sec":5})", kM10);
  EXPECT_TRUE(has(t, "'ts_sec'")) << t;
  EXPECT_TRUE(has(t, "tsc")) << t;
}

TEST(StrictJson, MemberGivenTwiceIsRefused) {
  const std::string e = error_of(R"({"type":"sysexit","pid":1,"pid":2})");
  EXPECT_TRUE(has(e, "'pid'")) << e;
  EXPECT_TRUE(has(e, "twice")) << e;
}

TEST(StrictJson, MissingRequiredFieldNamesFieldAndRecordType) {
  const std::string p = error_of(R"({"type":"map-in","pid":1,"start":0})");
  EXPECT_TRUE(has(p, "'path'")) << p;
  EXPECT_TRUE(has(p, "missing")) << p;
  EXPECT_TRUE(has(p, "map-in")) << p;
  const std::string c = error_of(R"({"type":"callchain","pid":1})");
  EXPECT_TRUE(has(c, "'pcs'")) << c;
  EXPECT_TRUE(has(c, "callchain")) << c;
  const std::string u = error_of(R"({"type":"unknown","payload_hex":"00"})");
  EXPECT_TRUE(has(u, "'type_code'")) << u;
}

TEST(StrictJson, NumbersThatDoNotFitSaySo) {
  const std::string pid = error_of(R"({"type":"sysexit","pid":4294967296})");
  EXPECT_TRUE(has(pid, "'pid'")) << pid;
  EXPECT_TRUE(has(pid, "does not fit in 32 bits")) << pid;
  // Beyond 64 bits, as a JSON number and as a hex string.
  const std::string n = error_of(R"({"type":"map-in","pid":1,"start":18446744073709551616,"path":"/a"})");
  EXPECT_TRUE(has(n, "'start'")) << n;
  EXPECT_TRUE(has(n, "exceeds 64 bits")) << n;
  const std::string h = error_of(R"({"type":"map-in","pid":1,"start":"0x10000000000000000","path":"/a"})");
  EXPECT_TRUE(has(h, "'start'")) << h;
  EXPECT_TRUE(has(h, "exceeds 64 bits")) << h;
  // The largest 64-bit value still fits a 64-bit field.
  auto ok = parse_json_record(R"({"type":"map-in","pid":1,"start":18446744073709551615,"path":"/a"})", kL3);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->value[Field::start], ~uint64_t{0});
  const std::string f = error_of(R"({"type":"sysexit","pid":2.5})");
  EXPECT_TRUE(has(f, "not an integer")) << f;
}

TEST(StrictJson, ALineThatIsNotAnObjectSaysSo) {
  for (const char* line : {"[1,2]", "42", "\"map-in\"", "null", "true"}) {
    const std::string e = error_of(line);
    EXPECT_TRUE(has(e, "not a JSON object")) << line << ": " << e;
  }
  const std::string t = error_of(R"({"type":"sysexit","pid":1} {"x":1})");
  EXPECT_TRUE(has(t, "invalid JSON")) << t;
  EXPECT_TRUE(has(t, "after the object")) << t;
}

// The length the encoder derives for a line (no "length" member).
uint16_t derived_length(const std::string& line, const Abi& abi) {
  auto r = parse_json_record(line, abi);
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (!r.ok()) return 0;
  auto n = encoded_length(r->value, abi);
  EXPECT_TRUE(n.ok());
  return n.ok() ? n.value() : 0;
}

std::string map_in(const std::string& path, const std::string& length_member = "") {
  return R"({"type":"map-in","pid":1,"start":4096,)" + length_member + R"("path":")" + path + "\"}";
}

TEST(StrictJson, LengthFollowsAnEditedPathWhenLeftOut) {
  const uint16_t short_len = derived_length(map_in("/bin/sh"), kL3);
  const uint16_t long_len = derived_length(map_in("/usr/local/lib/libsomething.so.5"), kL3);
  EXPECT_GT(long_len, short_len);
  const Layout* l = layout_for(kL3, Kind::map_in);
  ASSERT_NE(l, nullptr);
  // The kernel's length: the fixed part, the path and its NUL, rounded up to 4 (format.md §3.1).
  EXPECT_EQ(long_len, (l->fixed_size + std::string("/usr/local/lib/libsomething.so.5").size() + 1 + 3) / 4 * 4);
}

TEST(StrictJson, InconsistentExplicitLengthSaysWhichMemberToRemove) {
  const uint16_t short_len = derived_length(map_in("/bin/sh"), kL3);
  const std::string longer = "/usr/local/lib/libsomething.so.5";
  const uint16_t long_len = derived_length(map_in(longer), kL3);
  // The dump's length for the old path, with the path edited: the length no longer holds it.
  const std::string e =
      error_of(map_in(longer, "\"length\":" + std::to_string(short_len) + ","), kL3);
  EXPECT_TRUE(has(e, "length " + std::to_string(short_len) + " does not match the contents (" +
                         std::to_string(long_len) + " bytes)"))
      << e;
  EXPECT_TRUE(has(e, "remove \"length\"")) << e;
  // A fixed-size record has one length only.
  const uint16_t sysexit = derived_length(R"({"type":"sysexit","pid":1})", kL3);
  const std::string f =
      error_of(R"({"type":"sysexit","pid":1,"length":)" + std::to_string(sysexit + 4) + "}");
  EXPECT_TRUE(has(f, "remove \"length\"")) << f;
  // A consistent explicit length is kept, slack after the path included (odd logs round-trip).
  auto same = parse_json_record(map_in("/bin/sh", "\"length\":" + std::to_string(short_len) + ","), kL3);
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(same->value.length, short_len);
  auto slack = parse_json_record(map_in("/bin/sh", "\"length\":" + std::to_string(short_len + 8) + ","), kL3);
  ASSERT_TRUE(slack.ok()) << slack.error().message;
  EXPECT_EQ(slack->value.length, short_len + 8);
}

// Every slot after a CALLCHAIN's header is a frame: a length kept after frames were removed
// would add zero frames (8 bytes more) or leave half a slot no reader takes (4 more).
TEST(StrictJson, CallchainLengthIsItsFrames) {
  const std::string frames = R"("pcs":["0x401000","0x401200"]})";
  const auto chain = [&](const std::string& length_member) {
    return R"({"type":"callchain","pid":1,)" + length_member + frames;
  };
  const uint16_t len = derived_length(chain(""), kL3);
  auto same = parse_json_record(chain("\"length\":" + std::to_string(len) + ","), kL3);
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(same->value.length, len);
  for (int more : {4, 8, 16}) {
    const std::string e = error_of(chain("\"length\":" + std::to_string(len + more) + ","));
    EXPECT_TRUE(has(e, "length " + std::to_string(len + more) + " does not match the contents (" +
                           std::to_string(len) + " bytes)"))
        << e;
    EXPECT_TRUE(has(e, "remove \"length\"")) << e;
  }
}

TEST(StrictJson, PaddedAndCopiedLinesParseTheSame) {
  const std::string line = R"({"type":"callchain","pid":9,"cpu":1,"pcs":[1,2,3],"file":"a.pmclog"})";
  std::string buf = line + std::string(kJsonPadding, '9');  // padding bytes must not matter
  JsonLineInfo a, b;
  auto x = parse_json_record_info(line, kL3, a);
  auto y = parse_json_record_info(PaddedLine{std::string_view(buf.data(), line.size())}, kL3, b);
  ASSERT_TRUE(x.ok()) << x.error().message;
  ASSERT_TRUE(y.ok()) << y.error().message;
  EXPECT_EQ(x->value, y->value);
  EXPECT_TRUE(a.has_file);
  EXPECT_EQ(a.file, "a.pmclog");
  EXPECT_EQ(b.file, "a.pmclog");
}

TEST(StrictJson, PeekReadsTheAbiMembersOnly) {
  // A thr-create line under no particular ABI: peek does not interpret the record.
  auto h = peek_json_line(
      R"({"type":"initialize","generation":"M10","byte_order":"big","address_width":4,"time_width":8,"length":112,"version":"0x0a000000","file":"x"})");
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->type, "initialize");
  EXPECT_EQ(h->generation, "M10");
  EXPECT_EQ(h->byte_order, "big");
  EXPECT_EQ(h->address_width, 4u);
  EXPECT_EQ(h->time_width, 8u);
  EXPECT_TRUE(h->has_length);
  EXPECT_EQ(h->length, 112u);
  EXPECT_TRUE(h->has_version);
  EXPECT_EQ(h->version, 0x0a000000u);
  EXPECT_TRUE(h->has_file);
  EXPECT_EQ(h->file, "x");
  EXPECT_FALSE(peek_json_line(R"({"type":"sysexit","pidd":1})").ok());  // still strict on names
}

}  // namespace
}  // namespace pmclog
