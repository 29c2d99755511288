#include "output_file.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

// A fs.protected_* sysctl (0 off, 1 and 2 on); on when it cannot be read, which refuses only
// what a hardened kernel refuses.
int protection(const char* name) {
  FILE* f = std::fopen((std::string("/proc/sys/fs/") + name).c_str(), "re");
  int v = 1;
  if (f) {
    if (std::fscanf(f, "%d", &v) != 1) v = 1;
    std::fclose(f);
  }
  return v;
}

bool world_writable_sticky(const struct stat& dir) {
  return (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH);
}

// CAP_FOWNER in the effective set: what lets root rename over another user's file in a
// sticky folder.
bool has_cap_fowner() {
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &hdr, data) != 0) return geteuid() == 0;
  return (data[CAP_FOWNER / 32].effective >> (CAP_FOWNER % 32)) & 1u;
}

// The file a symlink chain ends at, which may not exist yet (a dangling link creates it), or
// an inherited descriptor (`fd`). Relative link targets are relative to the link's folder.
// ELOOP past 40 links, like the kernel. The links are read here, not followed by the kernel,
// so its fs.protected_symlinks rule is applied by hand: in a sticky world-writable folder
// (/tmp) a link is followed only by its owner or when the folder's owner owns it. Without
// it, root's `-o /tmp/x` would write wherever another user's link x pointed, even to a file
// that does not exist yet, which the shell's `>` refuses.
bool follow_links(std::string& path, int& fd, int& err) {
  for (int depth = 0; depth < 40; ++depth) {
    if ((fd = inherited_fd(path)) >= 0) return true;
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return true;
    struct stat dir {};
    if (st.st_uid != geteuid() && stat(dir_of(path).c_str(), &dir) == 0 &&
        world_writable_sticky(dir) && st.st_uid != dir.st_uid && protection("protected_symlinks")) {
      err = EACCES;
      return false;
    }
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
      if (stat(target_.c_str(), &st) != 0 || S_ISREG(st.st_mode))
        return open_replacing(path, target_);
      // A device, FIFO or socket is the destination itself: never truncated, never replaced.
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    }
    if (fd_ < 0) return fail(OutputError::Kind::io, "cannot open " + path, errno);
    own_fd_ = true;
  }
  if (opt.spool_write_through) return open_spool();
  return {};
}

OutputError OutputFile::refuse(const std::string& message) {
  if (!error_) error_ = {OutputError::Kind::io, message};
  return error_;
}

// `given` is the path as given, `target` where its links end.
OutputError OutputFile::open_replacing(const std::string& given, const std::string& target) {
  using Kind = OutputError::Kind;
  const std::string dir = dir_of(target);
  struct stat old {};
  const bool exists = stat(target.c_str(), &old) == 0;
  if (exists) {
    // May the caller write this file? The test is the shell's `>` without O_TRUNC: open(2) for
    // writing, closed at once. It weighs the effective uid, the groups, ACLs, read-only
    // mounts, immutable and append-only files, a running executable (ETXTBSY), the file
    // server's own answer, and the kernel's symlink rules (the given path is opened, not the
    // resolved one); faccessat(AT_EACCESS) misses append-only and ETXTBSY and, through
    // glibc's fallback on older kernels, ACLs. Without it the rename below replaced files the
    // caller may not write: its own 0444 file, or root's 0644 file in /tmp (the folder is
    // everyone's, so the temporary could be made there).
    const int probe = ::open(given.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (probe < 0) return fail(Kind::io, "cannot write " + name_, errno);
    struct stat seen {};
    const bool same = fstat(probe, &seen) == 0 && seen.st_dev == old.st_dev &&
                      seen.st_ino == old.st_ino;
    close(probe);
    if (!same) return refuse("cannot write " + name_ + ": it changed while being opened");
    // A sticky folder (/tmp) adds two rules. fs.protected_regular: `>` (O_CREAT) may not open
    // another user's file there unless the folder's owner owns it, root included, so that
    // root's output never lands in a file someone else prepared. And only the file's owner,
    // the folder's owner or CAP_FOWNER may rename over it: for a file that is writable but
    // someone else's, `>` would rewrite it in place; we refuse, as for a folder that is not
    // writable (below), since rewriting in place leaves a partial file when the run fails.
    struct stat d {};
    const uid_t me = geteuid();
    if (old.st_uid != me && stat(dir.c_str(), &d) == 0 && (d.st_mode & S_ISVTX)) {
      const int level = old.st_uid != d.st_uid ? protection("protected_regular") : 0;
      if (level > 0 && ((d.st_mode & S_IWOTH) || (level >= 2 && (d.st_mode & S_IWGRP))))
        return refuse("cannot write " + name_ +
                      ": another user's file in a sticky folder (fs.protected_regular)");
      if (d.st_uid != me && !has_cap_fowner())
        return refuse("cannot write " + name_ +
                      ": another user's file in a sticky folder, which only its owner may "
                      "replace (the output is never rewritten in place)");
    }
  }
  // Same folder as the target, so that rename(2) is atomic and never crosses filesystems.
  std::string tmpl = dir + "/." + base_of(target) + ".tmp.XXXXXX";
  {
    FatalSignalsBlocked blocked;  // created and remembered as one step
    fd_ = mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd_ < 0) {
      // A writable file in a folder that is not: the shell's `>` truncates it and writes in
      // place. Refused instead (spooling and copying out at commit() would still leave a
      // partial file when the copy fails or the run is killed half-way, and readers would see
      // it while it is written): `-o - > FILE` is the in-place write, asked for by name.
      if (exists)
        return fail(Kind::io,
                    "cannot write " + name_ + ": no file can be made in its folder to replace "
                    "it (the output is never rewritten in place)", errno);
      return fail(Kind::io, "cannot create " + name_, errno);
    }
    temp_ = tmpl;
    slot_ = remember_temp(temp_);
  }
  own_fd_ = true;
  // mkstemp makes 0600, the caller's: keep the replaced file's mode, owner and group, or give
  // a new one 0666 & ~umask. Only root may give a file away, and others only a group they are
  // in: EPERM keeps what can be kept. The owner first: chown(2) clears the set-id bits.
  mode_t mode = old.st_mode & 07777;
  if (exists) {
    if (fchown(fd_, old.st_uid, old.st_gid) != 0) {
      if (errno != EPERM && errno != EINVAL)
        return fail(Kind::io, "cannot set the owner of " + temp_, errno);
      if (fchown(fd_, static_cast<uid_t>(-1), old.st_gid) != 0 && errno != EPERM && errno != EINVAL)
        return fail(Kind::io, "cannot set the group of " + temp_, errno);
    }
    struct stat now {};
    // Set-id bits stay only with the owner and group they were given for.
    if (fstat(fd_, &now) != 0 || now.st_uid != old.st_uid || now.st_gid != old.st_gid)
      mode &= ~static_cast<mode_t>(S_ISUID | S_ISGID);
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (fchmod(fd_, mode) != 0) return fail(Kind::io, "cannot set the mode of " + temp_, errno);
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
