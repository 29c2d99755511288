// The shared output component on its own: what gets replaced, what is written through, and
// that nothing partial is ever left.
#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "devices.h"
#include "support/files.h"
#include "support/scratch.h"

using namespace common_test;
using namespace pmclog_test;
namespace fs = std::filesystem;
using pmclog::tools::OutputError;
using pmclog::tools::OutputFile;
using pmclog::tools::OutputOptions;

TEST(OutputFile, RegularFileAppearsWholeOnlyAtCommit) {
  ScratchDir d;
  write_file(d / "out", "old contents");
  OutputFile f;
  ASSERT_FALSE(f.open((d / "out").string()));
  ASSERT_TRUE(f.replaces());
  EXPECT_EQ(fs::path(f.temp_path()).parent_path(), d.path()) << "same folder: rename is atomic";
  ASSERT_FALSE(f.write("new"));
  EXPECT_EQ(slurp(d / "out"), "old contents") << "readers never see a partial file";
  ASSERT_FALSE(f.commit());
  EXPECT_EQ(slurp(d / "out"), "new");
  EXPECT_EQ(d.listing(), "out\n") << "no temporary left";
}

TEST(OutputFile, UncommittedOutputLeavesNothing) {
  ScratchDir d;
  write_file(d / "kept", "old");
  {
    OutputFile f, g;
    ASSERT_FALSE(f.open((d / "kept").string()));
    ASSERT_FALSE(g.open((d / "new").string()));
    ASSERT_FALSE(f.write("partial"));
    ASSERT_FALSE(g.write("partial"));
  }  // an error path: destroyed without commit()
  EXPECT_EQ(slurp(d / "kept"), "old");
  EXPECT_EQ(d.listing(), "kept\n");
}

TEST(OutputFile, ReplacedFileKeepsItsMode) {
  ScratchDir d;
  write_file(d / "out", "x");
  ASSERT_EQ(chmod((d / "out").c_str(), 0640), 0);
  ASSERT_FALSE(pmclog::tools::write_whole_file((d / "out").string(), "y"));
  struct stat st {};
  ASSERT_EQ(stat((d / "out").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(OutputFile, CharacterDeviceIsWrittenThrough) {
  ScratchDir d;
  if (!make_char_device(d / "dev")) GTEST_SKIP() << "mknod needs root";
  OutputFile f;
  ASSERT_FALSE(f.open((d / "dev").string()));
  EXPECT_FALSE(f.replaces());
  ASSERT_FALSE(f.write("into the null device"));
  ASSERT_FALSE(f.commit());
  EXPECT_TRUE(is_char_device(d / "dev"));
  EXPECT_EQ(d.listing(), "dev\n");
}

TEST(OutputFile, FifoIsWrittenThroughNotReplaced) {
  ScratchDir d;
  ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(d / "fifo"); });
  {
    OutputFile f;
    EXPECT_FALSE(f.open((d / "fifo").string()));
    EXPECT_FALSE(f.write("through the fifo"));
    EXPECT_FALSE(f.commit());
  }
  reader.join();
  EXPECT_EQ(got, "through the fifo");
  struct stat st {};
  ASSERT_EQ(lstat((d / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(OutputFile, SymlinkStaysALinkAndItsTargetIsReplaced) {
  ScratchDir d;
  fs::create_directory(d / "sub");
  write_file(d / "sub" / "target", "old");
  fs::create_symlink("sub/target", d / "link");  // relative to the link's folder
  OutputFile f;
  ASSERT_FALSE(f.open((d / "link").string()));
  EXPECT_EQ(fs::path(f.temp_path()).parent_path(), d / "sub") << "beside the target";
  ASSERT_FALSE(f.write("new"));
  ASSERT_FALSE(f.commit());
  EXPECT_TRUE(fs::is_symlink(d / "link"));
  EXPECT_EQ(fs::read_symlink(d / "link"), "sub/target");
  EXPECT_EQ(slurp(d / "sub" / "target"), "new");
  EXPECT_EQ(d.listing(), "link\nsub\n");
}

TEST(OutputFile, DanglingSymlinkCreatesItsTarget) {
  ScratchDir d;
  fs::create_symlink("target", d / "link");
  ASSERT_FALSE(pmclog::tools::write_whole_file((d / "link").string(), "made"));
  EXPECT_TRUE(fs::is_symlink(d / "link"));
  EXPECT_EQ(slurp(d / "target"), "made");
}

TEST(OutputFile, DevStdoutUsesTheInheritedDescriptor) {
  // /dev/stdout is a link to /proc/self/fd/1, which names no file for a pipe: the
  // descriptor itself is written, at its offset.
  ScratchDir d;
  write_file(d / "log", "before\n");
  const int fd = ::open((d / "log").c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  const std::string path = "/dev/fd/" + std::to_string(fd);
  ASSERT_FALSE(pmclog::tools::write_whole_file(path, "after\n"));
  close(fd);
  EXPECT_EQ(slurp(d / "log"), "before\nafter\n") << "appended, not replaced";
}

TEST(OutputFile, FullDeviceIsAnError) {
  OutputFile f;
  ASSERT_FALSE(f.open("/dev/full"));
  const OutputError w = f.write("x");
  const OutputError c = f.commit();
  EXPECT_EQ(c.kind, OutputError::Kind::io) << "the first error sticks until commit()";
  EXPECT_EQ(w.kind, OutputError::Kind::io);
  EXPECT_NE(c.message.find("/dev/full"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("No space left"), std::string::npos) << c.message;
}

TEST(OutputFile, ClosedPipeIsItsOwnKind) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  close(p[0]);
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  const OutputError e =
      pmclog::tools::write_whole_file("/dev/fd/" + std::to_string(p[1]), "nobody reads this");
  std::signal(SIGPIPE, old);
  close(p[1]);
  EXPECT_EQ(e.kind, OutputError::Kind::closed_pipe) << e.message;
}

TEST(OutputFile, SpoolWritesNothingUntilCommit) {
  ScratchDir d;
  ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(d / "fifo"); });
  {
    OutputOptions o;
    o.spool_write_through = true;
    OutputFile f;
    EXPECT_FALSE(f.open((d / "fifo").string(), o));
    EXPECT_FALSE(f.write("rejected later"));
  }  // not committed: the reader gets end of file and nothing else
  reader.join();
  EXPECT_EQ(got, "");
}

TEST(OutputFile, MissingFolderIsAnError) {
  ScratchDir d;
  OutputFile f;
  const OutputError e = f.open((d / "no" / "such" / "out").string());
  EXPECT_EQ(e.kind, OutputError::Kind::io);
  EXPECT_NE(e.message.find("No such file"), std::string::npos) << e.message;
}
