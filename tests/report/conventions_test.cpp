// The report in the tools' shared conventions: -o/--output FILE and --format KIND (the old
// --output KIND still read, with a warning), exit statuses (a missing input or a folder 2,
// damage 1, a bad --kernel/--sysroot or two outputs to one file a usage error), a warning for
// each filter that meets nothing, the note that -k reads on past damage, and a failing
// standard output for --help and --version.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "report_support.h"

namespace {

const std::string kLog = std::string(REPORT_FIXTURES) + "/golden.pmclog";
const std::string kFolded = std::string(REPORT_FIXTURES) + "/golden.folded.txt";
const std::string kTry = "Try 'pmclog-report --help'.\n";

reptest::Ran report(std::vector<std::string> args) {
  args.insert(args.begin(), REPORT_EXE);
  return reptest::run(args);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// --- --format and -o/--output -------------------------------------------------------------

TEST(Format, FormatIsTheKindAndSaysNothing) {
  const auto r = report({"--format", "folded", kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(kFolded));
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(Format, OutputKindIsTheDeprecatedSpellingWithAWarning) {
  for (const std::string kinds : {"folded", "top,folded"}) {
    const auto old = report({"--output", kinds, kLog});
    const auto now = report({"--format", kinds, kLog});
    EXPECT_EQ(old.status, 0) << old.err;
    EXPECT_EQ(old.out, now.out) << kinds;
    EXPECT_NE(old.err.find("pmclog-report: warning: --output " + kinds +
                           " is deprecated; use --format " + kinds +
                           " (--output will name the output file, as -o does)\n"),
              std::string::npos)
        << old.err;
  }
  // --output=KIND is the same spelling.
  const auto eq = report({"--output=folded", kLog});
  EXPECT_EQ(eq.out, reptest::slurp(kFolded));
  EXPECT_TRUE(has(eq.err, "is deprecated; use --format folded")) << eq.err;
}

TEST(Format, OutputAnythingElseIsTheFileAsO) {
  reptest::ScratchDir d;
  // A path, a name that is no kind, and a kind's name with a folder in front of it.
  for (const std::string& name : {d.file("out.folded"), d.file("top"), d.file("folded,top")}) {
    const auto r = report({"--format", "folded", "--output", name, kLog});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_FALSE(has(r.err, "pmclog-report:")) << name << ": " << r.err;
    EXPECT_EQ(reptest::slurp(name), reptest::slurp(kFolded)) << name;
  }
  // -o FILE with a kind's name is a file: only the long spelling was ever the kind.
  const auto r = report({"--format", "folded", "-o", d.file("svg"), kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(reptest::slurp(d.file("svg")), reptest::slurp(kFolded));
  // The N-th file is the N-th kind's, whichever spelling named it.
  const auto two = report({"--format", "top,folded", "-o", d.file("a.txt"), "--output",
                           d.file("b.folded"), kLog});
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_EQ(reptest::slurp(d.file("b.folded")), reptest::slurp(kFolded));
  EXPECT_TRUE(has(reptest::slurp(d.file("a.txt")), "# Event: cpu-clock")) << two.err;
}

TEST(Format, AnUnknownKindIsAUsageErrorNamingFormat) {
  const auto r = report({"--format", "top,gprof", kLog});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("pmclog-report: --format: 'gprof' is not top, folded,", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, kTry)) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Format, HelpNamesFormatAndOutputFile) {
  const auto r = report({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(has(r.out, "  --format KIND ")) << r.out;
  EXPECT_TRUE(has(r.out, "  -o [ --output ] FILE ")) << r.out;
  EXPECT_FALSE(has(r.out, "--out-file")) << r.out;
  EXPECT_FALSE(has(r.out, "pmclog-report --output ")) << r.out;  // the examples use --format
}

// --- two outputs to one file --------------------------------------------------------------

TEST(SameOutput, TwoKindsToOneFileAreAUsageError) {
  reptest::ScratchDir d;
  const std::string same = d.file("same.txt");
  const auto r = report({"--format", "top,folded", "-o", same, "-o", same, kLog});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "-o/--output")) << r.err;
  EXPECT_TRUE(has(r.err, "'" + same + "'")) << r.err;
  EXPECT_TRUE(has(r.err, kTry)) << r.err;
  EXPECT_FALSE(std::filesystem::exists(same));  // refused before anything was written
  // Another spelling of a path not made yet.
  const auto dot = report({"--format", "top,folded", "-o", same, "-o", d.str() + "/./same.txt", kLog});
  EXPECT_EQ(dot.status, 2) << dot.err;
  EXPECT_FALSE(std::filesystem::exists(same));
}

TEST(SameOutput, AHardLinkIsTheSameFile) {
  reptest::ScratchDir d;
  const std::string a = d.file("a.txt"), b = d.file("b.txt");
  reptest::write_file(a, "keep\n");
  ASSERT_EQ(link(a.c_str(), b.c_str()), 0);
  const auto r = report({"--format", "top,folded", "-o", a, "--output", b, kLog});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "-o/--output")) << r.err;
  EXPECT_EQ(reptest::slurp(a), "keep\n");
}

TEST(SameOutput, StandardOutputAndDevicesMayBeShared) {
  const auto r = report({"--format", "folded,folded", "-o", "-", "-o", "-", kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(kFolded) + reptest::slurp(kFolded));
  const auto n = report({"--format", "top,folded", "-o", "/dev/null", "-o", "/dev/null", kLog});
  EXPECT_EQ(n.status, 0) << n.err;
}

// --- exit statuses ------------------------------------------------------------------------

TEST(Status, MissingInputIsTwoAfterTheOthers) {
  reptest::ScratchDir d;
  const auto r = report({"--format", "folded", d.file("absent.pmclog"), kLog});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "pmclog-report: " + d.file("absent.pmclog") + ": No such file or directory"))
      << r.err;
  EXPECT_EQ(r.out, reptest::slurp(kFolded));  // the good one is reported
}

TEST(Status, AFolderAsInputIsTwo) {
  reptest::ScratchDir d;
  auto r = report({"--format", "folded", d.str()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, d.str())) << r.err;
  r = report({"--format", "folded", d.str(), kLog});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, reptest::slurp(kFolded));
}

TEST(Status, DamageIsOneAndMissingOutranksIt) {
  reptest::ScratchDir d;
  const std::string cut = d.file("cut.pmclog");
  const std::string bytes = reptest::slurp(kLog);
  reptest::write_file(cut, bytes.substr(0, bytes.size() - 7));
  EXPECT_EQ(report({"--format", "folded", cut}).status, 1);
  EXPECT_EQ(report({"--format", "folded", cut, d.file("absent")}).status, 2);
}

TEST(Status, KernelAndSysrootAreCheckedBeforeReading) {
  reptest::ScratchDir d;
  const std::string file = d.file("file"), missing = d.file("missing");
  reptest::write_file(file, "x");
  struct Case {
    std::vector<std::string> args;
    std::string option, why;
  };
  for (const Case& c : {Case{{"--kernel", missing}, "--kernel", "No such file or directory"},
                        Case{{"--kernel", d.str()}, "--kernel", "Is a directory"},
                        Case{{"--sysroot", missing}, "--sysroot", "No such file or directory"},
                        Case{{"--sysroot", file}, "--sysroot", "Not a directory"},
                        Case{{"--symfs", file}, "--symfs", "Not a directory"},
                        Case{{"--debug-dir", file}, "--debug-dir", "Not a directory"},
                        Case{{"--kallsyms", missing}, "--kallsyms", "No such file or directory"},
                        Case{{"--kallsyms", d.str()}, "--kallsyms", "Is a directory"},
                        Case{{"--kallsyms", file}, "--kallsyms",
                             "no _text or _stext address (not a kallsyms file, or saved while "
                             "kernel.kptr_restrict hid the addresses)"}}) {
    std::vector<std::string> args = c.args;
    // The input is missing too: the option's error comes first, nothing is read.
    args.push_back(d.file("absent.pmclog"));
    const auto r = report(args);
    EXPECT_EQ(r.status, 2) << c.option;
    const std::string first = "pmclog-report: " + c.option + ": '" + c.args[1] + "': " + c.why;
    EXPECT_EQ(r.err.rfind(first, 0), 0u) << r.err;
    EXPECT_EQ(count(r.err, "\n"), 2u) << r.err;  // that line and the Try line: nothing read
    EXPECT_EQ(r.err.substr(r.err.find('\n') + 1), kTry) << r.err;
    EXPECT_EQ(r.out, "");
  }
  // A good folder and file are taken.
  const auto ok = report({"--format", "folded", "--sysroot", d.str(), "--kernel", file, kLog});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(Status, KallsymsIsTheOnlySourceOfKernelSymbols) {
  reptest::ScratchDir d;
  const std::string saved = d.file("kallsyms"), kernel = d.file("kernel");
  reptest::write_file(saved, "ffffffff81000000 T _text\nffffffff81000100 T f\n");
  reptest::write_file(kernel, "x");
  for (const auto& [other, why] :
       {std::pair<std::vector<std::string>, std::string>{
            {"--no-kallsyms"}, "--kallsyms and --no-kallsyms exclude each other"},
        {{"--kernel", kernel}, "--kallsyms and --kernel both name the kernel's symbols"}}) {
    std::vector<std::string> args = {"--kallsyms", saved};
    args.insert(args.end(), other.begin(), other.end());
    args.push_back(kLog);
    const auto r = report(args);
    EXPECT_EQ(r.status, 2) << why;
    EXPECT_EQ(r.err, "pmclog-report: " + why + "\n" + kTry);
    EXPECT_EQ(r.out, "");
  }
  // Zeros where the addresses were (kernel.kptr_restrict): refused as having no text start.
  reptest::write_file(saved, "0000000000000000 T _text\n0000000000000000 T f\n");
  EXPECT_EQ(report({"--kallsyms", saved, kLog}).status, 2);
  reptest::write_file(saved, "ffffffff81000000 T _text\nffffffff81000100 T f\n");
  const auto ok = report({"--format", "folded", "--kallsyms", saved, kLog});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(Status, HelpAndVersionOnAFullDiskFail) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  for (const char* opt : {"--help", "-V", "--version"}) {
    pmclog_test::RunOptions full;
    full.stdout_path = "/dev/full";
    const auto r = pmclog_test::run({REPORT_EXE, opt}, full);
    EXPECT_EQ(r.status, 2) << opt;
    EXPECT_EQ(r.err, "pmclog-report: standard output: No space left on device\n") << opt;
  }
}

// --- filters that meet nothing -----------------------------------------------------------

TEST(Filters, EachThatMeetsNothingWarns) {
  struct Case {
    std::vector<std::string> args;
    std::string warning;
  };
  for (const Case& c : {Case{{"--comm", "nosuch"}, "--comm: no process named 'nosuch' in the input"},
                        Case{{"--pid", "1"}, "--pid: no sample of process 1 in the input"},
                        Case{{"--tid", "7"}, "--tid: no sample of thread 7 in the input"},
                        Case{{"--cpu", "9"}, "--cpu: no sample taken on CPU 9 in the input"},
                        Case{{"--event", "cycles"}, "no event named 'cycles' in the input"},
                        Case{{"--from", "1"}, "--from 1: no sample that late in the input"},
                        Case{{"--to", "0"}, "--to 0: no sample that early in the input"},
                        // One of a list: the other one matches.
                        Case{{"--comm", "sh,nosuch"}, "--comm: no process named 'nosuch'"},
                        Case{{"--pid", "42", "--pid", "5"}, "--pid: no sample of process 5 "}}) {
    std::vector<std::string> args = c.args;
    args.insert(args.begin(), {"--format", "folded"});
    args.push_back(kLog);
    const auto r = report(args);
    EXPECT_EQ(r.status, 0) << c.args[0] << r.err;
    EXPECT_TRUE(has(r.err, "pmclog-report: warning: " + c.warning)) << r.err;
    EXPECT_EQ(count(r.err, "warning:"), 1u) << r.err;
  }
}

TEST(Filters, ThatMeetSomethingSayNothing) {
  for (const std::vector<std::string>& f :
       {std::vector<std::string>{"--comm", "sh"}, {"--pid", "42"}, {"--tid", "100043"},
        {"--cpu", "1"}, {"--event", "cpu-clock"}, {"--user-only"}, {"--kernel-only"},
        {"--from", "0"}, {"--to", "1"}}) {
    std::vector<std::string> args = f;
    args.insert(args.begin(), {"--format", "folded"});
    args.push_back(kLog);
    const auto r = report(args);
    EXPECT_EQ(r.status, 0) << f[0];
    EXPECT_FALSE(has(r.err, "warning")) << f[0] << ": " << r.err;
  }
}

TEST(Filters, TogetherKeepingNothingWarns) {
  // yes is pid 43, and 42 is sh: each matches, together none.
  const auto r = report({"--format", "folded", "--comm", "yes", "--pid", "42", kLog});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(has(r.err, "pmclog-report: warning: the filters together kept none of the 6 samples"))
      << r.err;
}

// Samples without frames are kept by no report: without a filter, nothing to warn about.
TEST(Filters, NoFilterNoWarningWhateverIsKept) {
  using namespace reptest::synthetic;
  reptest::ScratchDir d;
  const std::string log = reptest::write_log(
      d, "frameless.pmclog",
      {kInit, kCpuClock,
       std::string(R"({"type":"callchain","pid":7,"tid":7,"pmcid":)") + std::to_string(kPmcA) +
           R"(,"cpu":0,"usermode":1,"pcs_hex":[]})"});
  const auto r = report({"--format", "folded", log});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has(r.err, "warning")) << r.err;
}

TEST(Filters, ModeThatNoSampleHasWarns) {
  using namespace reptest::synthetic;
  reptest::ScratchDir d;
  const auto chain = [](bool user) {
    return std::string(R"({"type":"callchain","pid":7,"tid":7,"pmcid":)") +
           std::to_string(kPmcA) + R"(,"cpu":0,"usermode":)" + (user ? "1" : "0") +
           R"(,"pcs_hex":["0x1000"]})";
  };
  const std::string user = reptest::write_log(d, "user.pmclog", {kInit, kCpuClock, chain(true)});
  const std::string kern = reptest::write_log(d, "kern.pmclog", {kInit, kCpuClock, chain(false)});
  auto r = report({"--format", "folded", "--kernel-only", user});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, "warning: --kernel-only: no sample taken in kernel mode in the input"))
      << r.err;
  r = report({"--format", "folded", "--user-only", kern});
  EXPECT_TRUE(has(r.err, "warning: --user-only: no sample taken in user mode in the input"))
      << r.err;
  r = report({"--format", "folded", "--user-only", user});
  EXPECT_FALSE(has(r.err, "warning")) << r.err;
}

