// pmclog-write's JSON Lines input: strict errors with the input's line number and
// exit 1, binary logs refused with a hint, lengths that follow edited paths, the cap on one
// line, and the choice of one file from a multi-file dump. The tool runs as a subprocess.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "line_reader.h"
#include "pmclog/layout.h"
#include "pmclog/open.h"
#include "tool_error.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The folder holds only the input: nothing was left behind (no output, no temporary).
void expect_only(const ScratchDir& d, const std::string& input) {
  for (const auto& e : fs::directory_iterator(d.path()))
    EXPECT_EQ(e.path().filename(), input) << "left behind: " << e.path();
}

struct Strict {
  std::string name, line, part1, part2;
};

class StrictLines : public ::testing::TestWithParam<Strict> {};

TEST_P(StrictLines, ExitOneWithLineNumberAndNothingWritten) {
  const Strict& c = GetParam();
  ScratchDir d;
  write_file(d / "in.jsonl", "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n\n" + c.line +
                           "\n{\"type\":\"closelog\"}\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "in.jsonl:3: ")) << r.err;  // the input's line, blank line counted
  EXPECT_TRUE(has(r.err, c.part1)) << r.err;
  EXPECT_TRUE(has(r.err, c.part2)) << r.err;
  EXPECT_FALSE(has(r.err, "at byte")) << "a parser position, not the line: " << r.err;
  expect_only(d, "in.jsonl");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, StrictLines,
    ::testing::Values(
        Strict{"UnknownMember", R"({"type":"sysexit","pdi":7})", "'pdi'", "did you mean 'pid'"},
        Strict{"MemberOfOtherType", R"({"type":"sysexit","pid":7,"path":"/a"})", "'path'", "sysexit"},
        Strict{"MissingPath", R"({"type":"procexec","pid":7})", "'path'", "procexec"},
        Strict{"PidAbove32Bits", R"({"type":"sysexit","pid":4294967296})", "'pid'",
               "does not fit in 32 bits"},
        Strict{"Above64Bits", R"({"type":"proccsw","pid":1,"value":99999999999999999999})", "'value'",
               "exceeds 64 bits"},
        Strict{"NotAnObject", R"(["type","sysexit"])", "not a JSON object", "array"},
        Strict{"InconsistentLength", R"({"type":"sysexit","pid":1,"length":64})",
               "does not match the contents", "remove \"length\""}),
    [](const auto& i) { return i.param.name; });

TEST(WriteInput, BinaryLogIsRefusedWithAHint) {
  ScratchDir d;
  for (const char* fixture : {"L3-64-le", "M10-32-be"}) {
    const std::string log = std::string(PMCLOG_FIXTURES_DIR) + "/" + fixture + ".pmclog";
    const Ran f = run({write_bin(), log, "-o", d / "out.pmclog"});
    EXPECT_EQ(f.status, 1) << fixture << ": " << f.err;
    EXPECT_TRUE(has(f.err, "this is a pmclog file, not JSON Lines (use pmclog-dump --format=jsonl)"))
        << f.err;
    EXPECT_FALSE(fs::exists(d / "out.pmclog"));
    const Ran p = run({write_bin(), "-", "-o", "-"}, stdin_piped(slurp(log)));
    EXPECT_EQ(p.status, 1) << p.err;
    EXPECT_TRUE(p.out.empty());
    EXPECT_TRUE(has(p.err, "this is a pmclog file")) << p.err;
  }
}

// The records of a written log, decoded by the library.
std::vector<RecordValue> records_of(const fs::path& p, Abi* abi = nullptr) {
  std::vector<RecordValue> out;
  auto log = open_log(p.string());
  EXPECT_TRUE(log.ok()) << (log.ok() ? "" : log.error().message);
  if (!log.ok()) return out;
  if (abi) *abi = log->detection.abi;
  Record r;
  Error e;
  while (log->reader->next(r, e) == Step::record) {
    RecordValue v = to_value(r, log->detection.abi);
    v.length = r.header.length;  // the length as written
    out.push_back(v);
  }
  EXPECT_FALSE(e) << e.message;
  return out;
}

TEST(WriteInput, LengthFollowsAnEditedPath) {
  ScratchDir d;
  const std::string path = "/usr/local/lib/a-path-longer-than-the-original.so.1";
  // The dump's line for "/bin/sh" with the path edited and "length" removed.
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"address_width\":8,\"version\":\"0x03010000\"}\n"
       "{\"type\":\"map-in\",\"pid\":1,\"start\":4096,\"path\":\"" + path + "\"}\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  Abi abi;
  const auto recs = records_of(d / "out.pmclog", &abi);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[1].text, path);
  const Layout* l = layout_for(abi, Kind::map_in);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(recs[1].length, (l->fixed_size + path.size() + 1 + 3) / 4 * 4);  // format.md §3.1

  // With the old length kept, the line contradicts itself: the message says what to remove.
  const uint16_t old_len = static_cast<uint16_t>((l->fixed_size + 8 + 3) / 4 * 4);  // "/bin/sh"
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"address_width\":8,\"version\":\"0x03010000\"}\n"
       "{\"type\":\"map-in\",\"length\":" + std::to_string(old_len) +
           ",\"pid\":1,\"start\":4096,\"path\":\"" + path + "\"}\n");
  fs::remove(d / "out.pmclog");
  const Ran e = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(e.status, 1);
  EXPECT_TRUE(has(e.err, "in.jsonl:2: ")) << e.err;
  EXPECT_TRUE(has(e.err, "length " + std::to_string(old_len) + " does not match the contents (" +
                             std::to_string(recs[1].length) + " bytes); remove \"length\" to derive it"))
      << e.err;
  expect_only(d, "in.jsonl");
}

