// Command-line conventions (the tools' shared language): usage errors exit 2 with the two-line
// message, --version, the help layout, the ABI options, standard input without LOG, empty
// input, an output that is an input is refused, a missing input is exit 2 after the others.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>

#include "report_support.h"

namespace {

const std::string kLog = std::string(REPORT_FIXTURES) + "/golden.pmclog";

TEST(Cli, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--format", "gprof"}, {"--sort", "size"}, {"--by", "color"},
        {"--user-only", "--kernel-only"}, {"--pid", "abc"}, {"--no-such-option"},
        {"--from", "2", "--to", "1"}, {"--limit", "x"}, {"--limit", "-3"}, {"--from", "soon"},
        {"--address-width", "3"}, {"--address-width", "64"}, {"--generation", "L9"},
        {"--byte-order", "middle"}, {"--time-width", "2"}, {"-o", "a", "-o", "b"},
        {"--limit"}}) {
    std::vector<std::string> argv{REPORT_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(kLog);
    const auto r = reptest::run(argv);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.err.rfind("pmclog-report: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("Try 'pmclog-report --help'."), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// The usage error names the option and the value given, in the shared two-line form.
TEST(Cli, UsageErrorsNameTheOptionAndValue) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--limit", "x"}, {"--limit", "'x'"}},
      {{"--address-width", "3"}, {"--address-width", "'3'"}},
      {{"--address-width", "64"}, {"--address-width", "give 8"}},
      {{"--from", "soon"}, {"--from", "'soon'"}},
      {{"--pid", "12,abc"}, {"--pid", "'abc'"}},
      {{"--by", "comm,color"}, {"--by", "'color'", "thread"}},
      // perf's --sort keys are --by here: the message says so.
      {{"--sort", "comm,dso"}, {"--sort", "'comm,dso'", "--by"}},
  };
  for (const auto& [args, want] : cases) {
    std::vector<std::string> argv{REPORT_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(kLog);
    const auto r = reptest::run(argv);
    EXPECT_EQ(r.status, 2) << args[0];
    const size_t nl = r.err.find('\n');
    ASSERT_NE(nl, std::string::npos) << r.err;
    const std::string first = r.err.substr(0, nl);
    for (const auto& w : want) EXPECT_NE(first.find(w), std::string::npos) << w << " in " << r.err;
    EXPECT_EQ(r.err.substr(nl + 1), "Try 'pmclog-report --help'.\n");
  }
  // A bad --sort that is not perf's keys gets no perf hint.
  const auto r = reptest::run({REPORT_EXE, "--sort", "size", kLog});
  EXPECT_EQ(r.err.find("--by"), std::string::npos) << r.err;
}

TEST(Cli, VersionIsTheProjectVersion) {
  for (const char* opt : {"-V", "--version"}) {
    const auto r = reptest::run({REPORT_EXE, opt});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind(std::string("pmclog-report ") + REPORT_VERSION + "\n", 0), 0u) << r.out;
    EXPECT_EQ(r.err, "");
  }
}

// The option names of the help's option lines ("  -o [ --output ] FILE  ..." -> output).
std::vector<std::string> listed_options(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  -", 0) != 0) continue;
    const size_t at = line.find("--");
    if (at == std::string::npos) continue;
    size_t end = at + 2;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-'))
      ++end;
    names.push_back(line.substr(at + 2, end - at - 2));
  }
  return names;
}

