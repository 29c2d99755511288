#include "launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace record {

bool Launcher::prepare(const std::string& path, const std::vector<std::string>& argv,
                       std::string& err) {
  int go[2], ex[2];
  if (pipe2(go, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
    err = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) {
    err = std::string("fork: ") + std::strerror(errno);
    return false;
  }
  if (pid_ == 0) {
    close(go[1]);
    close(ex[0]);
    // The command gets the signal dispositions it would get from a shell.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    char c;
    if (read(go[0], &c, 1) != 1) _exit(127);  // parent gave up
    execv(path.c_str(), args.data());
    int e = errno;
    ssize_t w = write(ex[1], &e, sizeof(e));
    (void)w;
    _exit(127);
  }
  close(go[0]);
  close(ex[1]);
  go_fd_ = go[1];
  err_fd_ = ex[0];
  return true;
}

bool Launcher::go(std::string& err, int& exec_errno) {
  exec_errno = 0;
  char c = 1;
  ssize_t w = write(go_fd_, &c, 1);
  close(go_fd_);
  go_fd_ = -1;
  if (w != 1) {
    err = std::string("cannot start the command: ") + std::strerror(errno);
    return false;
  }
  int e = 0;
  ssize_t n;
  do n = read(err_fd_, &e, sizeof(e));
  while (n < 0 && errno == EINTR);
  close(err_fd_);
  err_fd_ = -1;
  if (n == static_cast<ssize_t>(sizeof(e))) {
    exec_errno = e;
    err = std::string("cannot execute the command: ") + std::strerror(e);
    return false;
  }
  return true;
}

void Launcher::abort() {
  if (go_fd_ >= 0) close(go_fd_);
  if (err_fd_ >= 0) close(err_fd_);
  go_fd_ = err_fd_ = -1;
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

}  // namespace record
