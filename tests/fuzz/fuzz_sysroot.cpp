// Fuzz target: the sysroot path resolver (libpmcprofile sysroot.cpp). The input builds a
// tree under a scratch folder: directories, regular files and symlinks (absolute, relative,
// with "..", to themselves, to outside the root) inside a root, beside a folder outside it
// holding files of the same names; then a path from the input is resolved. Property: a
// result is a regular file whose real path lies inside the root's real path, reached with
// no symlink on the way (every component of the result is a real directory or the file),
// whatever the links say.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "fuzz_support.h"
#include "pmcprofile/sysroot.h"

namespace fs = std::filesystem;
using fuzz::check;

namespace {

fuzz::ScratchCleanup cleanup;

// A path built of a few names and separators, so that the tree's names recur in it.
std::string path_from(fuzz::Choices& ch, size_t max_parts) {
  static const char* const names[] = {"a", "b", "lib", "..", ".", "", "root", "out", "f", "l"};
  std::string p = (ch.byte() & 1) ? "/" : "";
  const size_t n = ch.byte() % (max_parts + 1);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t b = ch.byte();
    if (i > 0 || b & 0x80) p += '/';
    if ((b & 0x70) == 0x70) {
      p += ch.bytes(1 + b % 4);  // raw bytes, sometimes
    } else {
      p += names[b % 10];
    }
  }
  return p;
}

// Whether making `host` touches only the tree: no existing component below the root is a
// symlink (creating through one could write anywhere on the host).
bool no_link_on_the_way(const fs::path& root, const fs::path& host) {
  fs::path at = root;
  for (const fs::path& c : host.lexically_relative(root)) {
    at /= c;
    struct stat st;
    if (lstat(at.c_str(), &st) != 0) return true;  // nothing further exists
    if (S_ISLNK(st.st_mode)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Choices ch({data, size});
  const fs::path base = fuzz::scratch_dir() / "t";
  std::error_code ec;
  fs::remove_all(base, ec);
  const fs::path root = base / "root", outside = base / "out";
  fs::create_directories(root);
  fs::create_directories(outside / "lib");
  // What an escape would find: the same names outside the root.
  for (const char* f : {"f", "a", "b", "lib/f", "lib/a"}) std::ofstream(outside / f) << "x";

  const size_t entries = ch.byte() % 24;
  for (size_t i = 0; i < entries; ++i) {
    const uint8_t what = ch.byte() % 3;
    std::string rel = path_from(ch, 3);
    // Entries are made inside the root by plain host paths: skip those that leave it.
    const fs::path host = (root / fs::path(rel).relative_path()).lexically_normal();
    const std::string hs = host.string();
    if (hs.find('\0') != std::string::npos || hs.rfind(root.string() + "/", 0) != 0 ||
        !no_link_on_the_way(root, host))
      continue;
    fs::create_directories(host.parent_path(), ec);
    if (what == 0) {
      fs::create_directories(host, ec);
    } else if (what == 1) {
      std::ofstream(host) << "y";
    } else {
      std::string target = path_from(ch, 4);
      if (ch.byte() & 1) target = (outside / fs::path(target).relative_path()).string();
      if (target.empty() || target.find('\0') != std::string::npos) target = ".";
      (void)symlink(target.c_str(), hs.c_str());
    }
  }

  const std::string query = path_from(ch, 6);
  const auto got = pmcprofile::resolve_in_sysroot(root.string(), query);
  if (!got) return 0;
  struct stat st;
  check(lstat(got->c_str(), &st) == 0 && S_ISREG(st.st_mode), "the result is not a regular file");
  const fs::path real = fs::canonical(*got, ec);
  check(!ec, "the result has no real path");
  const std::string real_root = fs::canonical(root).string() + "/";
  check(real.string().rfind(real_root, 0) == 0, "the result lies outside the root");
  check(got->rfind(root.string() + "/", 0) == 0 &&
            fs::canonical(root).string() + got->substr(root.string().size()) == real.string(),
        "the result goes through a symlink or a '..'");
  return 0;
}
