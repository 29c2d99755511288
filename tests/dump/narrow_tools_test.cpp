// Every tool on logs with 4-byte addresses in 8-byte slots (powerpc64 before FreeBSD 13,
// format.md §19): pmclog-dump's --show-abi evidence, jsonl round trip and --explain;
// --address-slot in dump and validate; pmclog-validate on a clean log and on one whose
// unwritten tails hold stale bytes; pmclog-write synth in this ABI.
#include <gtest/gtest.h>

#include "run_tool.h"

namespace dumptest {
namespace {

const std::string kWrite = PMCLOG_WRITE_EXE;
const std::string kValidate = PMCLOG_VALIDATE_EXE;
const std::string kL3 = fixture("narrow/L3-32in64-be.pmclog");
const std::string kM9 = fixture("narrow/M9-32in64-be.pmclog");

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(NarrowTools, ShowAbiNamesTheEvidence) {
  for (const auto& [f, gen] : {std::pair{kL3, "L3"}, std::pair{kM9, "M9"}}) {
    const auto r = run_dump({"--show-abi", f});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(r.out, std::string(gen) + ", 32-bit addresses in 64-bit slots, big-endian")) << r.out;
    // The path records decide, slots and values; the first one is named with its offset.
    EXPECT_TRUE(has(r.out, "address slots: 8 bytes (PROCEXEC of ")) << r.out;
    EXPECT_FALSE(has(r.out, "address width:")) << r.out;
    EXPECT_TRUE(has(r.out, "address values: 4 bytes in 8-byte slots (PROCEXEC of ")) << r.out;
    EXPECT_TRUE(has(r.out, "the path follows a 4-byte address")) << r.out;
  }
  // The ordinary 64-bit big-endian fixture is still 64-bit, with no such line.
  const auto r = run_dump({"--show-abi", fixture("L3-64-be.pmclog")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "L3, 64-bit addresses, big-endian")) << r.out;
  EXPECT_FALSE(has(r.out, "address values:")) << r.out;
}

TEST(NarrowTools, OptionsSelectTheAbi) {
  auto r = run_dump({"--show-abi", "--address-width", "4", "--address-slot", "8", kL3});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "address values: 4 bytes in 8-byte slots (given)")) << r.out;
  r = run_dump({"--show-abi", "--address-slot", "8", kM9});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "address slots: 8 bytes (given")) << r.out;
  EXPECT_TRUE(has(r.out, "M9, 32-bit addresses in 64-bit slots")) << r.out;
  // Read as plain 32-bit, the lengths are wrong: errors with offsets, exit 1.
  r = run_dump({"--address-width", "4", kL3});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "offset")) << r.err;
  r = run_dump({"--address-width", "8", "--address-slot", "4", kL3});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--address-slot 4 is narrower than --address-width 8")) << r.err;
  const auto v = run({kValidate, "-q", "--address-width", "4", "--address-slot", "8", kL3});
  EXPECT_EQ(v.status, 0) << v.out << v.err;
}

TEST(NarrowTools, JsonlRoundTripIsByteExact) {
  const std::string dir = temp_dir();
  for (const auto& f : {kL3, kM9}) {
    const auto r = jsonl_to_write({f}, {"-q", "-o", dir + "/rt.pmclog"});
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_TRUE(same_bytes(f, dir + "/rt.pmclog")) << f;
  }
  const auto j = run_dump({"--format=jsonl", kL3});
  EXPECT_TRUE(has(lines(j.out).at(0), R"("address_width":4,"address_slot":8)")) << j.out.substr(0, 300);
}

// Stale bytes in every unwritten tail (as a kernel's reused buffer leaves them): the values
// are unchanged, jsonl carries the bytes, and only the pedantic rule mentions them.
TEST(NarrowTools, StaleTailsAreCarriedAndNotErrors) {
  const std::string dir = temp_dir();
  const std::string stale = dir + "/stale.pmclog";
  // jq-free: rewrite the jsonl's callchain and map-out lines with an "unwritten" member is
  // more than a shell line; flip the bytes in place instead, at the offsets --explain names.
  const auto e = run_dump({"--explain", kL3});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_TRUE(has(e.out, "unwritten (the rest of the frames' address slots, stale)")) << e.out;
  EXPECT_TRUE(has(e.out, "unwritten (stale buffer bytes)"));
  std::string bytes = slurp(kL3);
  // Every word --explain calls unwritten becomes A5 A5 A5 A5.
  uint64_t record = 0;
  int flipped = 0;
  for (const auto& line : lines(e.out)) {
    if (line.rfind("@", 0) == 0) record = std::stoull(line.substr(1));
    if (line.rfind("  +", 0) == 0 && has(line, "unwritten")) {
      const uint64_t at = record + std::stoull(line.substr(3));
      bytes.replace(at, 4, "\xA5\xA5\xA5\xA5");
      ++flipped;
    }
  }
  ASSERT_GT(flipped, 4);
  write_file(stale, bytes);
  const auto a = run_dump({kL3}), b = run_dump({stale});
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n')));  // same records
  const auto rt = jsonl_to_write({stale}, {"-q", "-o", stale + ".rt"});
  EXPECT_EQ(rt.status, 0) << rt.err;
  EXPECT_TRUE(same_bytes(stale, stale + ".rt"));
  auto v = run({kValidate, stale});
  EXPECT_EQ(v.status, 0) << v.out << v.err;
  EXPECT_FALSE(has(v.out, "error:")) << v.out;
  v = run({kValidate, "--pedantic", stale});
  EXPECT_TRUE(has(v.out, "[nonzero-unwritten]")) << v.out;
  EXPECT_TRUE(has(v.out, "unwritten slot byte")) << v.out;
  EXPECT_FALSE(has(v.out, "error:")) << v.out;
}

TEST(NarrowTools, SynthWritesTheAbi) {
  const std::string dir = temp_dir();
  for (const char* gen : {"L3", "M9"}) {
    SCOPED_TRACE(gen);
    const std::string f = dir + "/synth.pmclog";
    ASSERT_EQ(run({kWrite, "synth", "-q", "-n", "2000", "--generation", gen, "--address-width", "4",
                   "--address-slot", "8", "--byte-order", "big", "-o", f})
                  .status,
              0);
    const auto d = run_dump({"--show-abi", f});
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_TRUE(has(d.out, "32-bit addresses in 64-bit slots")) << d.out;
    const auto v = run({kValidate, f});
    EXPECT_EQ(v.status, 0) << v.out << v.err;
    const auto rt = jsonl_to_write({f}, {"-q", "-o", f + ".rt"});
    EXPECT_EQ(rt.status, 0) << rt.err;
    EXPECT_TRUE(same_bytes(f, f + ".rt"));
  }
  // Behind a PMCL container (arch ppc64: 8-byte slots), the path records still tell the values.
  const std::string c = dir + "/container.pmclog";
  ASSERT_EQ(run({kWrite, "synth", "--container", "-q", "-n", "300", "--generation", "M9",
                 "--address-width", "4", "--address-slot", "8", "--byte-order", "big", "-o", c})
                .status,
            0);
  const auto d = run_dump({"--show-abi", c});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(has(d.out, "address slots: 8 bytes (the PMCL container's arch ppc64")) << d.out;
  EXPECT_TRUE(has(d.out, "address values: 4 bytes in 8-byte slots (MAP_IN of ")) << d.out;
  EXPECT_NE(run({kWrite, "synth", "-q", "-n", "100", "--address-width", "8", "--address-slot", "4",
                 "-o", dir + "/x.pmclog"})
                .status,
            0);
}

}  // namespace
}  // namespace dumptest