TEST(Filters, TheNameIsEscaped) {
  const auto r = report({"--format", "folded", "--comm", "x\033[31my", kLog});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err.find('\033'), std::string::npos) << r.err;
  EXPECT_TRUE(has(r.err, "no process named 'x\\e[31my'")) << r.err;
}

// --- damage -------------------------------------------------------------------------------

TEST(Damage, StoppedByDamageNotesKeepGoingOnce) {
  reptest::ScratchDir d;
  const std::string bytes = reptest::slurp(kLog);
  const std::string a = d.file("a.pmclog"), b = d.file("b.pmclog");
  reptest::write_file(a, bytes.substr(0, bytes.size() - 7));
  reptest::write_file(b, bytes.substr(0, bytes.size() - 5));
  const std::string note =
      "pmclog-report: note: -k/--keep-going reads on past damage, from the next record that "
      "looks whole (the exit status is still 1)\n";
  auto r = report({"--format", "folded", a, b});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(count(r.err, note), 1u) << r.err;
  // After the errors, where it is read.
  EXPECT_GT(r.err.find(note), r.err.find("pmclog-report: " + b + ": ")) << r.err;
  // Not when -k was given, nor for an input that only could not be opened.
  r = report({"--format", "folded", "-k", a});
  EXPECT_EQ(r.status, 1);
  EXPECT_FALSE(has(r.err, "note:")) << r.err;
  r = report({"--format", "folded", d.file("absent"), kLog});
  EXPECT_FALSE(has(r.err, "note:")) << r.err;
}

}  // namespace
