// Damaged logs, one per class of damage: everything good before the damage is printed, one
// stderr line names the file, the byte offset and the reason, and the exit status is 1.
// --keep-going resynchronizes, reports the skipped byte range, prints the rest, exits 1.
// The damage is made by hand in copies of the golden L3 log (offsets from its listing).
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

namespace {

const std::string& seed() {
  static const std::string s = slurp(fixture("golden/seed-lp64-le.pmclog"));
  return s;
}

std::string write_damaged(const std::string& name, const std::string& bytes) {
  const std::string path = temp_dir() + "/" + name + ".pmclog";
  write_file(path, bytes);
  return path;
}

// The text lines of the good log for records starting before `offset`.
std::string good_text_before(uint64_t offset) {
  static const std::string full = run_dump({fixture("golden/seed-lp64-le.pmclog")}).out;
  std::string out;
  for (const auto& l : lines(full)) {
    const bool frame = l.compare(0, 11, std::string(11, ' ')) == 0;
    if (!frame && std::stoull(l.substr(0, 10)) >= offset) break;
    out += l + "\n";
  }
  return out;
}

void expect_damage(const std::string& name, const std::string& bytes, uint64_t offset,
                   const std::string& reason, std::vector<std::string> args = {}) {
  SCOPED_TRACE(name);
  const std::string path = write_damaged(name, bytes);
  args.push_back(path);
  const Ran r = run_dump(args);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, good_text_before(offset));
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 2u) << r.err;  // the damage, then the hint that -k goes on
  EXPECT_EQ(err[0].rfind("pmclog-dump: " + path + ": ", 0), 0u) << err[0];
  EXPECT_EQ(err[1], "pmclog-dump: note: stopped at the first damage; -k/--keep-going skips it "
                    "and goes on");
  EXPECT_NE(err[0].find("offset " + std::to_string(offset)), std::string::npos) << err[0];
  EXPECT_NE(err[0].find(reason), std::string::npos) << err[0];
}

// Record offsets in seed-lp64-le (fixtures/golden/seed-lp64-le.expected.txt).
constexpr size_t kCallchain = 20, kDrop = 452, kMapIn = 464, kMapOut = 4752, kClose = 5396;

}  // namespace

TEST(Damaged, TruncatedRecord) {
  expect_damage("truncated", seed().substr(0, kClose + 8), kClose, "truncated");
}

TEST(Damaged, TruncatedHeaderWord) {
  expect_damage("truncated-header", seed().substr(0, kClose + 2), kClose, "truncated");
}

TEST(Damaged, BadMagic) {
  std::string b = seed();
  b[kDrop + 3] = 0x00;  // little-endian header: the magic is byte 3
  expect_damage("bad-magic", b, kDrop, "bad magic");
}

TEST(Damaged, LengthNotMultipleOf4) {
  std::string b = seed();
  b[kDrop] = 13;
  expect_damage("length-13", b, kDrop, "not a multiple of 4");
}

TEST(Damaged, LengthBelowHeader) {
  std::string b = seed();
  b[kDrop] = 4;
  expect_damage("length-4", b, kDrop, "below the 12-byte header");
}

TEST(Damaged, UnknownType) {
  std::string b = seed();
  b[kDrop + 2] = 0x30;  // type 48 does not exist in L3
  expect_damage("unknown-type", b, kDrop, "type 48");
}

TEST(Damaged, FixedRecordWrongSize) {
  std::string b = seed();
  b[kMapOut] = 36;  // MAP_OUT is 32 bytes in LP64
  expect_damage("map-out-36", b, kMapOut, "32-byte");
}

TEST(Damaged, UnterminatedPath) {
  std::string b = seed();
  for (size_t i = kMapIn + 24; i < kMapIn + 40; ++i) b[i] = 'A';  // no NUL left in the path
  expect_damage("unterminated", b, kMapIn, "NUL");
}

TEST(Damaged, CallchainNotWholeAddresses) {
  std::string b = seed();
  b[kCallchain] = 28;  // 24-byte fixed part + 4 bytes: half an address
  // (detection alone would take this record as evidence of 4-byte addresses, so say 8)
  expect_damage("callchain-28", b, kCallchain, "not a multiple of the 8-byte address size",
                {"--address-width=8"});
}