TEST(Cli, HelpHasTheSharedLayoutAndEachOptionOnce) {
  const auto r = reptest::run({REPORT_EXE, "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("Usage: pmclog-report [options] [LOG...]\n", 0), 0u) << r.out;
  const size_t ex = r.out.find("\nExamples:\n"), st = r.out.find("\nExit status:\n");
  ASSERT_NE(ex, std::string::npos);
  ASSERT_NE(st, std::string::npos);
  EXPECT_LT(ex, st);
  for (const char* code : {"  0  ", "  1  ", "  2  "})
    EXPECT_NE(r.out.find(code, st), std::string::npos) << code;
  std::vector<std::string> names = listed_options(r.out);
  std::map<std::string, int> seen;
  for (const auto& n : names) ++seen[n];
  for (const auto& [n, count] : seen) EXPECT_EQ(count, 1) << "--" << n;
  // The shared groups are there, and the report's own options.
  for (const char* n : {"help", "version", "generation", "address-width", "byte-order",
                        "time-width", "format", "output", "by", "sort", "limit", "sysroot",
                        "kernel", "keep-going", "no-progress", "tid", "from", "to"})
    EXPECT_EQ(seen.count(n), 1u) << "--" << n;
  // Every value is named (KIND, FILE, N...), never program_options' "arg".
  EXPECT_EQ(r.out.find(" arg "), std::string::npos) << r.out;
}

// The ABI options reach the reader: the golden log is M10, so L3 makes its first record
// undefined (exit 1), where the detected ABI reads it whole.
TEST(Cli, AbiOptionsAreAHintToTheReader) {
  auto r = reptest::run({REPORT_EXE, "--format", "folded", kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  r = reptest::run({REPORT_EXE, "--format", "folded", "--generation", "L3", kLog});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("generation L3"), std::string::npos) << r.err;
  r = reptest::run({REPORT_EXE, "--format", "folded", "--byte-order", "big", kLog});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
}

TEST(Cli, WithoutLogStandardInputIsRead) {
  const std::string bytes = reptest::slurp(kLog);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, {"--format", "folded"}, {"--format", "top,folded"}}) {
    std::vector<std::string> named{REPORT_EXE}, piped{REPORT_EXE}, dash{REPORT_EXE};
    named.insert(named.end(), args.begin(), args.end());
    piped.insert(piped.end(), args.begin(), args.end());
    dash.insert(dash.end(), args.begin(), args.end());
    named.push_back(kLog);
    dash.push_back("-");
    const auto a = reptest::run(named), b = reptest::run(piped, bytes), c = reptest::run(dash, bytes);
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(b.status, 0) << b.err;
    EXPECT_FALSE(a.out.empty());
    EXPECT_EQ(b.out, a.out);
    EXPECT_EQ(c.out, a.out);
  }
  // Where the name is shown, standard input is "(stdin)".
  const auto a = reptest::run({REPORT_EXE, "--by-file", kLog});
  const auto b = reptest::run({REPORT_EXE, "--by-file"}, bytes);
  EXPECT_EQ(b.status, 0);
  EXPECT_EQ(b.out.rfind("# Input: (stdin)\n", 0), 0u) << b.out;
  std::string renamed = a.out;
  const std::string from = "# Input: " + kLog + "\n";
  ASSERT_EQ(renamed.rfind(from, 0), 0u) << a.out;
  renamed.replace(0, from.size(), "# Input: (stdin)\n");
  EXPECT_EQ(b.out, renamed);
  // A damaged pipe is named "(stdin)" too.
  const auto d = reptest::run({REPORT_EXE, "--format", "folded"}, bytes.substr(0, bytes.size() - 7));
  EXPECT_EQ(d.status, 1);
  EXPECT_EQ(d.err.find("pmclog-report: (stdin): "), d.err.find("pmclog-report: ")) << d.err;
  EXPECT_NE(d.err.find("pmclog-report: (stdin): "), std::string::npos) << d.err;
}

TEST(Cli, EmptyInputIsAnError) {
  reptest::ScratchDir d;
  const std::string empty = d.file("empty.pmclog");
  reptest::write_file(empty, "");
  const std::string msg = ": empty input: no INITIALIZE record at offset 0\n";
  struct Case {
    std::vector<std::string> argv;
    std::string shown;
  };
  for (const Case& c : {Case{{REPORT_EXE, empty}, empty}, Case{{REPORT_EXE, "/dev/null"}, "/dev/null"},
                        Case{{REPORT_EXE}, "(stdin)"}, Case{{REPORT_EXE, "-"}, "(stdin)"},
                        Case{{REPORT_EXE, "--format", "folded", empty}, empty}}) {
    const auto r = reptest::run(c.argv);  // standard input: an empty file
    EXPECT_EQ(r.status, 1) << c.shown;
    EXPECT_EQ(r.out, "") << c.shown;  // no "# No samples.": there is no log
    EXPECT_EQ(r.err, "pmclog-report: " + c.shown + msg);
  }
  // No output file is left behind when no input was a log.
  const std::string out = d.file("top.txt");
  auto r = reptest::run({REPORT_EXE, "-o", out, empty});
  EXPECT_EQ(r.status, 1);
  EXPECT_FALSE(std::filesystem::exists(out));
  // With a good log beside it: the report of the good one, the error, exit 1.
  r = reptest::run({REPORT_EXE, "--by-file", "--format", "folded", empty, kLog});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(kLog + ";"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(empty), std::string::npos) << r.out;  // no profile of its own
  EXPECT_NE(r.err.find("pmclog-report: " + empty + msg), std::string::npos) << r.err;
}

// One to three bytes are no more a log than none, but not empty: a cut file is named as one,
// with its size, where "empty input" would send the user looking for the wrong problem.
TEST(Cli, FewerBytesThanAHeaderWordAreATruncatedLog) {
  reptest::ScratchDir d;
  for (const std::string& bytes :
       {std::string("\xee", 1), std::string("ab"), std::string("\0\0\0", 3)}) {
    const std::string path = d.file("short.pmclog");
    reptest::write_file(path, bytes);
    const auto r = reptest::run({REPORT_EXE, "--format", "folded", path});
    EXPECT_EQ(r.status, 1) << bytes.size();
    EXPECT_EQ(r.out, "") << bytes.size();
    const std::string n = std::to_string(bytes.size());
    EXPECT_EQ(r.err, "pmclog-report: " + path + ": record at offset 0: truncated: only " + n +
                         (bytes.size() == 1 ? " byte" : " bytes") +
                         " left, a header word needs 4\n");
  }
}

TEST(Cli, OutputThatIsAnInputIsRefused) {
  reptest::ScratchDir d;
  const std::string copy = d.file("x.pmclog");
  reptest::write_file(copy, reptest::slurp(kLog));
  const auto r = reptest::run({REPORT_EXE, "-o", copy, copy});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(reptest::slurp(copy), reptest::slurp(kLog));  // untouched
}

TEST(Cli, MissingInputIsExitTwoAfterTheOthers) {
  reptest::ScratchDir empty;
  const auto r = reptest::run({REPORT_EXE, "--format", "folded", "--sysroot", empty.str(),
                               empty.file("absent.pmclog"), kLog});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("absent.pmclog"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(std::string(REPORT_FIXTURES) + "/golden.folded.txt"));
}

}  // namespace
