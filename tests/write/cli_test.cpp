// The command line: JSON input with friendly defaults, rejected lines (line number, field,
// reason, and no output at all), usage errors, standard output, interruption, progress.
#include <gtest/gtest.h>

#include "pmclog/detect.h"
#include "pmclog/reader.h"
#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

std::vector<Record> records_of(const std::vector<uint8_t>& bytes, Abi& abi) {
  auto det = detect_abi(bytes);
  EXPECT_TRUE(det.ok());
  std::vector<Record> out;
  if (!det.ok()) return out;
  abi = det->abi;
  LogReader reader = LogReader::over(bytes, abi);
  Record r;
  Error err;
  Step s;
  while ((s = reader.next(r, err)) == Step::record) out.push_back(r);
  EXPECT_EQ(s, Step::end) << err.message;
  return out;
}

TEST(Cli, HandWrittenLineIsComplete) {
  ScratchDir d;
  write_file(d / "in.jsonl",
       "{\"type\":\"callchain\",\"pid\":42,\"pcs\":[\"0x401000\",\"0x401200\"]}\n"
       "\n"
       "{\"type\":\"callchain\",\"pid\":43,\"cpu\":1,\"usermode\":1,\"pcs\":[4096]}\n");
  const Ran r = run({write_bin(), d / "in.jsonl", "-o", d / "out.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("adding one"), std::string::npos) << "says that it added INITIALIZE";
  const auto bytes = slurp_bytes(d / "out.pmclog");
  Abi abi;
  const auto recs = records_of(bytes, abi);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(abi.generation, Generation::L3);
  EXPECT_EQ(recs[0].kind, Kind::initialize);
  EXPECT_EQ(recs[0][Field::version], 0x03010000u);
  EXPECT_EQ(recs[1].kind, Kind::callchain);
  EXPECT_EQ(recs[1][Field::pid], 42u);
  ASSERT_EQ(recs[1].pcs.size(), 2u);
  EXPECT_EQ(recs[1].pcs[1], 0x401200u);
  EXPECT_EQ(recs[2].cpu(), 1u);
  EXPECT_TRUE(recs[2].user_callchain());
  // derived times increase
  EXPECT_LT(recs[1].header.ts_nsec, recs[2].header.ts_nsec);
}

TEST(Cli, GenerationFromTheInitializeVersion) {
  ScratchDir d;
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"version\":\"0x0A000000\",\"cpuid\":\"GenuineIntel-6-6A-6\"}\n"
       "{\"type\":\"procexec\",\"pid\":7,\"entryaddr\":\"0x800200000\",\"dynaddr\":\"0x200000\",\"path\":\"/bin/sh\"}\n"
       "{\"type\":\"thr-create\",\"tid\":100001,\"pid\":7,\"tdname\":\"sh\"}\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "out.pmclog"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  Abi abi;
  const auto recs = records_of(slurp_bytes(d / "out.pmclog"), abi);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(abi.generation, Generation::M10);
  EXPECT_EQ(recs[1][Field::dynaddr], 0x200000u);
  EXPECT_LT(recs[0].header.tsc, recs[2].header.tsc);
}

struct Rejected {
  std::string name;    // the ctest name: what is wrong with the line
  std::string line3;   // the bad third line
  std::string field, reason;
};

// Stable readable names: GoogleTest's (the generator) and ctest's, which gtest_discover_tests
// takes from the printed parameter (without PrintTo, the object's raw bytes, pointers
// included, so the names changed from run to run).
std::string rejected_name(const ::testing::TestParamInfo<Rejected>& info) {
  return info.param.name;
}
void PrintTo(const Rejected& c, std::ostream* os) { *os << c.name; }

class CliRejects : public ::testing::TestWithParam<Rejected> {};

TEST_P(CliRejects, LineNumberFieldReasonAndNoOutput) {
  const Rejected& c = GetParam();
  ScratchDir d;
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n"
       "{\"type\":\"sysexit\",\"pid\":1}\n" + c.line3 + "\n{\"type\":\"closelog\"}\n");
  const fs::path out = d / "out.pmclog";
  const Ran r = run({write_bin(), d / "in.jsonl", "-o", out});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("in.jsonl:3: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.field), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.reason), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(d.path()))
    EXPECT_EQ(e.path().filename(), "in.jsonl") << "left behind: " << e.path();
  // Standard output gets nothing either.
  const Ran s = run({write_bin(), "-", "-o", "-"}, stdin_piped(slurp(d / "in.jsonl")));
  EXPECT_EQ(s.status, 1);
  EXPECT_TRUE(s.out.empty());
  EXPECT_NE(s.err.find("(stdin):3: "), std::string::npos) << s.err;
}

INSTANTIATE_TEST_SUITE_P(
    Lines, CliRejects,
    ::testing::Values(
        Rejected{"PidAbove32Bits", "{\"type\":\"sysexit\",\"pid\":4294967296}", "'pid'",
                 "does not fit in 32 bits"},
        Rejected{"UnknownType", "{\"type\":\"teleport\"}", "'type'", "unknown type"},
        Rejected{"MissingPath", "{\"type\":\"map-in\",\"pid\":1,\"start\":0}", "'path'",
                 "missing"},
        Rejected{"PathAbovePathMax",
                 "{\"type\":\"map-in\",\"pid\":1,\"start\":0,\"path\":\"" +
                     std::string(1500, 'p') + "\"}",
                 "'path'", "PATH_MAX"},
        Rejected{"CallchainAboveDepthLimit",
                 "{\"type\":\"callchain\",\"pid\":1,\"pcs\":[" + [] {
                   std::string s = "1";
                   for (int i = 0; i < 128; ++i) s += ",1";
                   return s;
                 }() + "]}",
                 "'pcs'", "129 frames"},
        Rejected{"TypeOfAnotherGeneration", "{\"type\":\"thr-exit\",\"tid\":1}", "'type'",
                 "does not exist in generation L3"},
        Rejected{"GenerationDiffers", "{\"type\":\"sysexit\",\"generation\":\"M9\"}",
                 "'generation'", "differs"},
        Rejected{"InvalidJson", "{\"type\":\"sysexit\", oops}", "invalid JSON", "column"}),
    rejected_name);

TEST(Cli, UsageErrorsExit2AndCreateNothing) {
  ScratchDir d;
  write_file(d / "in.jsonl", "{\"type\":\"closelog\"}\n");
  const std::string w = write_bin();
  EXPECT_EQ(run({w, d / "in.jsonl"}).status, 2);  // no -o
  EXPECT_EQ(run({w, "--records", "5", d / "in.jsonl", "-o", d / "o"}).status, 2);
  EXPECT_EQ(run({w, "--generation", "L7", d / "in.jsonl", "-o", d / "o"}).status, 2);
  EXPECT_EQ(run({w, "--bogus", "-o", d / "o"}).status, 2);
  EXPECT_EQ(run({w, "synth", "--size", "12XB", "-o", d / "o"}).status, 2);
  EXPECT_EQ(run({w, d / "missing.jsonl", "-o", d / "o"}).status, 2);
  EXPECT_EQ(run({w, "synth", "-n", "100", "-o", d / "no-such-dir" / "o"}).status, 2);
  EXPECT_FALSE(fs::exists(d / "o"));
  const Ran h = run({w, "--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("synth"), std::string::npos);
  EXPECT_NE(h.out.find("--inject"), std::string::npos);
  for (const char* opt : {"-V", "--version"}) {
    const Ran v = run({w, opt});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("pmclog-write ", 0), 0u) << v.out;
  }
}

// The ABI options in bytes, as every tool has them; the old -g/-w/-b and synth's -p/-e/-d are
// gone (in perf and pmclog-record, -p is a pid and -e an event).
TEST(Cli, OneOptionLanguage) {
  ScratchDir d;
  const std::string w = write_bin();
  for (const std::string& bad :
       {std::string("synth -w 64"), std::string("synth --address-width 64"),
        std::string("synth -g L3"), std::string("synth -b big"), std::string("synth -p 3"),
        std::string("synth -e 2"), std::string("synth -d 2..4"),
        std::string("synth --time-width 6")}) {
    const Ran r = run(concat({{w}, words(bad), {"-n", "10", "-o", d / "o"}}));
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err.rfind("pmclog-write: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\nTry 'pmclog-write --help'.\n"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(d / "o"));
  const Ran bits = run({w, "synth", "--address-width", "64", "-o", d / "o"});
  EXPECT_NE(bits.err.find("give 8, not 64"), std::string::npos) << bits.err;
  const Ran ok = run(concat({{w},
                             words("synth -q -n 200 --processes 3 --events 2 --depth 2..4 "
                                   "--generation L3 --address-width 4 --byte-order big"),
                             {"-o", d / "o"}}));
  ASSERT_EQ(ok.status, 0) << ok.err;
  Abi abi;
  records_of(slurp_bytes(d / "o"), abi);
  EXPECT_EQ(abi.generation, Generation::L3);
  EXPECT_EQ(abi.address_width, 4);
  EXPECT_EQ(abi.byte_order, ByteOrder::big);
}

TEST(Cli, StandardOutputGetsTheSameBytes) {
  ScratchDir d;
  const std::vector<std::string> synth = {write_bin(), "synth", "-q", "-n", "2000", "--seed", "2",
                                          "--generation", "L3"};
  ASSERT_EQ(run(concat({synth, {"-o", d / "file.pmclog"}})).status, 0);
  RunOptions to_file;
  to_file.stdout_path = d.file("pipe.pmclog");
  ASSERT_EQ(run(concat({synth, {"-o", "-"}}), to_file).status, 0);
  EXPECT_EQ(slurp(d / "file.pmclog"), slurp(d / "pipe.pmclog"));
}

TEST(Cli, InterruptedRunLeavesNoFile) {
  ScratchDir d;
  // 64 GiB would take minutes; the run is stopped well before it could finish.
  const Ran r = run({write_bin(), "synth", "-q", "-s", "64GiB", "-o", d / "big.pmclog"}, {},
                    [](pid_t pid) {
                      sleep(1);
                      kill(pid, SIGTERM);
                    });
  EXPECT_EQ(r.status, 143) << r.out << r.err;
  EXPECT_TRUE(fs::is_empty(d.path())) << "neither the output nor its temporary remains";
}

TEST(Cli, ProgressOnlyOnATerminal) {
  ScratchDir d;
  // No delay: the line would otherwise wait a second, longer than these runs take.
  const std::string now = "PMCLOG_PROGRESS_AFTER_MS=0 ";
  RunOptions no_delay;
  no_delay.env = {"PMCLOG_PROGRESS_AFTER_MS=0"};
  const Ran quiet = run({write_bin(), "synth", "-n", "3000", "-o", d / "a.pmclog"}, no_delay);
  ASSERT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.err.empty()) << "stderr is a file here: no progress line";
  // `script` gives the tool a pseudo-terminal; it runs the command line with a shell.
  const Ran tty = run({"script", "-qec",
                       now + shell_quote(write_bin()) + " synth -n 3000 -o " + shell_quote(d.file("b.pmclog")),
                       "/dev/null"});
  if (tty.status == 127) GTEST_SKIP() << "no script(1)";
  EXPECT_EQ(tty.status, 0) << tty.out;
  EXPECT_NE(tty.out.find("pmclog-write: writing "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("%"), std::string::npos) << tty.out;
  const Ran off = run({"script", "-qec",
                       now + shell_quote(write_bin()) + " synth -q -n 3000 -o " + shell_quote(d.file("c.pmclog")),
                       "/dev/null"});
  EXPECT_EQ(off.out.find("writing"), std::string::npos) << "--quiet: " << off.out;
}

// An input with no JSON line is no log: exit 1 with the reason, and no output file, whether
// it is an empty file, blank lines or an empty pipe.
TEST(Cli, EmptyInputIsAnErrorAndWritesNothing) {
  ScratchDir d;
  write_file(d / "empty.jsonl", "");
  write_file(d / "blank.jsonl", "\n  \n");
  // "-": standard input, /dev/null
  for (const std::string& in : {d.file("empty.jsonl"), d.file("blank.jsonl"), std::string("-")}) {
    SCOPED_TRACE(in);
    const Ran r = run({write_bin(), in, "-o", d / "out.pmclog"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("empty input: no INITIALIZE record"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(d / "out.pmclog"));
  }
}

}  // namespace
}  // namespace pmclog::write_test
