// An output that is one of the inputs is refused, whatever the spelling.
#include "same_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "output_file.h"
#include "support/files.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace fs = std::filesystem;
using pmclog::tools::OutputError;
using pmclog::tools::refuse_same_file;

TEST(SameFile, EverySpellingOfTheInputIsRefused) {
  ScratchDir d;
  write_file(d / "in", "input");
  fs::create_hard_link(d / "in", d / "hard");
  fs::create_symlink("in", d / "soft");
  const std::string in = (d / "in").string();
  for (const fs::path& out : {d / "in", d / "." / "in", d / "hard", d / "soft"}) {
    const OutputError e = refuse_same_file(out.string(), {"other", in});
    EXPECT_EQ(e.kind, OutputError::Kind::same_as_input) << out;
    EXPECT_NE(e.message.find("same file"), std::string::npos) << e.message;
  }
}

TEST(SameFile, OpenRefusesBeforeTouchingTheFile) {
  ScratchDir d;
  write_file(d / "in", "input");
  pmclog::tools::OutputOptions o;
  o.inputs = {(d / "in").string()};
  {
    pmclog::tools::OutputFile f;
    EXPECT_EQ(f.open((d / "in").string(), o).kind, OutputError::Kind::same_as_input);
  }
  EXPECT_EQ(slurp(d / "in"), "input");
  EXPECT_EQ(d.listing(), "in\n");
}

TEST(SameFile, StandardInputCountsAsAnInput) {
  ScratchDir d;
  write_file(d / "in", "input");
  const int saved = dup(STDIN_FILENO);
  const int fd = ::open((d / "in").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  dup2(fd, STDIN_FILENO);
  const OutputError e = refuse_same_file((d / "in").string(), {"-"});
  dup2(saved, STDIN_FILENO);
  close(fd);
  close(saved);
  EXPECT_EQ(e.kind, OutputError::Kind::same_as_input);
  EXPECT_NE(e.message.find("(stdin)"), std::string::npos) << e.message;
}

TEST(SameFile, OtherFilesAndDevicesPass) {
  ScratchDir d;
  write_file(d / "in", "input");
  write_file(d / "out", "output");
  EXPECT_FALSE(refuse_same_file((d / "out").string(), {(d / "in").string()}));
  EXPECT_FALSE(refuse_same_file((d / "new").string(), {(d / "in").string()}));
  EXPECT_FALSE(refuse_same_file("/dev/null", {"/dev/null"})) << "nothing to destroy";
  EXPECT_FALSE(refuse_same_file((d / "out").string(), {(d / "missing").string()}));
}