// A line of exactly `n` bytes (an object, so that only its size is wrong).
std::string line_of(size_t n) {
  std::string s = R"({"type":"sysexit","pid":1,"x":")";
  s.append(n - s.size() - 2, 'a');
  return s + "\"}";
}

TEST(WriteInput, LineAboveTheCapFailsCleanly) {
  ScratchDir d;
  const std::string big = line_of(write::kMaxJsonLine + 1);
  write_file(d / "in.jsonl", "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n" + big + "\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "in.jsonl:2: ")) << r.err;
  EXPECT_TRUE(has(r.err, std::to_string(write::kMaxJsonLine >> 20) + " MiB")) << r.err;
  expect_only(d, "in.jsonl");
  // Through a pipe, and as the last line without a newline: the same.
  std::string text = slurp(d / "in.jsonl");
  text.pop_back();  // the newline
  const Ran p = run({write_bin(), "-q", "-", "-o", "-"}, stdin_piped(text));
  EXPECT_EQ(p.status, 1) << p.err;
  EXPECT_TRUE(p.out.empty());
  EXPECT_TRUE(has(p.err, ":2: line longer than")) << p.err;
  // A line at the cap is read (and refused for what it holds, not for its size).
  write_file(d / "in.jsonl", "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n" +
                           line_of(write::kMaxJsonLine) + "\n");
  const Ran at = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(at.status, 1);
  EXPECT_TRUE(has(at.err, "unknown member 'x'")) << at.err.substr(0, 200);
}

// The reader itself: small reads, a small cap, lines counted.
TEST(LineReader, SplitsLinesAcrossTinyReadsAndEnforcesTheCap) {
  const std::string text = "a\n\nbcd\n" + std::string(100, 'x') + "\nlast";
  auto src = span_source({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, 3);
  write::LineReader rd(*src, "t", 100);
  std::vector<std::string> got;
  std::string_view l;
  while (rd.next(l)) got.emplace_back(l);
  EXPECT_EQ(got, (std::vector<std::string>{"a", "", "bcd", std::string(100, 'x'), "last"}));
  EXPECT_EQ(rd.line_number(), 5u);

  const std::string over = "ok\n" + std::string(101, 'y') + "\n";
  auto src2 = span_source({reinterpret_cast<const uint8_t*>(over.data()), over.size()}, 7);
  write::LineReader rd2(*src2, "t", 100);
  ASSERT_TRUE(rd2.next(l));
  try {
    rd2.next(l);
    ADD_FAILURE() << "a 101-byte line passed a 100-byte cap";
  } catch (const tools::Failure& e) {
    EXPECT_EQ(e.status, tools::Exit::bad_data);
    EXPECT_TRUE(has(e.what(), "t:2: ")) << e.what();
    EXPECT_TRUE(has(e.what(), "100 bytes")) << e.what();
  }
}

// Two logs' records in one input, as `pmclog-dump --format=jsonl a b` prints them.
std::string two_files() {
  return "{\"file\":\"a.pmclog\",\"type\":\"initialize\",\"generation\":\"L3\",\"address_width\":8,"
         "\"version\":\"0x03010000\"}\n"
         "{\"file\":\"a.pmclog\",\"type\":\"sysexit\",\"pid\":11}\n"
         "{\"file\":\"b.pmclog\",\"type\":\"initialize\",\"generation\":\"M10\",\"address_width\":4,"
         "\"byte_order\":\"big\",\"time_width\":8,\"version\":\"0x0a000000\"}\n"
         "{\"file\":\"b.pmclog\",\"type\":\"sysexit\",\"pid\":22}\n"
         "{\"file\":\"b.pmclog\",\"type\":\"thr-exit\",\"tid\":23}\n"
         "{\"file\":\"b.pmclog\",\"type\":\"map-in\",\"pid\":22,\"start\":4096,\"path\":\"/b\"}\n";
}

TEST(WriteInput, SeveralFilesNeedAChoice) {
  ScratchDir d;
  write_file(d / "in.jsonl", two_files());
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "in.jsonl:3: input holds records of 2 files (a.pmclog, b.pmclog); "
                         "choose one with --file NAME"))
      << r.err;
  expect_only(d, "in.jsonl");
}

