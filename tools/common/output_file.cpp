#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "same_file.h"
#include "temp_cleanup.h"

namespace pmclog::tools {

namespace {

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "/dev/stdout" ends at /proc/self/fd/1, whose "link" names no file (a pipe, a deleted
// file): an inherited descriptor is reused as it is, offset and O_APPEND included.
int inherited_fd(const std::string& path) {
  for (const char* prefix : {"/proc/self/fd/", "/dev/fd/"}) {
    const size_t n = std::strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n) continue;
    char* end = nullptr;
    const long fd = std::strtol(path.c_str() + n, &end, 10);
    if (*end == '\0' && fd >= 0 && fd < 1024) return static_cast<int>(fd);
  }
  return -1;
}

// The file a symlink chain ends at, which may not exist yet (a dangling link creates it), or
// an inherited descriptor (`fd`). Relative link targets are relative to the link's folder.
// ELOOP past 40 links, like the kernel.
bool follow_links(std::string& path, int& fd, int& err) {
  for (int depth = 0; depth < 40; ++depth) {
    if ((fd = inherited_fd(path)) >= 0) return true;
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return true;
    std::string target(4096, '\0');
    const ssize_t n = readlink(path.c_str(), target.data(), target.size());
    if (n <= 0) {
      err = n < 0 ? errno : ENOENT;
      return false;
    }
    target.resize(static_cast<size_t>(n));
    path = target.front() == '/' ? target : dir_of(path) + "/" + target;
  }
  err = ELOOP;
  return false;
}

}  // namespace

OutputFile::~OutputFile() { abort(); }

OutputError OutputFile::fail(OutputError::Kind k, const std::string& what, int err) {
  if (!error_) {
    error_.kind = err == EPIPE ? OutputError::Kind::closed_pipe : k;
    error_.message = what + ": " + std::strerror(err);
  }
  return error_;
}

OutputError OutputFile::open(const std::string& path, const OutputOptions& opt) {
  name_ = path == "-" ? "standard output" : path;
  if (OutputError e = refuse_same_file(path, opt.inputs)) return error_ = e;
  if (path == "-") {
    fd_ = STDOUT_FILENO;
  } else {
    target_ = path;
    int err = 0, inherited = -1;
    if (!follow_links(target_, inherited, err))
      return fail(OutputError::Kind::io, "cannot open " + path, err);
    if (inherited >= 0) {
      fd_ = fcntl(inherited, F_DUPFD_CLOEXEC, 3);
    } else {
      struct stat st {};
      if (stat(target_.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return open_replacing(target_);
      // A device, FIFO or socket is the destination itself: never truncated, never replaced.
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    }
    if (fd_ < 0) return fail(OutputError::Kind::io, "cannot open " + path, errno);
    own_fd_ = true;
  }
  if (opt.spool_write_through) return open_spool();
  return {};
}

OutputError OutputFile::open_replacing(const std::string& target) {
  // Same folder as the target, so that rename(2) is atomic and never crosses filesystems.
  std::string tmpl = dir_of(target) + "/." + base_of(target) + ".tmp.XXXXXX";
  struct stat old {};
  const bool exists = stat(target.c_str(), &old) == 0;
  {
    FatalSignalsBlocked blocked;  // created and remembered as one step
    fd_ = mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd_ < 0) return fail(OutputError::Kind::io, "cannot create a file in " + dir_of(target), errno);
    temp_ = tmpl;
    slot_ = remember_temp(temp_);
  }
  own_fd_ = true;
  // mkstemp makes 0600: keep the replaced file's mode, or give a new one 0666 & ~umask.
  mode_t mode = old.st_mode & 07777;
  if (!exists) {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (fchmod(fd_, mode) != 0) return fail(OutputError::Kind::io, "cannot set the mode of " + temp_, errno);
  return {};
}

OutputError OutputFile::open_spool() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/pmclog-spool.XXXXXX";
  const int fd = mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) return fail(OutputError::Kind::io, "cannot create a spool file in " + dir_of(tmpl), errno);
  unlink(tmpl.c_str());  // anonymous from now on: nothing to clean up
  through_fd_ = fd_;
  fd_ = fd;
  spooled_ = true;
  return {};
}

OutputError OutputFile::write_fd(int fd, const void* data, size_t n, const std::string& what) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return fail(OutputError::Kind::io, what, errno);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return {};
}

OutputError OutputFile::write(const void* data, size_t n) {
  if (error_ || done_) return error_;
  if (fd_ < 0) return error_ = {OutputError::Kind::io, "write before open"};
  return write_fd(fd_, data, n, "cannot write " + (spooled_ ? "the spool of " + name_ : name_));
}

OutputError OutputFile::commit() {
  if (done_ || error_) return error_;
  if (spooled_) {
    if (lseek(fd_, 0, SEEK_SET) < 0) return fail(OutputError::Kind::io, "cannot rewind the spool", errno);
    std::string buf(1 << 20, '\0');
    for (;;) {
      const ssize_t r = ::read(fd_, buf.data(), buf.size());
      if (r < 0) {
        if (errno == EINTR) continue;
        return fail(OutputError::Kind::io, "cannot read the spool of " + name_, errno);
      }
      if (r == 0) break;
      if (write_fd(through_fd_, buf.data(), static_cast<size_t>(r), "cannot write " + name_))
        return error_;
    }
    close(fd_);
    fd_ = through_fd_;
    through_fd_ = -1;
    spooled_ = false;
  }
  if (temp_.empty()) {
    // Written through: a device or NFS may report a write error only at close(2).
    if (own_fd_ && close(fd_) != 0) {
      own_fd_ = false;
      return fail(OutputError::Kind::io, "cannot write " + name_, errno);
    }
    own_fd_ = false;
    fd_ = -1;
    done_ = true;
    return {};
  }
  // Durable before visible: after a crash the name holds the old file or the whole new one.
  if (fsync(fd_) != 0 && errno != EINVAL) return fail(OutputError::Kind::io, "cannot write " + name_, errno);
  const int rc = close(fd_);
  own_fd_ = false;
  fd_ = -1;
  if (rc != 0) return fail(OutputError::Kind::io, "cannot write " + name_, errno);
  {
    FatalSignalsBlocked blocked;
    if (std::rename(temp_.c_str(), target_.c_str()) != 0)
      return fail(OutputError::Kind::io, "cannot rename the output into place as " + name_, errno);
    forget_temp(slot_);
    slot_ = -1;
  }
  temp_.clear();
  done_ = true;
  return {};
}

void OutputFile::abort() {
  if (done_) return;
  done_ = true;
  if (through_fd_ >= 0 && through_fd_ != STDOUT_FILENO) close(through_fd_);
  if (spooled_ && fd_ >= 0) close(fd_);
  else if (own_fd_ && fd_ >= 0) close(fd_);
  fd_ = through_fd_ = -1;
  own_fd_ = false;
  if (!temp_.empty()) {
    unlink(temp_.c_str());
    forget_temp(slot_);
    slot_ = -1;
    temp_.clear();
  }
}

OutputError write_whole_file(const std::string& path, const std::string& data,
                             const OutputOptions& opt) {
  OutputFile f;
  if (OutputError e = f.open(path, opt)) return e;
  if (OutputError e = f.write(data)) return e;
  return f.commit();
}

}  // namespace pmclog::tools
