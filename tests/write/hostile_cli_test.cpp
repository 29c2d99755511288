// Command lines that were accepted in silence, or answered unhelpfully: each is a usage error
// (2, the option named, the Try line) or bad data (1), and leaves no output. Also the defaults
// --help claims, --help on a full disk, and the progress line on a terminal only.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool_runner.h"

namespace pmclog::write_test {
namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

constexpr const char* kTry = "\nTry 'pmclog-write --help'.\n";

// A usage error: status 2, "pmclog-write: " + the message, the Try line.
void expect_usage(const Ran& r, const std::string& part) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("pmclog-write: ", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, part)) << "wanted: " << part << "\ngot: " << r.err;
  EXPECT_TRUE(has(r.err, kTry)) << r.err;
}

// Runs the shell command line `cmd` under script(1), which gives it a pseudo-terminal as
// standard input, output and error; what it printed is in `out`. Status 127: no script(1)
// here. The timeout stops a run that waits for the terminal to type.
Ran on_terminal(const std::string& cmd) {
  return run({"timeout", "20", "script", "-qec", cmd, "/dev/null"});
}

std::string sq(const fs::path& p) { return shell_quote(p.string()); }

TEST(HostileCli, StrayWordIsRefused) {
  ScratchDir d;
  const Ran s = run({write_bin(), "synth", "-q", "-n", "100", "-o", d / "a.pmclog", "extra"});
  expect_usage(s, "unexpected argument 'extra'");
  write_file(d / "in.jsonl", "{\"type\":\"callchain\",\"pid\":1,\"pcs\":[4096]}\n");
  const Ran j = run({write_bin(), "-q", d / "in.jsonl", "extra", "-o", d / "a.pmclog"});
  expect_usage(j, "unexpected argument 'extra'");
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

// --file chooses among the files of a JSON Lines input: synth has none.
TEST(HostileCli, FileOptionInSynth) {
  ScratchDir d;
  expect_usage(run({write_bin(), "synth", "-q", "-n", "100", "--file", "a.pmclog", "-o", d / "a.pmclog"}),
               "--file chooses one file of a JSON Lines input");
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

TEST(HostileCli, RecordCountAndSizeTogether) {
  ScratchDir d;
  const Ran r = run({write_bin(), "synth", "-n", "100", "-s", "1MiB", "-o", d / "a.pmclog"});
  expect_usage(r, "--records");
  EXPECT_TRUE(has(r.err, "--size")) << r.err;
  EXPECT_TRUE(has(r.err, "cannot be used together")) << r.err;
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

TEST(HostileCli, SubcommandAfterAnOption) {
  ScratchDir d;
  const Ran r = run({write_bin(), "-q", "synth", "-n", "100", "-o", d / "a.pmclog"});
  expect_usage(r, "the subcommand comes first: pmclog-write synth -q -n 100 -o ");
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

// Every synth number outside its range, as the user typed it, quoted, with the Try line; a
// negative number is refused, not wrapped to four billion.
TEST(HostileCli, SynthValuesOutOfRange) {
  ScratchDir d;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--cpus 0", "--cpus: '0' is not 1 to 256"},
      {"--cpus 257", "--cpus: '257' is not 1 to 256"},
      {"--cpus -1", "--cpus: '-1'"},
      {"--events 0", "--events: '0' is not 1 to 8"},
      {"--events 9", "--events: '9' is not 1 to 8"},
      {"--processes 0", "--processes: '0'"},
      {"--processes -1", "--processes: '-1'"},
      {"--processes 100000", "--processes: '100000' is not 1 to 99999"},
      {"--depth 0..3", "--depth: '0..3'"},
      {"--depth 5..2", "--depth: '5..2'"},
      {"--depth 2..x", "--depth: '2..x'"},
      {"--generation L3 --depth 2..129", "--depth: '2..129' is too deep"},
      {"--cpu-buffer-size 4KiB", "--cpu-buffer-size: '4KiB'"},
      {"--seed -1", "--seed: '-1'"},
      {"-n 0", "--records: '0'"},
      {"--size 0", "--size: '0'"},
      {"--generation L3 --ibs", "--ibs"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    expect_usage(run(concat({{write_bin(), "synth", "-q"}, words(args), {"-o", d / "a.pmclog"}})), message);
  }
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
  // A budget below what the setup takes names the option.
  expect_usage(run({write_bin(), "synth", "-q", "-n", "10", "-o", d / "a.pmclog"}),
               "-n/--records 10: the log cannot be that small");
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

// A fault at an offset past the log's end damaged nothing: an error naming the fault and the
// log's size, and neither the log nor the fault list is left (a pipe gets nothing either).
TEST(HostileCli, FaultThatInjectedNothingIsAnError) {
  ScratchDir d;
  const std::vector<std::string> argv = {write_bin(), "synth", "-q", "-n", "100", "--inject",
                                         "bad-magic@99999999", "--inject-log", d / "faults.json"};
  const Ran r = run(concat({argv, {"-o", d / "a.pmclog"}}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--inject bad-magic@99999999: nothing was injected")) << r.err;
  ASSERT_EQ(run({write_bin(), "synth", "-q", "-n", "100", "-o", d / "plain.pmclog"}).status, 0);
  const auto size = fs::file_size(d / "plain.pmclog");
  EXPECT_TRUE(has(r.err, "the log is only " + std::to_string(size) + " bytes long")) << r.err;
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
  EXPECT_FALSE(fs::exists(d / "faults.json"));
  const Ran piped = run(concat({argv, {"-o", "-"}}));  // the runner reads stdout from a pipe
  EXPECT_EQ(piped.out.size(), 0u) << "nothing reached the pipe: " << piped.err;
  // The same from JSON Lines, whose input is sound (not bad data: 2).
  write_file(d / "in.jsonl", "{\"type\":\"callchain\",\"pid\":1,\"pcs\":[4096]}\n");
  const Ran j = run({write_bin(), "-q", d / "in.jsonl", "--inject", "truncate@5000", "-o", d / "a.pmclog"});
  EXPECT_EQ(j.status, 2) << j.err;
  EXPECT_TRUE(has(j.err, "--inject truncate@5000: nothing was injected")) << j.err;
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
  // A fault that fits still works.
  ASSERT_EQ(run({write_bin(), "synth", "-q", "-n", "100", "--inject", "bad-magic@2000", "-o", d / "b.pmclog"})
                .status, 0);
}

TEST(HostileCli, BothOutputsOnStandardOutput) {
  ScratchDir d;
  RunOptions to_file;
  to_file.stdout_path = d.file("out");
  expect_usage(run({write_bin(), "synth", "-q", "-n", "100", "--inject", "bad-magic", "--inject-log",
                    "-", "-o", "-"},
                   to_file),
               "cannot both be standard output");
  EXPECT_EQ(fs::file_size(d / "out"), 0u);
}

// true and false are no numbers, as null is not: exit 1, the line and the field named.
TEST(HostileCli, BooleanWhereANumberBelongs) {
  ScratchDir d;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"type\":\"callchain\",\"pid\":true,\"pcs\":[4096]}", "field 'pid': true"},
      {"{\"type\":\"callchain\",\"pid\":1,\"cpu\":false,\"pcs\":[4096]}", "field 'cpu': false"},
      {"{\"type\":\"callchain\",\"pid\":1,\"pcs\":[4096,true]}", "field 'pcs': frame 1: true"},
      {"{\"type\":\"initialize\",\"version\":true}", "field 'version': true"},
  };
  for (const auto& [line, message] : cases) {
    SCOPED_TRACE(line);
    write_file(d / "in.jsonl", "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n" + line + "\n");
    const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "a.pmclog"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_TRUE(has(r.err, ":2: " + message)) << r.err;
    EXPECT_FALSE(fs::exists(d / "a.pmclog"));
  }
}

// Two logs in one stream: the multi-file message, not a type-code error on the second one.
TEST(HostileCli, TwoGenerationsInOneStream) {
  ScratchDir d;
  const std::string fx = PMCLOG_FIXTURES_DIR;
#ifdef PMCLOG_DUMP_BIN
  const std::string dump = PMCLOG_DUMP_BIN;
  RunOptions jsonl;
  jsonl.stdin_data = run({dump, "--format=jsonl", fx + "/L3-64-le.pmclog", fx + "/M10-64-le.pmclog"}).out;
  const Ran both = run({write_bin(), "-", "-o", d / "a.pmclog"}, jsonl);
  EXPECT_EQ(both.status, 1) << both.err;
  EXPECT_TRUE(has(both.err, "input holds records of 2 files")) << both.err;
  EXPECT_TRUE(has(both.err, "--file NAME")) << both.err;
  EXPECT_FALSE(has(both.err, "type_code")) << both.err;
  // Two dumps concatenated: no "file" members, two INITIALIZE lines.
  jsonl.stdin_data = run({dump, "--format=jsonl", fx + "/L3-64-le.pmclog"}).out +
                     run({dump, "--format=jsonl", fx + "/M10-64-le.pmclog"}).out;
  const Ran cat = run({write_bin(), "-", "-o", d / "a.pmclog"}, jsonl);
  EXPECT_EQ(cat.status, 1) << cat.err;
  EXPECT_TRUE(has(cat.err, "input holds records of more than one log")) << cat.err;
  EXPECT_TRUE(has(cat.err, "generation M10 after records of L3")) << cat.err;
  EXPECT_FALSE(has(cat.err, "type_code")) << cat.err;
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
#endif
  // Hand-written, without type codes.
  write_file(d / "in.jsonl",
       "{\"type\":\"initialize\",\"version\":\"0x03010000\"}\n"
       "{\"type\":\"callchain\",\"pid\":1,\"pcs\":[4096]}\n"
       "{\"type\":\"initialize\",\"generation\":\"M10\",\"version\":\"0x0A000000\"}\n");
  const Ran r = run({write_bin(), "-q", d / "in.jsonl", "-o", d / "a.pmclog"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, ":3: input holds records of more than one log")) << r.err;
}

// A truncated .gz is damaged data (1), not an I/O error.
TEST(HostileCli, TruncatedCompressedInputIsBadData) {
  ScratchDir d;
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "{\"type\":\"callchain\",\"pid\":" + std::to_string(i) + ",\"pcs\":[4096]}\n";
  write_file(d / "in.jsonl", text);
  const Ran gz = run({"gzip", "-c", d / "in.jsonl"});
  ASSERT_EQ(gz.status, 0) << gz.err;
  ASSERT_GT(gz.out.size(), 3000u);
  write_file(d / "in.jsonl.gz", gz.out.substr(0, 3000));
  const Ran r = run({write_bin(), "-q", d / "in.jsonl.gz", "-o", d / "a.pmclog"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "gzip")) << r.err;
  EXPECT_FALSE(fs::exists(d / "a.pmclog"));
}

TEST(HostileCli, TerminalAsInputIsRefused) {
  ScratchDir d;
  for (const std::string& in : {std::string(""), std::string(" -")}) {
    SCOPED_TRACE("input:" + in);
    const Ran r = on_terminal(sq(write_bin()) + in + " -o " + sq(d / "a.pmclog"));
    if (r.status == 127) GTEST_SKIP() << "no script(1)";
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_TRUE(has(r.out, "standard input is a terminal")) << r.out;
    EXPECT_TRUE(has(r.out, "Try 'pmclog-write --help'.")) << r.out;
    EXPECT_FALSE(fs::exists(d / "a.pmclog"));
  }
}

TEST(HostileCli, TerminalAsOutputIsRefused) {
  ScratchDir d;
  const Ran r = on_terminal(sq(write_bin()) + " synth -q -n 100 -o -");
  if (r.status == 127) GTEST_SKIP() << "no script(1)";
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r.out, "refusing to write binary data to a terminal; use -o FILE or a pipe"))
      << r.out;
  // Into a pipe it still works, on a terminal too.
  const Ran p = on_terminal(sq(write_bin()) + " synth -q -n 100 -o - | wc -c");
  EXPECT_EQ(p.status, 0) << p.out;
  ASSERT_EQ(run({write_bin(), "synth", "-q", "-n", "100", "-o", d / "a.pmclog"}).status, 0);
  EXPECT_TRUE(has(p.out, std::to_string(fs::file_size(d / "a.pmclog")))) << p.out;
}

// The defaults --help states are what the tool does: the address slot is the address width
// unless given (or, for JSON, unless the input says otherwise); the byte order comes from the
// input in the JSON mode.
TEST(HostileCli, HelpStatesTheRealDefaults) {
  ScratchDir d;
  // The help with its line breaks and runs of spaces made single spaces (tr -s ' \n' ' ').
  auto flat = [](const std::string& text) {
    std::string out;
    for (char c : text) {
      if (c == '\n') c = ' ';
      if (c != ' ' || out.empty() || out.back() != ' ') out += c;
    }
    return out;
  };
  for (const std::string& h : {std::string("--help"), std::string("synth --help")}) {
    SCOPED_TRACE(h);
    Ran r = run(concat({{write_bin()}, words(h)}));
    r.out = flat(r.out);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(has(r.out, "detected from the log")) << r.out;
    EXPECT_TRUE(has(r.out, "synth: the address width")) << r.out;
    EXPECT_TRUE(has(r.out, "JSON: from the input, else little")) << r.out;
    EXPECT_TRUE(has(r.out, "1 to 256 (default 4)")) << r.out;
  }
  // What synth writes when --address-slot is left out: 4-byte addresses in 4-byte slots.
  ASSERT_EQ(run({write_bin(), "synth", "-q", "-n", "100", "--address-width", "4", "-o", d / "a.pmclog"}).status, 0);
#ifdef PMCLOG_DUMP_BIN
  Ran j = run({PMCLOG_DUMP_BIN, "--format=jsonl", d / "a.pmclog"});
  j.out = j.out.substr(0, j.out.find('\n'));  // the first line
  EXPECT_TRUE(has(j.out, "\"address_width\":4")) << j.out;
  EXPECT_FALSE(has(j.out, "\"address_slot\":8")) << j.out;
#endif
}

TEST(HostileCli, HelpAndVersionOnAFullDisk) {
  ScratchDir d;
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  RunOptions full;
  full.stdout_path = "/dev/full";
  for (const std::string& a : {std::string("--help"), std::string("synth --help"), std::string("-V")}) {
    SCOPED_TRACE(a);
    const Ran r = run(concat({{write_bin()}, words(a)}), full);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(has(r.err, "pmclog-write: standard output: No space left on device")) << r.err;
  }
}

// The progress line: on a terminal, "writing NAME N%" (synth) or "reading NAME N records"
// (JSON); never in a file, even with no delay; never with -q.
TEST(HostileCli, ProgressLineOnATerminalOnly) {
  ScratchDir d;
  const std::string now = "PMCLOG_PROGRESS_AFTER_MS=0 ";
  RunOptions no_delay;
  no_delay.env = {"PMCLOG_PROGRESS_AFTER_MS=0"};
  const Ran file = run({write_bin(), "synth", "-s", "8MiB", "-o", d / "a.pmclog"}, no_delay);
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_TRUE(file.err.empty()) << file.err;
  const Ran tty = on_terminal(now + sq(write_bin()) + " synth -s 8MiB -o " + sq(d / "b.pmclog"));
  if (tty.status == 127) GTEST_SKIP() << "no script(1)";
  ASSERT_EQ(tty.status, 0) << tty.out;
  EXPECT_TRUE(has(tty.out, "pmclog-write: writing " + (d / "b.pmclog").string() + " ")) << tty.out;
  EXPECT_TRUE(has(tty.out, "%")) << tty.out;
  const Ran quiet = on_terminal(now + sq(write_bin()) + " synth -q -s 8MiB -o " + sq(d / "c.pmclog"));
  EXPECT_FALSE(has(quiet.out, "writing")) << quiet.out;
#ifdef PMCLOG_DUMP_BIN
  const Ran j = on_terminal(sq(PMCLOG_DUMP_BIN) + " --format=jsonl " + sq(d / "a.pmclog") + " | " +
                            now + sq(write_bin()) + " - -o " + sq(d / "d.pmclog"));
  EXPECT_EQ(j.status, 0) << j.out;
  EXPECT_TRUE(has(j.out, "pmclog-write: reading (stdin) ")) << j.out;
  EXPECT_TRUE(has(j.out, " records")) << j.out;
  EXPECT_EQ(slurp(d / "a.pmclog"), slurp(d / "d.pmclog"));
#endif
}

}  // namespace
}  // namespace pmclog::write_test
