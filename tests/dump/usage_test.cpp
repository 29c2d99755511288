// Usage: --help with examples, --version, and usage errors (exit 2).
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

TEST(Usage, HelpShowsAnExamplePerMode) {
  const Ran r = run_dump({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* s : {"Usage: pmclog-dump [options] [FILE...]", "--format=pmcstat", "--format=jsonl",
                        "--explain", "--stats", "--show-abi", "--keep-going", "--generation"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(Usage, HelpGroupsThenExamplesThenExitStatus) {
  const Ran r = run_dump({"--help"});
  const size_t selection = r.out.find("\nSelection:\n"), abi = r.out.find("\nABI of the log:\n"),
               examples = r.out.find("\nExamples:\n"), status = r.out.find("\nExit status:\n");
  ASSERT_NE(selection, std::string::npos) << r.out;
  ASSERT_NE(abi, std::string::npos) << r.out;
  ASSERT_NE(examples, std::string::npos) << r.out;
  ASSERT_NE(status, std::string::npos) << r.out;
  EXPECT_LT(selection, examples);
  EXPECT_LT(abi, examples);
  EXPECT_LT(examples, status);
  EXPECT_NE(r.out.find("--time-width"), std::string::npos);
}

TEST(Usage, Version) {
  for (const char* opt : {"-V", "--version"}) {
    const Ran r = run_dump({opt});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("pmclog-dump ", 0), 0u);
  }
}

TEST(Usage, BadOptionsExitWith2) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--no-such-option"}, {"--format=xml"}, {"--generation=L4"},
        {"--address-width=5"}, {"--byte-order=middle"}, {"--type=bogus"}, {"--pid=12x"},
        {"--head=-1"}, {"--format=json"}, {"--stats", "--format=pmcstat"},
        {"--address-width=32"}, {"--time-width=2"}, {"-g", "L3"}, {"-w", "4"}}) {
    const Ran r = run_dump(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err.rfind("pmclog-dump: ", 0), 0u) << r.err;
    // one line, then the hint
    const size_t nl = r.err.find('\n');
    EXPECT_EQ(r.err.substr(nl + 1), "Try 'pmclog-dump --help'.\n") << r.err;
  }
}
