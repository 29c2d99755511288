// An output the caller may not write is refused, as the shell's `>` refuses it; one it may
// write is replaced keeping its mode, owner and group. First OutputFile on its own (as the
// test's user, and as nobody in a forked child when the test runs as root), then every tool
// with -o run as nobody through setpriv(1), as a user would meet it in /tmp.
#include "output_file.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace fs = std::filesystem;
using pmclog::tools::OutputError;
using pmclog::tools::OutputFile;
using pmclog::tools::write_whole_file;

namespace {

constexpr uid_t kNobody = 65534;  // and gid 65534 (nogroup)
constexpr gid_t kUsers = 100;     // a group nobody is given as a supplementary one below

struct Meta {
  std::string content;
  mode_t mode = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  bool operator==(const Meta& o) const {
    return content == o.content && mode == o.mode && uid == o.uid && gid == o.gid;
  }
};

Meta meta(const fs::path& p) {
  Meta m;
  struct stat st {};
  if (stat(p.c_str(), &st) != 0) return m;
  m.content = slurp(p);
  m.mode = st.st_mode & 07777;
  m.uid = st.st_uid;
  m.gid = st.st_gid;
  return m;
}

std::ostream& operator<<(std::ostream& os, const Meta& m) {
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(m.mode));
  return os << "{\"" << m.content.substr(0, 16) << "\" " << mode << " " << m.uid << ":" << m.gid
            << "}";
}

// A file with the given content, mode and owner.
void make_file(const fs::path& p, const std::string& content, mode_t mode, uid_t uid = 0,
               gid_t gid = 0) {
  write_file(p, content);
  ASSERT_EQ(chown(p.c_str(), uid, gid), 0) << p;
  ASSERT_EQ(chmod(p.c_str(), mode), 0) << p;
}

// A folder with the given mode (chmod: mkdir's is cut by the umask) and owner.
void make_folder(const fs::path& p, mode_t mode, uid_t uid = 0) {
  fs::create_directory(p);
  ASSERT_EQ(chown(p.c_str(), uid, uid), 0) << p;
  ASSERT_EQ(chmod(p.c_str(), mode), 0) << p;
}

bool is_root() { return geteuid() == 0; }

// Whether bash's `>` may write `p` as this user.
bool shell_writes(const fs::path& p) {
  return bash("echo shell > " + shell_quote(p.string())).status == 0;
}

// The error of writing `data` to `path` through OutputFile, "" when it was written.
std::string write_out(const fs::path& path, const std::string& data) {
  const OutputError e = write_whole_file(path.string(), data);
  return e ? e.message : "";
}

