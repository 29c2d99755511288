// Every tool on a PMCL container file (format.md §18): pmclog-dump's text, jsonl,
// --show-abi, --explain and --stats; pmclog-write's round trip and `synth --container`;
// pmclog-validate's rules; pmclog-report on a container + log; pmclog-record --container on
// this machine; damaged containers with their offsets.
#include <gtest/gtest.h>

#include "run_tool.h"

namespace dumptest {
namespace {

const std::string kWrite = PMCLOG_WRITE_EXE;
const std::string kValidate = PMCLOG_VALIDATE_EXE;

// The committed fixture: amd64 container (SYSINFO with a stale byte and reserved fields set,
// CPUID, PMCINFO, an unknown info type) in front of the M10 64-bit little-endian log.
const std::string kFixture = fixture("container/PMCL-M10-64-le.pmclog");
const std::string kFixtureBe = fixture("container/PMCL-M10-64-be.pmclog");

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(ContainerTools, TextShowsTheContainerBeforeTheRecords) {
  const auto r = run_dump({kFixture});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto l = lines(r.out);
  ASSERT_GT(l.size(), 8u);
  EXPECT_EQ(l[0].rfind("@0 PMCL header: magic 0x504d434c (little-endian), version 0, arch amd64 (1)", 0), 0u) << l[0];
  EXPECT_TRUE(has(l[1], "@8 PMCL info sysinfo (192 bytes; reserved 0xa5 0xdeadbeef) cpu_model=\"Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\""));
  EXPECT_TRUE(has(r.out, "PMCL info cpuid (32 bytes) leaves=2"));
  EXPECT_TRUE(has(r.out, "PMCL info pmcinfo (25 bytes) rate=65536 event=\"INST_RETIRED.ANY\""));
  EXPECT_TRUE(has(r.out, "PMCL info unknown type 9 (3 bytes)"));
  // Record offsets are file offsets: INITIALIZE right after DONE.
  EXPECT_TRUE(has(r.out, "\n       300 INITIALIZE")) << r.out.substr(0, 1200);
}

TEST(ContainerTools, ShowAbiNamesTheEvidence) {
  const auto r = run_dump({"--show-abi", kFixtureBe});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "M10, 64-bit addresses, big-endian"));
  EXPECT_TRUE(has(r.out, "byte order: big-endian (the PMCL container's magic 0x504d434c"));
  EXPECT_TRUE(has(r.out, "address width: 8 bytes (the PMCL container's arch ppc64"));
  EXPECT_TRUE(has(r.out, "the pmclog stream starts at offset 216"));
}

