#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace pmclog::validate {

bool write_file_atomically(const std::string& path, const std::string& data, std::string& err) {
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    err = path + ": cannot create a temporary file: " + std::strerror(errno);
    return false;
  }
  const std::string tmp(name.data());
  size_t done = 0;
  bool ok = true;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = path + ": " + std::strerror(errno);
      ok = false;
      break;
    }
    done += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; a report is an ordinary file.
  if (ok && ::fchmod(fd, 0644) != 0) {
    err = path + ": " + std::strerror(errno);
    ok = false;
  }
  if (::close(fd) != 0 && ok) {
    err = path + ": " + std::strerror(errno);
    ok = false;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = path + ": " + std::strerror(errno);
    ok = false;
  }
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

}  // namespace pmclog::validate
