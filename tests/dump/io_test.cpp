// Input and output paths: standard input and pipes, gzip and zstd input (from files and
// through pipes), several files, and a reader that goes away (`| head`).
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

namespace {

const std::string kSeed = "golden/seed-lp64-le.pmclog";
const std::string kModern = "golden/modern-lp64-le.pmclog";

std::string plain_output(const std::string& format, const std::string& rel) {
  const Ran r = run_dump({"--format=" + format, fixture(rel)});
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.out.empty());
  return r.out;
}

}  // namespace

TEST(Io, StdinAndPipeGiveTheSameOutputAsTheFile) {
  for (const auto& rel : {kSeed, kModern}) {
    const std::string want = plain_output("text", rel);
    EXPECT_EQ(run_dump({}, fixture(rel)).out, want);       // no FILE: standard input
    EXPECT_EQ(run_dump({"-"}, fixture(rel)).out, want);    // "-"
    const Ran piped = run({kDump, "-"}, stdin_piped(slurp(fixture(rel))));
    EXPECT_EQ(piped.status, 0);
    EXPECT_EQ(piped.out, want);
  }
}

TEST(Io, GzipAndZstdFromFilesAndPipes) {
  for (const auto& rel : {kSeed, kModern}) {
    const std::string want = plain_output("jsonl", rel);
    const std::string src = fixture(rel);
    for (const std::string tool : {"gzip", "zstd -q"}) {
      SCOPED_TRACE(rel + " " + tool);
      const std::string packed = temp_dir() + "/packed-" + tool.substr(0, 4);
      RunOptions to_packed;
      to_packed.stdout_path = packed;
      ASSERT_EQ(run(concat({words(tool), {"-c", src}}), to_packed).status, 0);
      const Ran f = run_dump({"--format=jsonl", packed});
      EXPECT_EQ(f.status, 0) << f.err;
      EXPECT_EQ(f.out, want);
      const Ran p = run({kDump, "--format=jsonl"}, stdin_piped(slurp(packed)));
      EXPECT_EQ(p.status, 0) << p.err;
      EXPECT_EQ(p.out, want);
    }
  }
}

TEST(Io, ShowAbiNamesCompressionAndEvidence) {
  const Ran gz = run({"gzip", "-c", fixture(kModern)});
  ASSERT_EQ(gz.status, 0) << gz.err;
  const Ran r = run({kDump, "--show-abi"}, stdin_piped(gz.out));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0), "(stdin): M9, 64-bit addresses, little-endian (compression: gzip)");
  EXPECT_GT(lines(r.out).size(), 1u);  // evidence lines follow
}

TEST(Io, AbiOverridesAreUsed) {
  // Forcing the wrong byte order makes the first header's magic wrong: a clear data error.
  const Ran r = run_dump({"--byte-order=big", fixture(kSeed)});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(fixture(kSeed)), std::string::npos) << r.err;
  const Ran ok = run_dump({"--generation=L3", "--address-width=8", "--byte-order=little", fixture(kSeed)});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out, plain_output("text", kSeed));
}

TEST(Io, SeveralFilesInOrder) {  // each after a `==> NAME <==` line (multi_file_test.cpp)
  const Ran r = run_dump({"--format=pmcstat", fixture(kSeed), fixture(kModern)});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "==> " + fixture(kSeed) + " <==\n" +
                       slurp(fixture("golden/seed-lp64-le.pmcstat.txt")) + "\n==> " +
                       fixture(kModern) + " <==\n" +
                       slurp(fixture("golden/modern-lp64-le.pmcstat.txt")));
}

TEST(Io, ClosedPipeEndsQuietly) {
  // `true` reads nothing, so the dump's writes fail with EPIPE once its pipe buffer is full.
  std::string files;
  for (int i = 0; i < 40; ++i) {
    files += ' ';
    files += shell_quote(fixture(kModern));
  }
  const Ran r = run_shell("$DUMP" + files + " | true; echo \"dump=${PIPESTATUS[0]}\"");
  EXPECT_EQ(r.out, "dump=0\n");
  EXPECT_EQ(r.err, "");
  const Ran h = run_shell("$DUMP" + files + " | head -2");
  EXPECT_EQ(h.out, "==> " + fixture(kModern) + " <==\n"
                   "         0 INITIALIZE     tsc=4822678189204992 (1607559.396401664s) version=0x09030000 (9.3.0) arch=0x98 (INTEL_SKYLAKE) tsc_freq=3000000000 init_ts_sec=1700000000 init_ts_nsec=123456789 cpuid=\"GenuineIntel-6-55-4\"\n");
  EXPECT_EQ(h.err, "");
}

TEST(Io, MissingFileIsAnIoError) {
  const Ran r = run_dump({temp_dir() + "/no-such.pmclog"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no-such.pmclog"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}
