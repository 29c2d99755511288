// Usage: --help with examples, --version, and usage errors (exit 2).
#include <gtest/gtest.h>

#include "run_tool.h"

using namespace dumptest;

TEST(Usage, HelpShowsAnExamplePerMode) {
  const ToolRun r = run_dump({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* s : {"Usage: pmclog-dump [options] [FILE...]", "--format=pmcstat", "--format=jsonl",
                        "--explain", "--stats", "--show-abi", "--keep-going", "--generation"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(Usage, Version) {
  const ToolRun r = run_dump({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("pmclog-dump ", 0), 0u);
}

TEST(Usage, BadOptionsExitWith2) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--no-such-option"}, {"--format=xml"}, {"--generation=L4"},
        {"--address-width=5"}, {"--byte-order=middle"}, {"--type=bogus"}, {"--pid=12x"},
        {"--head=-1"}, {"--format=json"}, {"--stats", "--format=pmcstat"}}) {
    const ToolRun r = run_dump(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err.rfind("pmclog-dump: ", 0), 0u) << r.err;
  }
}