TEST(WriteInput, FileOptionWritesThatFileOnly) {
  ScratchDir d;
  write_file(d / "in.jsonl", two_files());
  const Ran r = run({write_bin(), "-q", "--file", "b.pmclog", d / "in.jsonl", "-o", d / "out.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  Abi abi;
  const auto recs = records_of(d / "out.pmclog", &abi);
  EXPECT_EQ(abi.generation, Generation::M10);  // b's ABI, not a's
  EXPECT_EQ(abi.address_width, 4);
  EXPECT_EQ(abi.byte_order, ByteOrder::big);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0].kind, Kind::initialize);
  EXPECT_EQ(recs[1][Field::pid], 22u);
  EXPECT_EQ(recs[2][Field::tid], 23u);
  EXPECT_EQ(recs[3].text, "/b");

  const Ran a = run({write_bin(), "-q", "--file", "a.pmclog", d / "in.jsonl", "-o", d / "a.pmclog"});
  ASSERT_EQ(a.status, 0) << a.err;
  const auto ra = records_of(d / "a.pmclog", &abi);
  EXPECT_EQ(abi.generation, Generation::L3);
  ASSERT_EQ(ra.size(), 2u);
  EXPECT_EQ(ra[1][Field::pid], 11u);
}

TEST(WriteInput, FileOptionThatMatchesNoLineIsAnError) {
  ScratchDir d;
  write_file(d / "in.jsonl", two_files());
  const Ran r = run({write_bin(), "-q", "--file", "c.pmclog", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--file c.pmclog")) << r.err;
  EXPECT_TRUE(has(r.err, "a.pmclog, b.pmclog")) << r.err;
  expect_only(d, "in.jsonl");
  // Input without "file" members: named as such.
  write_file(d / "in.jsonl", "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n");
  const Ran n = run({write_bin(), "-q", "--file", "x", d / "in.jsonl", "-o", d / "out.pmclog"});
  EXPECT_EQ(n.status, 2);
  EXPECT_TRUE(has(n.err, "\"file\" member")) << n.err;
  expect_only(d, "in.jsonl");
}

// JSON Lines come through the library's opening path as every tool's input: compressed
// files and pipes read as the plain text, another format named as what it is.
TEST(WriteInput, CompressedJsonLinesReadAsPlain) {
  ScratchDir d;
  const std::string log = std::string(PMCLOG_FIXTURES_DIR) + "/M10-64-be.pmclog";
  const fs::path jsonl = d / "in.jsonl";
  RunOptions to_jsonl;
  to_jsonl.stdout_path = jsonl.string();
  ASSERT_EQ(run({PMCLOG_DUMP_BIN, "--format=jsonl", log}, to_jsonl).status, 0);
  const auto want = slurp_bytes(log);
  for (const std::string tool : {"gzip", "zstd -q", "xz", "bzip2"}) {
    SCOPED_TRACE(tool);
    const fs::path packed = d / "in.jsonl.packed";
    RunOptions to_packed;
    to_packed.stdout_path = packed.string();
    ASSERT_EQ(run(concat({words(tool), {"-c", jsonl}}), to_packed).status, 0);
    const Ran f = run({write_bin(), packed, "-o", d / "f.pmclog"});
    EXPECT_EQ(f.status, 0) << f.err;
    EXPECT_EQ(slurp_bytes(d / "f.pmclog"), want);
    const Ran p = run({write_bin(), "-", "-o", d / "p.pmclog"}, stdin_piped(slurp(packed)));
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_EQ(slurp_bytes(d / "p.pmclog"), want);
  }
  // A zip archive's local header: named as such, and not called a log.
  write_file(d / "in.zip", std::string("PK\x03\x04", 4) + std::string(60, '\0'));
  const Ran z = run({write_bin(), d / "in.zip", "-o", d / "z.pmclog"});
  EXPECT_EQ(z.status, 1) << z.err;
  EXPECT_TRUE(has(z.err, "this is a zip archive, not JSON Lines")) << z.err;
  EXPECT_FALSE(fs::exists(d / "z.pmclog"));
}

}  // namespace
}  // namespace pmclog::write_test