TEST(ContainerTools, JsonlRoundTripIsByteExactAndPipesWork) {
  const std::string dir = temp_dir();
  for (const auto& f : {kFixture, kFixtureBe}) {
    // cat F | pmclog-dump --format=jsonl - | pmclog-write -q -o RT -
    const auto r = jsonl_to_write({"-"}, {"-q", "-o", dir + "/rt.pmclog"}, stdin_piped(slurp(f)));
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_TRUE(same_bytes(f, dir + "/rt.pmclog")) << f;
  }
  const auto j = run_dump({"--format=jsonl", kFixture});
  const auto l = lines(j.out);
  ASSERT_GT(l.size(), 6u);
  EXPECT_EQ(l[0], R"({"offset":0,"type":"pmcl-header","byte_order":"little","version":0,"arch":"amd64","arch_code":1})");
  EXPECT_TRUE(has(l[1], R"("type":"pmcl-info","info_type":"sysinfo","info_type_code":1,"length":192,"reserved8":165,"reserved32":3735928559)"));
  EXPECT_TRUE(has(l[1], R"("cpu_model_hex":")"));  // the stale byte after the NUL
  EXPECT_TRUE(has(l[4], R"("info_type":"unknown","info_type_code":9,"length":3,"reserved8":0,"reserved32":0,"payload_hex":"78797a")"));
}

TEST(ContainerTools, ExplainAndStats) {
  const auto e = run_dump({"--explain", kFixture});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_TRUE(has(e.out, "@0 PMCL file header (8 bytes)\n  +0     4c 43 4d 50 0x504d434c  magic"));
  EXPECT_TRUE(has(e.out, "+4     00 00 01 00 0x00010000  version 0, arch 1"));
  EXPECT_TRUE(has(e.out, "type 1, reserved 0xa5, length 192 (u8, u8, u16)"));
  EXPECT_TRUE(has(e.out, "leaf[1].edx"));
  const auto s = run_dump({"--stats", kFixture});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(has(s.out, "container: PMCL version 0, arch amd64 (1), little-endian, 300 bytes"));
  const auto sj = run_dump({"--stats", "--format=json", kFixture});
  EXPECT_TRUE(has(sj.out, R"("container":{"version":0,"arch":"amd64","arch_code":1,"byte_order":"little","stream_offset":300,"infos":[{"offset":8,"info_type":"sysinfo")")) << sj.out.substr(0, 400) << sj.err;
}

TEST(ContainerTools, ValidateChecksTheContainer) {
  auto v = run({kValidate, kFixture});
  EXPECT_EQ(v.status, 0) << v.out << v.err;  // unknown info: a warning only
  EXPECT_TRUE(has(v.out, "[container-unknown-info]")) << v.out;
  EXPECT_FALSE(has(v.out, "error:")) << v.out;
  v = run({kValidate, "--list-rules"});
  for (const char* id : {"container-truncated", "container-past-end", "container-no-done",
                         "container-version", "container-sysinfo-length", "container-cpuid-length",
                         "container-arch", "container-unknown-info"})
    EXPECT_TRUE(has(v.out, id)) << id;
}

struct Cut {
  const char* name;
  std::string bytes;  // the fixture, damaged
  const char* message;
  const char* rule;
};

TEST(ContainerTools, DamagedContainersNameTheOffset) {
  const std::string dir = temp_dir();
  const std::string fx = slurp(kFixture);
  std::string version1 = fx;
  version1[4] = '\001';
  const Cut cuts[] = {
      {"truncated header", fx.substr(0, 6), "the 8-byte file header at offset 0 is cut", "container-truncated"},
      {"past the end", fx.substr(0, 100), "info at offset 8 (type 1 sysinfo, length 192): its payload ends at offset 208, past the end of the data at offset 100", "container-past-end"},
      {"no DONE", fx.substr(0, 292), "no DONE info header before the end of the data at offset 292", "container-no-done"},
      {"version 1", version1, "version 1 at offset 4", "container-version"},
  };
  for (const Cut& c : cuts) {
    SCOPED_TRACE(c.name);
    const std::string f = dir + "/damaged.pmclog";
    write_file(f, c.bytes);
    const auto d = run_dump({f});
    EXPECT_EQ(d.status, 1);
    EXPECT_TRUE(has(d.err, c.message)) << d.err;
    const auto v = run({kValidate, f});
    EXPECT_EQ(v.status, 1);
    EXPECT_TRUE(has(v.out, c.message)) << v.out;
    EXPECT_TRUE(has(v.out, std::string("[") + c.rule + "]")) << v.out;
  }
}

TEST(ContainerTools, SynthContainerForEachAbi) {
  const std::string dir = temp_dir();
  struct K {
    const char* args;
    const char* arch;
    bool cpuid;
  };
  for (const K& k : {K{"", "amd64", true}, K{"--byte-order big", "ppc64", false},
                     K{"--address-width 4 --time-width 8", "arm", false},
                     K{"--address-width 4", "other", true}}) {
    SCOPED_TRACE(k.args);
    const std::string f = dir + "/synth.pmclog";
    ASSERT_EQ(run(concat({{kWrite, "synth", "--container", "-q", "-n", "200"}, words(k.args), {"-o", f}}))
                  .status,
              0);
    const auto d = run_dump({f});
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_TRUE(has(d.out, std::string("arch ") + k.arch + " (")) << d.out.substr(0, 300);
    EXPECT_EQ(has(d.out, "PMCL info cpuid"), k.cpuid);
    EXPECT_EQ(run({kValidate, "-q", f}).status, 0);
    const auto rt = jsonl_to_write({f}, {"-q", "-o", f + ".rt"});
    EXPECT_EQ(rt.status, 0) << rt.err;
    EXPECT_TRUE(same_bytes(f, f + ".rt"));
  }
}

TEST(ContainerTools, ReportReadsAContainerLog) {
  if (std::string(PMCLOG_REPORT_EXE).empty()) GTEST_SKIP() << "pmclog-report not built";
  const std::string dir = temp_dir();
  ASSERT_EQ(run({kWrite, "synth", "-q", "-n", "400", "-o", dir + "/bare.pmclog"}).status, 0);
  ASSERT_EQ(run({kWrite, "synth", "--container", "-q", "-n", "400", "-o", dir + "/boxed.pmclog"}).status, 0);
  const auto a = run({PMCLOG_REPORT_EXE, dir + "/bare.pmclog"});
  const auto b = run({PMCLOG_REPORT_EXE, dir + "/boxed.pmclog"});
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_FALSE(b.out.empty());
  EXPECT_EQ(a.out, b.out);  // the same records, the same profile
}

TEST(ContainerTools, RecordContainerOnThisMachine) {
  if (std::string(PMCLOG_RECORD_EXE).empty()) GTEST_SKIP() << "pmclog-record not built";
  const std::string dir = temp_dir();
  const std::string f = dir + "/rec.pmclog";
  const auto r = run({PMCLOG_RECORD_EXE, "--container", "-q", "-o", f, "--", "true"});
  if (r.status != 0) GTEST_SKIP() << "pmclog-record cannot record here: " << r.err;
  const auto d = run_dump({"--show-abi", f});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(has(d.out, "PMCL info sysinfo (192 bytes) cpu_model=")) << d.out;
  const auto t = run_dump({f});
  ASSERT_EQ(t.status, 0) << t.err;
#if defined(__x86_64__)
  EXPECT_TRUE(has(d.out, "arch amd64 (code 1)")) << d.out;
  EXPECT_TRUE(has(t.out, "PMCL info cpuid (")) << t.out;
#endif
  EXPECT_EQ(run({kValidate, "-q", f}).status, 0);
  const auto rt = jsonl_to_write({f}, {"-q", "-o", f + ".rt"});
  EXPECT_EQ(rt.status, 0) << rt.err;
  EXPECT_TRUE(same_bytes(f, f + ".rt"));
}

}  // namespace
}  // namespace dumptest