// Runs `body` in a forked child as uid and gid 65534 with no supplementary group but `extra`,
// and returns what it returned; "(could not become nobody)" when the ids could not be set.
std::string as_nobody(const std::function<std::string()>& body, std::vector<gid_t> extra = {}) {
  int p[2];
  if (pipe(p) != 0) return "(pipe)";
  const pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    std::string s = "(could not become nobody)";
    if (setgroups(extra.size(), extra.data()) == 0 && setresgid(kNobody, kNobody, kNobody) == 0 &&
        setresuid(kNobody, kNobody, kNobody) == 0)
      s = body();
    if (::write(p[1], s.data(), s.size()) < 0) _exit(1);
    _exit(0);  // no gtest teardown in the child
  }
  close(p[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(p[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(p[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return out;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int sysctl_fs(const char* name) {
  std::string v = slurp(std::string("/proc/sys/fs/") + name);
  return v.empty() ? -1 : std::stoi(v);
}

// A scratch folder nobody may enter, with `sticky` in it: 1777, root's, like /tmp.
class AsNobody : public testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) GTEST_SKIP() << "needs root, to become nobody";
    ASSERT_EQ(chmod(d_.path().c_str(), 0755), 0);
    make_folder(tmp_, 01777);
  }
  ScratchDir d_;
  const fs::path tmp_ = d_ / "tmp";
};

}  // namespace

// --- as the test's user -----------------------------------------------------------------------

TEST(OutputPermission, ReadOnlyFileIsRefusedUnlessTheShellWritesIt) {
  ScratchDir d;
  make_file(d / "twin", "old", 0444, geteuid(), getegid());
  make_file(d / "ro", "old", 0444, geteuid(), getegid());
  const bool shell = shell_writes(d / "twin");
  fs::remove(d / "twin");
  if (!is_root()) {
    EXPECT_FALSE(shell) << "the shell's > refuses a 0444 file";
  }
  const Meta before = meta(d / "ro");
  const std::string err = write_out(d / "ro", "new");
  if (shell) {
    // Root: CAP_DAC_OVERRIDE lets `>` write it, so the output replaces it, mode kept.
    EXPECT_EQ(err, "");
    EXPECT_EQ(slurp(d / "ro"), "new");
    EXPECT_EQ(meta(d / "ro").mode, 0444u);
  } else {
    EXPECT_EQ(err, "cannot write " + (d / "ro").string() + ": Permission denied");
    EXPECT_EQ(meta(d / "ro"), before);
  }
  EXPECT_EQ(d.listing(), "ro\n") << "no temporary left";
}

TEST(OutputPermission, RefusedBeforeAnythingIsCreated) {
  if (is_root()) GTEST_SKIP() << "root may write a 0444 file";
  ScratchDir d;
  make_file(d / "ro", "old", 0444, geteuid(), getegid());
  OutputFile f;
  const OutputError e = f.open((d / "ro").string());
  EXPECT_EQ(e.kind, OutputError::Kind::io);
  EXPECT_EQ(f.temp_path(), "");
  EXPECT_EQ(d.listing(), "ro\n");
}

TEST(OutputPermission, RootKeepsTheOwnerOfAUsersFile) {
  if (!is_root()) GTEST_SKIP() << "only root may give a file to another user";
  ScratchDir d;
  make_file(d / "theirs", "old", 0640, kNobody, kNobody);
  EXPECT_EQ(write_out(d / "theirs", "new"), "");
  EXPECT_EQ(meta(d / "theirs"), (Meta{"new", 0640, kNobody, kNobody}));
  EXPECT_EQ(d.listing(), "theirs\n");
}

// --- as nobody (the test runs as root) ---------------------------------------------------------

TEST_F(AsNobody, OwnReadOnlyFileIsRefused) {
  make_file(tmp_ / "ro", "old", 0444, kNobody, kNobody);
  const Meta before = meta(tmp_ / "ro");
  EXPECT_EQ(as_nobody([&] { return write_out(tmp_ / "ro", "new"); }),
            "cannot write " + (tmp_ / "ro").string() + ": Permission denied");
  EXPECT_EQ(meta(tmp_ / "ro"), before);
  EXPECT_EQ(as_nobody([&] { return std::to_string(shell_writes(tmp_ / "ro")); }), "0")
      << "the shell's > refuses it too";
  EXPECT_EQ(meta(tmp_ / "ro"), before);
}

TEST_F(AsNobody, RootsFileInAStickyFolderIsRefused) {
  make_file(tmp_ / "roots", "old", 0644);
  const Meta before = meta(tmp_ / "roots");
  EXPECT_EQ(as_nobody([&] { return write_out(tmp_ / "roots", "new"); }),
            "cannot write " + (tmp_ / "roots").string() + ": Permission denied");
  EXPECT_EQ(meta(tmp_ / "roots"), before);
  EXPECT_EQ(ScratchDir::listing_of(tmp_), "roots\n") << "no temporary left";
}

TEST_F(AsNobody, RootsWritableFileInAStickyFolderIsNotRenamedOver) {
  // Writable, but only its owner may rename over it there: `>` would rewrite it in place;
  // OutputFile never does, so it refuses up front rather than failing at the rename.
  make_file(tmp_ / "shared", "old", 0666);
  const Meta before = meta(tmp_ / "shared");
  const std::string err = as_nobody([&] { return write_out(tmp_ / "shared", "new"); });
  EXPECT_TRUE(has(err, "cannot write " + (tmp_ / "shared").string() + ": ")) << err;
  EXPECT_TRUE(has(err, "sticky folder")) << err;
  EXPECT_EQ(meta(tmp_ / "shared"), before);
}

TEST_F(AsNobody, WritableFileInAFolderThatIsNotIsRefused) {
  make_folder(d_ / "ro", 0755);
  make_file(d_ / "ro" / "mine", "old", 0644, kNobody, kNobody);
  const Meta before = meta(d_ / "ro" / "mine");
  const std::string err = as_nobody([&] { return write_out(d_ / "ro" / "mine", "new"); });
  EXPECT_EQ(err, "cannot write " + (d_ / "ro" / "mine").string() +
                     ": no file can be made in its folder to replace it (the output is never "
                     "rewritten in place): Permission denied");
  EXPECT_EQ(meta(d_ / "ro" / "mine"), before);
  EXPECT_EQ(ScratchDir::listing_of(d_ / "ro"), "mine\n") << "no temporary left";
}

TEST_F(AsNobody, LinkToAFileItMayNotWriteIsRefused) {
  make_file(tmp_ / "roots", "old", 0644);
  fs::create_symlink("roots", tmp_ / "link");
  ASSERT_EQ(lchown((tmp_ / "link").c_str(), kNobody, kNobody), 0);
  const Meta before = meta(tmp_ / "roots");
  EXPECT_EQ(as_nobody([&] { return write_out(tmp_ / "link", "new"); }),
            "cannot write " + (tmp_ / "link").string() + ": Permission denied");
  EXPECT_EQ(meta(tmp_ / "roots"), before);
  EXPECT_TRUE(fs::is_symlink(tmp_ / "link"));
}

TEST_F(AsNobody, DanglingLinkIntoAFolderItMayNotWriteCreatesNothing) {
  make_folder(d_ / "ro", 0755);
  fs::create_symlink(d_ / "ro" / "new", tmp_ / "link");
  ASSERT_EQ(lchown((tmp_ / "link").c_str(), kNobody, kNobody), 0);
  EXPECT_EQ(as_nobody([&] { return write_out(tmp_ / "link", "new"); }),
            "cannot create " + (tmp_ / "link").string() + ": Permission denied");
  EXPECT_TRUE(fs::is_empty(d_ / "ro"));
  EXPECT_TRUE(fs::is_symlink(tmp_ / "link"));
}

TEST_F(AsNobody, OwnFileIsReplacedKeepingModeAndOwner) {
  make_file(tmp_ / "mine", "old", 0644, kNobody, kNobody);
  EXPECT_EQ(as_nobody([&] { return write_out(tmp_ / "mine", "new"); }), "");
  EXPECT_EQ(meta(tmp_ / "mine"), (Meta{"new", 0644, kNobody, kNobody}));
}

TEST_F(AsNobody, AnotherUsersFileKeepsItsGroupWhenTheCallerIsInIt) {
  // A shared folder (not sticky): nobody may replace root's group-writable file, and may
  // give the new one only a group it is in, not root as owner.
  make_folder(d_ / "shared", 0777);
  make_file(d_ / "shared" / "log", "old", 0664, 0, kUsers);
  EXPECT_EQ(as_nobody([&] { return write_out(d_ / "shared" / "log", "new"); }, {kUsers}), "");
  EXPECT_EQ(meta(d_ / "shared" / "log"), (Meta{"new", 0664, kNobody, kUsers}));
}

TEST_F(AsNobody, SetIdBitsGoWhenTheOwnerCannotBeKept) {
  // An empty output: a write(2) by nobody would clear the set-user-id bit itself.
  make_folder(d_ / "shared", 0777);
  make_file(d_ / "shared" / "log", "old", 04666);
  EXPECT_EQ(as_nobody([&] { return write_out(d_ / "shared" / "log", ""); }), "");
  EXPECT_EQ(meta(d_ / "shared" / "log"), (Meta{"", 0666, kNobody, kNobody}));
}

// fs.protected_symlinks and fs.protected_regular: what the shell's `>` refuses even to root
// in a sticky world-writable folder, where another user may have prepared the name.
TEST(OutputPermission, RootFollowsNoOtherUsersLinkInAStickyFolderWhenTheKernelWouldNot) {
  if (!is_root()) GTEST_SKIP() << "needs root, to make a link another user's";
  if (sysctl_fs("protected_symlinks") == 0) GTEST_SKIP() << "fs.protected_symlinks is 0 here";
  ScratchDir d;
  make_folder(d / "tmp", 01777);
  make_folder(d / "etc", 0755);
  fs::create_symlink(d / "etc" / "new", d / "tmp" / "link");
  ASSERT_EQ(lchown((d / "tmp" / "link").c_str(), kNobody, kNobody), 0);
  EXPECT_FALSE(shell_writes(d / "tmp" / "link")) << "the kernel follows no such link";
  EXPECT_EQ(write_out(d / "tmp" / "link", "new"),
            "cannot open " + (d / "tmp" / "link").string() + ": Permission denied");
  EXPECT_TRUE(fs::is_empty(d / "etc"));
}

TEST(OutputPermission, RootWritesNoOtherUsersFileInAStickyFolderWhenTheKernelWouldNot) {
  if (!is_root()) GTEST_SKIP() << "needs root, to make a file another user's";
  if (sysctl_fs("protected_regular") == 0) GTEST_SKIP() << "fs.protected_regular is 0 here";
  ScratchDir d;
  make_folder(d / "tmp", 01777);
  make_file(d / "tmp" / "twin", "old", 0666, kNobody, kNobody);
  make_file(d / "tmp" / "theirs", "old", 0666, kNobody, kNobody);
  EXPECT_FALSE(shell_writes(d / "tmp" / "twin"));
  const Meta before = meta(d / "tmp" / "theirs");
  EXPECT_TRUE(has(write_out(d / "tmp" / "theirs", "new"), "fs.protected_regular"));
  EXPECT_EQ(meta(d / "tmp" / "theirs"), before);
}

// --- every tool with -o, as nobody through setpriv ---------------------------------------------

namespace {

// The tools and the libraries they load from the build tree, where nobody can run them: the
// build tree itself when nobody can reach it, else copies in a folder of the scratch one.
struct Runnable {
  std::vector<std::string> prefix;  // setpriv ... [env LD_LIBRARY_PATH=...]
  std::string write, validate, report, record;
};

const std::vector<std::string> kSetpriv = {"setpriv", "--reuid=65534", "--regid=65534",
                                           "--clear-groups"};

bool nobody_can_run(const std::string& bin) {
  return run(concat({kSetpriv, {"test", "-x", bin}})).status == 0;
}

// The shared libraries `bin` loads from outside the system folders (the build tree's): the
// third word of ldd's lines, when it is a path.
std::vector<std::string> own_libraries(const std::string& bin) {
  const Ran r = run({"ldd", bin});
  std::vector<std::string> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, arrow, lib;
    if (!(words >> name >> arrow >> lib) || lib.empty() || lib[0] != '/') continue;
    if (lib.rfind("/lib", 0) != 0 && lib.rfind("/usr/", 0) != 0) out.push_back(lib);
  }
  return out;
}

Runnable runnable(const ScratchDir& d) {
  Runnable r;
  r.prefix = kSetpriv;
  const std::vector<std::string> bins = {PMCLOG_WRITE_BIN, PMCLOG_VALIDATE_BIN, PMCLOG_REPORT_BIN,
                                         PMCLOG_RECORD_BIN};
  bool reachable = true;
  for (const auto& b : bins) reachable = reachable && nobody_can_run(b);
  std::vector<std::string> used = bins;
  if (!reachable) {
    const fs::path bin = d / "bin";
    make_folder(bin, 0755);
    used.clear();
    for (const auto& b : bins) {
      for (const auto& lib : own_libraries(b))
        fs::copy_file(lib, bin / fs::path(lib).filename(), fs::copy_options::skip_existing);
      fs::copy_file(b, bin / fs::path(b).filename(), fs::copy_options::skip_existing);
      used.push_back((bin / fs::path(b).filename()).string());
    }
    for (const auto& e : fs::directory_iterator(bin)) chmod(e.path().c_str(), 0755);
    r.prefix = concat({r.prefix, {"env", "LD_LIBRARY_PATH=" + bin.string()}});
  }
  r.write = used[0];
  r.validate = used[1];
  r.report = used[2];
  r.record = used[3];
  return r;
}

struct Tool {
  const char* name;
  int refused_status;  // pmclog-record's own failures are 125, the others' 2
  std::vector<std::string> (*argv)(const Runnable& r, const fs::path& in, const fs::path& out);
};

const Tool kTools[] = {
    {"write_synth", 2, [](const Runnable& r, const fs::path&, const fs::path& out) {
       return std::vector<std::string>{r.write, "synth", "-q", "-n", "200", "-o", out};
     }},
    {"validate", 2, [](const Runnable& r, const fs::path& in, const fs::path& out) {
       return std::vector<std::string>{r.validate, "-q", "--format=junit", in / "x.pmclog", "-o", out};
     }},
    {"report", 2, [](const Runnable& r, const fs::path& in, const fs::path& out) {
       return std::vector<std::string>{r.report, "--sysroot", in, "-o", out, in / "x.pmclog"};
     }},
    {"record", 125, [](const Runnable& r, const fs::path&, const fs::path& out) {
       return std::vector<std::string>{r.record, "-q", "-o", out, "--", "true"};
     }},
};

void PrintTo(const Tool& t, std::ostream* os) { *os << t.name; }

}  // namespace

class ToolAsNobody : public testing::TestWithParam<Tool> {
 protected:
  void SetUp() override {
    if (!is_root()) GTEST_SKIP() << "needs root, to run the tools as nobody with setpriv";
    if (run({"setpriv", "--version"}).status != 0) GTEST_SKIP() << "no setpriv (util-linux)";
    ASSERT_EQ(chmod(d_.path().c_str(), 0755), 0);
    r_ = runnable(d_);
    make_folder(in_, 0755);
    fs::copy_file(fs::path(PMCLOG_FIXTURES_DIR) / "M10-64-le.pmclog", in_ / "x.pmclog");
    ASSERT_EQ(chmod((in_ / "x.pmclog").c_str(), 0644), 0);
    make_folder(tmp_, 01777);
    if (std::string(GetParam().name) == "record" &&
        nobody(GetParam().argv(r_, in_, tmp_ / "probe")).status != 0)
      GTEST_SKIP() << "perf_event_open is not allowed to nobody here";
    fs::remove(tmp_ / "probe");
  }
  Ran nobody(const std::vector<std::string>& argv) { return run(concat({r_.prefix, argv})); }
  // One line naming the file and the reason, the tool's exit status for its own failure.
  // (pmclog-record may say first what kernel.perf_event_paranoid allows it: not counted.)
  void expect_refused(const Ran& o, const fs::path& out) {
    EXPECT_EQ(o.status, GetParam().refused_status) << o.err;
    std::string err = o.err;
    if (err.rfind("pmclog-record: kernel.perf_event_paranoid", 0) == 0)
      err.erase(0, err.find('\n') + 1);
    const std::string tool = GetParam().name == std::string("write_synth") ? "write"
                                                                           : GetParam().name;
    EXPECT_EQ(err, "pmclog-" + tool + ": cannot write " + out.string() + ": Permission denied\n");
  }
  ScratchDir d_;
  Runnable r_;
  const fs::path in_ = d_ / "in", tmp_ = d_ / "tmp";
};

TEST_P(ToolAsNobody, RootsFileIsRefused) {
  make_file(tmp_ / "roots.out", "root's", 0644);
  const Meta before = meta(tmp_ / "roots.out");
  expect_refused(nobody(GetParam().argv(r_, in_, tmp_ / "roots.out")), tmp_ / "roots.out");
  EXPECT_EQ(meta(tmp_ / "roots.out"), before);
  EXPECT_EQ(ScratchDir::listing_of(tmp_), "roots.out\n") << "no temporary left";
}

TEST_P(ToolAsNobody, OwnReadOnlyFileIsRefused) {
  make_file(tmp_ / "ro.out", "nobody's", 0444, kNobody, kNobody);
  const Meta before = meta(tmp_ / "ro.out");
  expect_refused(nobody(GetParam().argv(r_, in_, tmp_ / "ro.out")), tmp_ / "ro.out");
  EXPECT_EQ(meta(tmp_ / "ro.out"), before);
  EXPECT_EQ(ScratchDir::listing_of(tmp_), "ro.out\n") << "no temporary left";
}

TEST_P(ToolAsNobody, OwnFileIsReplacedKeepingModeAndOwner) {
  make_file(tmp_ / "mine.out", "nobody's", 0644, kNobody, kNobody);
  const Ran o = nobody(GetParam().argv(r_, in_, tmp_ / "mine.out"));
  EXPECT_EQ(o.status, 0) << o.err;
  const Meta after = meta(tmp_ / "mine.out");
  EXPECT_NE(after.content, "nobody's");
  EXPECT_GT(after.content.size(), 16u);
  EXPECT_EQ(after.mode, 0644u);
  EXPECT_EQ(after.uid, kNobody);
  EXPECT_EQ(after.gid, kNobody);
  EXPECT_EQ(ScratchDir::listing_of(tmp_), "mine.out\n");
}

TEST_P(ToolAsNobody, RootReplacingNobodysFileKeepsItsOwner) {
  make_folder(d_ / "home", 0755, kNobody);
  make_file(d_ / "home" / "theirs.out", "nobody's", 0640, kNobody, kNobody);
  const Ran o = run(GetParam().argv(r_, in_, d_ / "home" / "theirs.out"));
  EXPECT_EQ(o.status, 0) << o.err;
  const Meta after = meta(d_ / "home" / "theirs.out");
  EXPECT_NE(after.content, "nobody's");
  EXPECT_EQ(after.mode, 0640u);
  EXPECT_EQ(after.uid, kNobody);
  EXPECT_EQ(after.gid, kNobody);
  EXPECT_EQ(ScratchDir::listing_of(d_ / "home"), "theirs.out\n");
}

INSTANTIATE_TEST_SUITE_P(Tools, ToolAsNobody, testing::ValuesIn(kTools),
                         [](const testing::TestParamInfo<Tool>& i) {
                           return std::string(i.param.name);
                         });
