// One command-line language in every tool (tools/common/cli.h): the ABI options and their
// checks on their own, then each tool run as a subprocess for -V, --help, usage errors and
// the same ABI spellings giving the same ABI.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace cli = pmclog::tools::cli;

namespace {

const std::string kDump = PMCLOG_DUMP_BIN, kWrite = PMCLOG_WRITE_BIN,
                  kValidate = PMCLOG_VALIDATE_BIN, kRecord = PMCLOG_RECORD_BIN;

struct Tool {
  std::string name, bin;
};
const std::vector<Tool> kTools = {{"pmclog-dump", kDump},
                                  {"pmclog-validate", kValidate},
                                  {"pmclog-write", kWrite},
                                  {"pmclog-record", kRecord}};

std::string message_of(const cli::AbiValues& v) {
  try {
    cli::abi_hint(v);
  } catch (const cli::UsageError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The long names of the option lines of a --help: "  -x [ --name ] arg" or "  --name arg".
std::vector<std::string> listed_options(const std::string& help) {
  std::vector<std::string> names;
  for (const std::string& l : lines_of(help)) {
    if (l.rfind("  -", 0) != 0) continue;
    const size_t at = l.find("--");
    if (at == std::string::npos || at > 8) continue;  // an example or a wrapped line
    const size_t end = l.find_first_of(" =]", at);
    names.push_back(l.substr(at, end - at));
  }
  return names;
}

TEST(CliAbi, ValuesBecomeAHint) {
  cli::AbiValues v;
  v.generation = "M10";
  v.address_width = 4;
  v.byte_order = "big";
  v.time_width = 4;
  const pmclog::AbiHint h = cli::abi_hint(v);
  EXPECT_EQ(h.generation, pmclog::Generation::M10);
  EXPECT_FALSE(h.modern);
  EXPECT_EQ(h.address_width, 4);
  EXPECT_EQ(h.byte_order, pmclog::ByteOrder::big);
  EXPECT_EQ(h.time_width, 4);

  cli::AbiValues m;
  m.generation = "M";
  const pmclog::AbiHint hm = cli::abi_hint(m);
  EXPECT_TRUE(hm.modern);
  EXPECT_FALSE(hm.generation);
  EXPECT_FALSE(hm.address_width);
  EXPECT_FALSE(hm.byte_order);
  EXPECT_FALSE(hm.time_width);
}

TEST(CliAbi, BadValuesAreUsageErrorsNamingTheOption) {
  cli::AbiValues g;
  g.generation = "L4";
  EXPECT_NE(message_of(g).find("--generation: 'L4'"), std::string::npos) << message_of(g);
  for (unsigned w : {3u, 5u, 16u}) {
    cli::AbiValues v;
    v.address_width = w;
    EXPECT_NE(message_of(v).find("--address-width: '" + std::to_string(w) + "'"),
              std::string::npos) << message_of(v);
  }
  cli::AbiValues b;
  b.byte_order = "middle";
  EXPECT_NE(message_of(b).find("--byte-order: 'middle'"), std::string::npos) << message_of(b);
  cli::AbiValues t;
  t.time_width = 2;
  EXPECT_NE(message_of(t).find("--time-width: '2'"), std::string::npos) << message_of(t);
}

TEST(CliAbi, BitsAreRefusedWithTheBytes) {
  for (const auto& [bits, bytes] : std::map<unsigned, std::string>{{32, "4"}, {64, "8"}}) {
    cli::AbiValues v;
    v.address_width = bits;
    const std::string m = message_of(v);
    EXPECT_NE(m.find("give " + bytes + ", not " + std::to_string(bits)), std::string::npos) << m;
  }
}

TEST(CliTools, VersionShortAndLong) {
  for (const Tool& t : kTools)
    for (const char* opt : {"-V", "--version"}) {
      SCOPED_TRACE(t.name + " " + opt);
      const Ran r = run({t.bin, opt});
      EXPECT_EQ(r.status, 0) << r.err;
      // The version line, then what the library supports: every generation, both forms.
      EXPECT_EQ(r.out.rfind(t.name + " " + cli::version() + "\nlog generations: L1 ", 0), 0u)
          << r.out;
      for (int g = 0; g < pmclog::kGenerationCount; ++g) {
        // Appended, not " " + name: g++-12 -O3 warns falsely (-Wrestrict) on the latter.
        std::string word(1, ' ');
        word.append(pmclog::generation_name(static_cast<pmclog::Generation>(g)));
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
      }
      EXPECT_NE(r.out.find("PMCL container"), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("multipart callchains"), std::string::npos) << r.out;
      EXPECT_EQ(r.err, "");
    }
  EXPECT_STRNE(cli::version(), "");
}

TEST(CliTools, HelpHasSynopsisGroupsExamplesAndExitStatus) {
  for (const Tool& t : kTools) {
    SCOPED_TRACE(t.name);
    const Ran r = run({t.bin, "--help"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Usage: " + t.name + " ", 0), 0u) << r.out;
    const size_t general = r.out.find("\nGeneral:\n"), abi = r.out.find("\nABI of the log:\n"),
                 examples = r.out.find("\nExamples:\n  " + t.name),
                 status = r.out.find("\nExit status:\n");
    ASSERT_NE(general, std::string::npos);
    ASSERT_NE(abi, std::string::npos);
    ASSERT_NE(examples, std::string::npos);
    ASSERT_NE(status, std::string::npos);
    // options first, then the examples, then the statuses
    EXPECT_LT(general, abi);
    EXPECT_LT(abi, examples);
    EXPECT_LT(examples, status);
    EXPECT_NE(r.out.find("\n  2 ", status), std::string::npos) << "usage errors are 2";
    EXPECT_EQ(r.out.find("Usage:", 1), std::string::npos) << "one synopsis";
    EXPECT_EQ(r.err, "");
  }
}

TEST(CliTools, HelpListsEachOptionOnce) {
  for (const Tool& t : kTools) {
    SCOPED_TRACE(t.name);
    const Ran r = run({t.bin, "--help"});
    const auto names = listed_options(r.out);
    ASSERT_GE(names.size(), 6u) << r.out;
    std::map<std::string, int> seen;
    for (const auto& n : names) ++seen[n];
    for (const auto& [n, count] : seen) EXPECT_EQ(count, 1) << n;
    EXPECT_EQ(seen.count("--help"), 1u);
    EXPECT_EQ(seen.count("--version"), 1u);
  }
}

// The short names that were renamed or dropped are refused everywhere, and -V is the version.
TEST(CliTools, ShortOptionsAreTheSameOrAbsent) {
  for (const Tool& t : kTools) {
    const Ran h = run({t.bin, "--help"});
    for (const char* gone : {"-g [", "-w [", "-b [", "-d [", "-e [ --events"})
      EXPECT_EQ(h.out.find(std::string("  ") + gone), std::string::npos) << t.name << " " << gone;
    EXPECT_NE(h.out.find("  -V [ --version ]"), std::string::npos) << t.name;
    EXPECT_NE(h.out.find("  -h [ --help ]"), std::string::npos) << t.name;
  }
  const Ran dh = run({kDump, "--help"}), rh = run({kRecord, "--help"}), wh = run({kWrite, "--help"});
  EXPECT_NE(dh.out.find("  -p [ --pid ]"), std::string::npos);
  EXPECT_NE(rh.out.find("  -p [ --pid ]"), std::string::npos);
  EXPECT_EQ(wh.out.find("  -p ["), std::string::npos) << "synth's process count is long only";
  EXPECT_NE(wh.out.find("  --processes"), std::string::npos);
}

struct BadRun {
  std::string tool;
  std::vector<std::string> args;
  std::string in_message;
};

TEST(CliTools, UsageErrorsAreOneLineAndTheHint) {
  const std::vector<BadRun> cases = {
      {"pmclog-dump", {"--no-such-option"}, "no-such-option"},
      {"pmclog-validate", {"--no-such-option", "x"}, "no-such-option"},
      {"pmclog-write", {"--no-such-option", "-o", "/dev/null"}, "no-such-option"},
      {"pmclog-write", {"synth", "--no-such-option", "-o", "/dev/null"}, "no-such-option"},
      {"pmclog-record", {"--no-such-option", "--", "true"}, "no-such-option"},
      {"pmclog-dump", {"--address-width", "3"}, "--address-width: '3'"},
      {"pmclog-validate", {"--address-width", "3", "x"}, "--address-width: '3'"},
      {"pmclog-write", {"synth", "--address-width", "3", "-o", "/dev/null"}, "--address-width: '3'"},
      {"pmclog-record", {"--address-width", "3", "--", "true"}, "--address-width: '3'"},
      {"pmclog-dump", {"--address-width", "64"}, "give 8, not 64"},
      {"pmclog-validate", {"--address-width", "32", "x"}, "give 4, not 32"},
      {"pmclog-write", {"synth", "--address-width", "32", "-o", "/dev/null"}, "give 4, not 32"},
      {"pmclog-dump", {"--generation", "L4"}, "--generation: 'L4'"},
      {"pmclog-validate", {"--byte-order", "middle", "x"}, "--byte-order: 'middle'"},
      {"pmclog-write", {"synth", "--time-width", "5", "-o", "/dev/null"}, "--time-width: '5'"},
      {"pmclog-write", {"--time-width", "4", "-o", "/dev/null"}, "--time-width is a synth option"},
      {"pmclog-write", {"synth", "-p", "3", "-o", "/dev/null"}, "'-p'"},
      {"pmclog-validate", {"-g", "L3", "x"}, "'-g'"},
      {"pmclog-write", {"synth", "-w", "8", "-o", "/dev/null"}, "'-w'"},
      {"pmclog-record", {"--generation", "L1", "--", "true"}, "L1 has no callchains"},
      {"pmclog-record", {"-e", "no-such-event", "--", "true"}, "unknown event 'no-such-event'"},
      {"pmclog-record", {"-c", "0", "--", "true"}, "-c/--period: '0'"},
      {"pmclog-write", {"synth"}, "-o OUT is required"},
  };
  std::map<std::string, std::string> bin;
  for (const Tool& t : kTools) bin[t.name] = t.bin;
  for (const BadRun& c : cases) {
    std::vector<std::string> argv{bin.at(c.tool)};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    std::string line = c.tool;
    for (const auto& a : c.args) {
      line += ' ';
      line += a;
    }
    SCOPED_TRACE(line);
    const Ran r = run(argv);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    const auto ls = lines_of(r.err);
    ASSERT_EQ(ls.size(), 2u) << r.err;
    EXPECT_EQ(ls[0].rfind(c.tool + ": ", 0), 0u) << ls[0];
    EXPECT_NE(ls[0].find(c.in_message), std::string::npos) << ls[0];
    EXPECT_EQ(ls[1], "Try '" + c.tool + " --help'.");
  }
}

// The first line of --show-abi: "FILE: M10, 32-bit addresses, big-endian, ...".
std::string abi_line(const std::string& show_abi) {
  const std::string first = show_abi.substr(0, show_abi.find('\n'));
  return first.substr(first.find(": ") + 2);
}

TEST(CliTools, SameAbiSpellingsGiveTheSameAbiInEveryTool) {
  const std::vector<std::string> abi = {"--address-width", "4", "--byte-order", "big",
                                       "--generation", "M10"};
  // argv: the tool, `before`, the ABI options, `after`
  auto with_abi = [&](const std::string& bin, std::vector<std::string> before,
                      const std::vector<std::string>& after) {
    before.insert(before.begin(), bin);
    before.insert(before.end(), abi.begin(), abi.end());
    before.insert(before.end(), after.begin(), after.end());
    return before;
  };
  ScratchDir d;
  const std::string log = d.file("s.pmclog");
  ASSERT_EQ(run(with_abi(kWrite, {"synth", "-q", "-n", "300", "--seed", "4"}, {"-o", log})).status, 0);
  const Ran detected = run({kDump, "--show-abi", log});
  ASSERT_EQ(detected.status, 0) << detected.err;
  EXPECT_EQ(abi_line(detected.out).rfind("M10, 32-bit addresses, big-endian", 0), 0u)
      << detected.out;
  const Ran given = run(with_abi(kDump, {"--show-abi"}, {log}));
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_EQ(abi_line(given.out), abi_line(detected.out));
  for (const char* part : {"byte order: big-endian (given)", "generation: M10 (given)",
                           "address width: 4 bytes (given)"})
    EXPECT_NE(given.out.find(part), std::string::npos) << part << "\n" << given.out;
  const Ran valid = run(with_abi(kValidate, {}, {log}));
  EXPECT_EQ(valid.status, 0) << valid.out << valid.err;
  // The JSON Lines of that log, written back with the same options: the same bytes.
  RunOptions o;
  o.stdin_data = run({kDump, "--format=jsonl", log}).out;
  const Ran back = run(with_abi(kWrite, {"-q"}, {"-", "-o", d.file("back.pmclog")}), o);
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_EQ(slurp(d / "back.pmclog"), slurp(d / "s.pmclog"));
  // A hint that contradicts the bytes is taken as given: the dump fails, it does not guess.
  const Ran wrong = run({kDump, "--byte-order", "little", log});
  EXPECT_NE(wrong.status, 0);
}

TEST(CliTools, TimeWidthReachesTheLog) {
  ScratchDir d;
  for (const char* w : {"4", "8"}) {
    SCOPED_TRACE(w);
    const std::string out = (d / (std::string("t") + w + ".pmclog")).string();
    ASSERT_EQ(run({kWrite, "synth", "-q", "-n", "50", "--generation", "M10", "--address-width", "4",
                   "--time-width", w, "-o", out})
                  .status,
              0);
    // The INITIALIZE is 104 bytes with a 4-byte time_t, 112 with an 8-byte one (format.md §8.1).
    const std::string want = std::string("\"time_width\":") + w;
    const Ran r = run({kDump, "--format=jsonl", "--head", "1", out});
    EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(w[0] == '4' ? "\"length\":104" : "\"length\":112"), std::string::npos)
        << r.out;
    const Ran given = run({kDump, "--format=jsonl", "--head", "1", "--time-width", w, out});
    EXPECT_EQ(given.status, 0) << given.err;
    EXPECT_NE(given.out.find(want), std::string::npos) << given.out;
  }
}

TEST(CliTools, StandardInputIsNamedTheSameWay) {
  ScratchDir d;
  RunOptions junk;
  junk.stdin_data = "not a log at all";
  const Ran dump = run({kDump, "-"}, junk);
  EXPECT_EQ(dump.err.rfind("pmclog-dump: (stdin): ", 0), 0u) << dump.err;
  RunOptions bad;
  bad.stdin_data = "{oops\n";
  const Ran write = run({kWrite, "-", "-o", "/dev/null"}, bad);
  EXPECT_EQ(write.err.rfind("pmclog-write: (stdin):1: ", 0), 0u) << write.err;
  // the same file as input and output: named "(stdin)" too
  write_file(d / "in.jsonl", "{\"type\":\"closelog\"}\n");
  RunOptions in;
  in.stdin_path = d.file("in.jsonl");
  const Ran same = run({kWrite, "-", "-o", d.file("in.jsonl")}, in);
  EXPECT_EQ(same.status, 2);
  EXPECT_NE(same.err.find("the same file as (stdin)"), std::string::npos) << same.err;
}

// The readers of logs take standard input when no file is named, as pmclog-dump always did;
// a terminal there is refused instead of waited on (util-linux script(1) gives the terminal).
TEST(CliTools, NoFileReadsStandardInputButNotATerminal) {
  const std::string log = std::string(PMCLOG_FIXTURES_DIR) + "/M10-64-le.pmclog";
  RunOptions from_log;
  from_log.stdin_path = log;
  for (const Tool& t : std::vector<Tool>{{"pmclog-dump", kDump},
                                         {"pmclog-validate", kValidate},
                                         {"pmclog-report", PMCLOG_REPORT_BIN}}) {
    SCOPED_TRACE(t.name);
    const Ran piped = run({t.bin}, from_log);
    const Ran named = run({t.bin, "-"}, from_log);
    EXPECT_EQ(piped.status, named.status) << piped.err;
    EXPECT_EQ(piped.out, named.out);
    EXPECT_FALSE(piped.out.empty());
    // script(1) runs its command line with a shell, on a terminal of its own.
    if (run({"script", "-qec", "test -t 0", "/dev/null"}).status != 0) continue;  // no pty here
    const Ran tty = run({"script", "-qec", shell_quote(t.bin), "/dev/null"});
    EXPECT_EQ(tty.status, 2) << tty.out;
    EXPECT_NE(tty.out.find(t.name + ": no log given and standard input is a terminal"),
              std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find("Try '" + t.name + " --help'."), std::string::npos) << tty.out;
  }
}

}  // namespace