namespace dumptest {
namespace {

// docs/jsonl.md shows the container lines of the committed fixture: they are what the dump prints.
TEST(ContainerTools, DocsShowTheDumpsLines) {
  const std::string doc = slurp(std::string(PMCLOG_FIXTURES_DIR) + "/../docs/jsonl.md");
  std::vector<std::string> shown;
  for (const auto& l : lines(doc))
    if (l.rfind("{\"offset\":", 0) == 0 && l.find("\"type\":\"pmcl-") != std::string::npos)
      shown.push_back(l);
  ASSERT_EQ(shown.size(), 6u);
  const auto d = lines(run_dump({"--format=jsonl", kFixture}).out);
  ASSERT_GE(d.size(), 6u);
  for (size_t i = 0; i < shown.size(); ++i) EXPECT_EQ(shown[i], d[i]);
}

// A dump of two container files, then --file: each file's container comes back with its log.
TEST(ContainerTools, SeveralFilesEachWithItsContainer) {
  const std::string dir = temp_dir();
  for (const auto& [f, other] : {std::pair{kFixture, kFixtureBe}, std::pair{kFixtureBe, kFixture}}) {
    const auto r = jsonl_to_write({f, other}, {"-q", "--file", f, "-o", dir + "/one.pmclog"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(same_bytes(f, dir + "/one.pmclog")) << f;
  }
}

}  // namespace
}  // namespace dumptest