TEST(Damaged, CallchainTooDeep) {
  std::string b = seed();
  const unsigned len = 24 + 129 * 8;  // L3 accepts up to 128 frames (format.md §10)
  b[kCallchain] = static_cast<char>(len & 0xFF);
  b[kCallchain + 1] = static_cast<char>(len >> 8);
  expect_damage("callchain-129", b, kCallchain, "depth 129");
}

TEST(Damaged, KeepGoingResynchronizesAndReportsTheSkippedRange) {
  std::string b = seed();
  b[kDrop + 3] = 0x00;
  const std::string path = write_damaged("bad-magic-keep-going", b);
  const Ran r = run_dump({"--keep-going", path});
  EXPECT_EQ(r.status, 1);
  // Everything except the 12-byte DROPNOTIFY is printed.
  const std::string full = run_dump({fixture("golden/seed-lp64-le.pmclog")}).out;
  std::string want;
  for (const auto& l : lines(full))
    if (l.rfind("       452 ", 0) != 0) want += l + "\n";
  EXPECT_EQ(r.out, want);
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 2u) << r.err;
  EXPECT_NE(err[0].find("offset 452"), std::string::npos) << err[0];
  EXPECT_EQ(err[1], "pmclog-dump: " + path + ": skipped bytes 452..464 (12 bytes), going on at offset 464");
}

TEST(Damaged, KeepGoingReportsEveryDamage) {
  std::string b = seed();
  b[kDrop + 2] = 0x30;  // unknown type: skipped by its length
  b[kMapOut + 3] = 0x11;  // bad magic: resynchronized
  const Ran r = run_dump({"--keep-going", "--type", "map-out,dropnotify,closelog",
                          write_damaged("two-damages", b)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "      5396 CLOSELOG       ts=4294967295.194693631\n");
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 4u) << r.err;
  EXPECT_NE(err[1].find("skipped bytes 452..464"), std::string::npos) << err[1];
  EXPECT_NE(err[3].find("skipped bytes 4752..4784"), std::string::npos) << err[3];
}

TEST(Damaged, StdinIsNamedInTheErrorLine) {
  const std::string path = write_damaged("truncated-stdin", seed().substr(0, kClose + 8));
  const Ran r = run({kDump, "--format=jsonl"}, stdin_piped(slurp(path)));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(lines(r.out).size(), 30u);
  EXPECT_EQ(r.err.rfind("pmclog-dump: (stdin): record at offset 5396", 0), 0u) << r.err;
}

// An empty file is no log (a kernel always writes INITIALIZE first): every format, and
// --show-abi, says so on stderr with the offset and exits 1, inventing no ABI.
TEST(Damaged, EmptyFileIsAnError) {
  const std::string path = write_damaged("empty", "");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path}, {"--format=jsonl", path}, {"--stats", path},
        {"--format=pmcstat", path}, {"--show-abi", path}}) {
    const Ran r = run_dump(args);
    EXPECT_EQ(r.status, 1) << args.front();
    EXPECT_NE(r.err.find("empty input: no INITIALIZE record"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("L3"), std::string::npos) << "no ABI invented: " << r.out;
    EXPECT_NE(r.err.find("offset 0"), std::string::npos) << r.err;
  }
}

// Two bytes: a truncated log, as the records say and as --show-abi (which reads none) says,
// never "empty input". (--stats still sums up what it read: no records, the error.)
TEST(Damaged, TwoBytesAreATruncatedLogNotAnEmptyOne) {
  const std::string path = write_damaged("two", std::string("\x00\x03", 2));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path}, {"--format=jsonl", path}, {"--show-abi", path}}) {
    const Ran r = run_dump(args);
    EXPECT_EQ(r.status, 1) << args.front();
    EXPECT_EQ(r.err.find("empty input"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": record at offset 0: truncated: only 2 bytes"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("abi:"), std::string::npos) << "no ABI invented: " << r.out;
    EXPECT_EQ(r.out.find("L3"), std::string::npos) << "no ABI invented: " << r.out;
  }
}
