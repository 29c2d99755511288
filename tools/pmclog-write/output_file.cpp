#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tool_error.h"

namespace pmclog::write {

namespace {

// The temporary file the signal handler must remove; only async-signal-safe calls touch it.
char g_temp_path[4096];
volatile sig_atomic_t g_have_temp = 0;

void set_signal_temp(const std::string& p) {
  g_have_temp = 0;
  if (p.size() >= sizeof g_temp_path) return;
  std::memcpy(g_temp_path, p.c_str(), p.size() + 1);
  g_have_temp = 1;
}

void on_signal(int sig) {
  if (g_have_temp) unlink(g_temp_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

[[noreturn]] void io_fail(const std::string& what) {
  throw ToolError(kExitUsageOrIo, what + ": " + std::strerror(errno));
}

void write_all(int fd, const uint8_t* p, size_t n, const std::string& name) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      io_fail("cannot write " + name);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

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

}  // namespace

void install_cleanup_signal_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe becomes an EPIPE write error (exit 2)
}

OutputFile::OutputFile(const std::string& path, bool spool_stdout) : path_(path) {
  if (path == "-") {
    to_stdout_ = true;
    spool_ = spool_stdout;
    if (!spool_) {
      fd_ = STDOUT_FILENO;
      return;
    }
    const char* tmpdir = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/pmclog-write.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    fd_ = mkstemp(buf.data());
    if (fd_ < 0) io_fail("cannot create a spool file in " + dir_of(tmpl));
    unlink(buf.data());  // anonymous from now on: nothing to clean up
    return;
  }
  // Same folder as the target, so that rename() is atomic and never crosses filesystems.
  std::string tmpl = dir_of(path) + "/." + base_of(path) + ".tmp.XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  fd_ = mkstemp(buf.data());
  if (fd_ < 0) io_fail("cannot create a file in " + dir_of(path));
  temp_ = buf.data();
  set_signal_temp(temp_);
  // mkstemp makes 0600; give the file the usual 0666 & ~umask.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd_, 0666 & ~mask);
}

OutputFile::~OutputFile() { abort(); }

void OutputFile::write(const uint8_t* p, size_t n) {
  write_all(fd_, p, n, to_stdout_ && !spool_ ? "standard output" : path_);
}

void OutputFile::commit() {
  if (done_) return;
  if (to_stdout_ && spool_) {
    if (lseek(fd_, 0, SEEK_SET) < 0) io_fail("cannot rewind the spool file");
    std::vector<uint8_t> buf(1 << 20);
    for (;;) {
      const ssize_t r = ::read(fd_, buf.data(), buf.size());
      if (r < 0) {
        if (errno == EINTR) continue;
        io_fail("cannot read the spool file");
      }
      if (r == 0) break;
      write_all(STDOUT_FILENO, buf.data(), static_cast<size_t>(r), "standard output");
    }
    close(fd_);
    fd_ = -1;
    done_ = true;
    return;
  }
  if (to_stdout_) {
    done_ = true;
    return;
  }
  if (close(fd_) != 0) {
    fd_ = -1;
    io_fail("cannot write " + path_);
  }
  fd_ = -1;
  if (rename(temp_.c_str(), path_.c_str()) != 0) io_fail("cannot rename the output to " + path_);
  g_have_temp = 0;
  done_ = true;
}

void OutputFile::abort() {
  if (done_) return;
  done_ = true;
  if (fd_ >= 0 && fd_ != STDOUT_FILENO) close(fd_);
  fd_ = -1;
  if (!temp_.empty()) {
    g_have_temp = 0;
    unlink(temp_.c_str());
  }
}

}  // namespace pmclog::write
