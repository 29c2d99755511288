// Character devices under plain names, for the output tests.
#pragma once

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>

namespace common_test {

// A character device at `p` (default the null device, 1:3; 1:7 is "full", where every
// write fails with ENOSPC). False when mknod is not allowed (not root).
inline bool make_char_device(const std::filesystem::path& p, unsigned minor = 3) {
  return mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

inline bool is_char_device(const std::filesystem::path& p) {
  struct stat st {};
  return lstat(p.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace common_test
