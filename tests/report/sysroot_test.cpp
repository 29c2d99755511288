// A path from a log can never lead out of the sysroot: "..", absolute symlinks and relative
// symlinks pointing outside all stay inside, as if chrooted.
#include <gtest/gtest.h>
#include <unistd.h>

#include "pmcprofile/sysroot.h"
#include "report_support.h"

using pmcprofile::resolve_in_sysroot;

namespace {

struct Sysroot : ::testing::Test {
  reptest::ScratchDir outside;  // holds the sysroot and a secret beside it
  std::string root;
  void SetUp() override {
    root = outside.file("root");
    reptest::make_dirs(root + "/lib");
    reptest::make_dirs(root + "/usr/lib");
    reptest::write_file(root + "/lib/libc.so.7", "inside");
    reptest::write_file(outside.file("secret"), "outside");
  }
};

TEST_F(Sysroot, PlainPathsResolveUnderTheRoot) {
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/libc.so.7"), root + "/lib/libc.so.7");
  EXPECT_EQ(resolve_in_sysroot(root + "/", "//lib/./libc.so.7"), root + "/lib/libc.so.7");
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/missing.so"), std::nullopt);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib"), std::nullopt);  // a folder is no object
}

TEST_F(Sysroot, DotDotStopsAtTheRoot) {
  // "../secret" from the root would be the secret; chrooted, it is ROOT/secret (absent).
  EXPECT_EQ(resolve_in_sysroot(root, "/../secret"), std::nullopt);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/../../../../secret"), std::nullopt);
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/../lib/libc.so.7"), root + "/lib/libc.so.7");
  EXPECT_EQ(resolve_in_sysroot(root, "/../../lib/libc.so.7"), root + "/lib/libc.so.7");
}

TEST_F(Sysroot, AbsoluteSymlinksRestartAtTheRoot) {
  // A link to the host's real secret file: followed inside the sysroot, it is not there.
  ASSERT_EQ(symlink(outside.file("secret").c_str(), (root + "/lib/evil.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/evil.so"), std::nullopt);
  // /etc/passwd exists on the host; inside the sysroot it does not.
  ASSERT_EQ(symlink("/etc/passwd", (root + "/lib/passwd.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/passwd.so"), std::nullopt);
  // An absolute link to an object of the sysroot is followed there.
  ASSERT_EQ(symlink("/lib/libc.so.7", (root + "/usr/lib/libc.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/lib/libc.so"), root + "/lib/libc.so.7");
  // A folder link: /usr/lib32 -> /lib.
  ASSERT_EQ(symlink("/lib", (root + "/usr/lib32").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/lib32/libc.so.7"), root + "/lib/libc.so.7");
}

TEST_F(Sysroot, RelativeSymlinksOutStayInside) {
  ASSERT_EQ(symlink("../../secret", (root + "/lib/rel.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/rel.so"), std::nullopt);
  ASSERT_EQ(symlink("../../../../../../secret", (root + "/usr/lib/deep.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/lib/deep.so"), std::nullopt);
  // Once ROOT/secret exists, the same links find it, and only it.
  reptest::write_file(root + "/secret", "decoy");
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/rel.so"), root + "/secret");
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/lib/deep.so"), root + "/secret");
  ASSERT_EQ(symlink("../../lib/libc.so.7", (root + "/usr/lib/good.so").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/usr/lib/good.so"), root + "/lib/libc.so.7");
}

TEST_F(Sysroot, SymlinkLoopsEnd) {
  ASSERT_EQ(symlink("/lib/b", (root + "/lib/a").c_str()), 0);
  ASSERT_EQ(symlink("/lib/a", (root + "/lib/b").c_str()), 0);
  EXPECT_EQ(resolve_in_sysroot(root, "/lib/a"), std::nullopt);
}

TEST(SysrootNone, WithoutARootPathsAreUsedAsGiven) {
  reptest::ScratchDir d;
  reptest::write_file(d.file("x"), "x");
  EXPECT_EQ(resolve_in_sysroot("", d.file("x")), d.file("x"));
  EXPECT_EQ(resolve_in_sysroot("", "relative/x"), std::nullopt);
  EXPECT_EQ(resolve_in_sysroot("", "[vdso]"), std::nullopt);
}

}  // namespace
