// Helpers for the output tests: a scratch folder, whole-file reads and writes, running a
// shell command with its output captured.
#pragma once

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace common_test {

namespace fs = std::filesystem;

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline void spit(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}

// Shell-quoted, for the command lines below.
inline std::string q(const fs::path& p) {
  std::string s = "'";
  s += p.string();
  s += '\'';
  return s;
}

class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "pmclog-common-test.XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }
  // Names in the folder, sorted: what a run left behind.
  std::string listing() const { return listing_of(path_); }
  static std::string listing_of(const fs::path& folder) {
    std::string out;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    for (const auto& n : names) out += n + "\n";
    return out;
  }

 private:
  fs::path path_;
};

// A character device under a plain name (default the null device, 1:3; 1:7 is "full", where
// every write fails with ENOSPC). False when mknod is not allowed (not root).
inline bool make_char_device(const fs::path& p, unsigned minor = 3) {
  return mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

inline bool is_char_device(const fs::path& p) {
  struct stat st {};
  return lstat(p.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

struct Outcome {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

// Runs `cmd` with bash (for PIPESTATUS) from a script file beside `capture`, so that the
// command needs no quoting of its own; stdout and stderr are captured through files.
inline Outcome run(const std::string& cmd, const ScratchDir& capture) {
  const std::string base = capture.path().string();
  const fs::path sh = base + ".sh", o = base + ".out", e = base + ".err";
  spit(sh, cmd + "\n");
  const std::string full = "bash " + q(sh) + " >" + q(o) + " 2>" + q(e) + " </dev/null";
  const int rc = std::system(full.c_str());
  Outcome r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  r.out = slurp(o);
  r.err = slurp(e);
  for (const fs::path& p : {sh, o, e}) fs::remove(p);
  return r;
}

}  // namespace common_test
