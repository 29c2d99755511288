// Helpers for the write tests: running the tools as subprocesses, scratch folders, files.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace pmclog::write_test {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline std::vector<uint8_t> bytes_of(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

inline void spit(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}

// A fresh folder under the system temp dir, removed with its contents at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "pmclog-write-test.XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Runs `cmd` with /bin/sh; stdout and stderr are captured through files in `dir`.
inline Outcome run(const std::string& cmd, const ScratchDir& dir) {
  const fs::path o = dir / ".stdout", e = dir / ".stderr";
  const std::string full = "(" + cmd + ") >'" + o.string() + "' 2>'" + e.string() + "' </dev/null";
  const int rc = std::system(full.c_str());
  Outcome r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  r.out = slurp(o);
  r.err = slurp(e);
  fs::remove(o);
  fs::remove(e);
  return r;
}

inline std::string q(const fs::path& p) {
  std::string s = "'";  // built by appends: GCC 12 warns falsely on "x" + std::string&&
  s += p.string();
  s += '\'';
  return s;
}

inline std::string write_bin() { return PMCLOG_WRITE_BIN; }

// FNV-1a, 64-bit: a checksum whose value is fixed by its definition on every machine.
inline uint64_t fnv1a(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace pmclog::write_test
