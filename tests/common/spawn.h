// Running a tool as a subprocess without a shell: standard input and output where the test
// says, stderr read through a pipe (never a file: RLIMIT_FSIZE would cut it), the exit status
// or signal, wait4's peak memory, and a hook that runs in the parent while the child runs.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <string>
#include <vector>

#include "scratch.h"

namespace common_test {

struct Spawned {
  int status = -1;  // exit status, or 128 + signal
  int signal = 0;   // the signal that ended it, 0 when it exited
  long max_rss_kib = 0;
  std::string out, err;  // out: with SpawnOptions::capture_stdout
};

struct SpawnOptions {
  std::string stdin_path = "/dev/null";
  std::string stdout_path = "/dev/null";
  rlim_t file_size_limit = RLIM_INFINITY;  // RLIMIT_FSIZE: writes past it fail with EFBIG
  int stdin_fd = -1;                       // instead of stdin_path (a pipe's read end)
  int stdout_fd = -1;                      // instead of stdout_path (a pipe's write end)
  bool capture_stdout = false;             // into Spawned::out, instead of stdout_path
};

// Runs argv (argv[0] a path) with SIGPIPE at its default, as under a shell. The fds given in
// `o` are the child's: the parent closes them once it has forked. `during` gets the child's
// pid before stderr is read; it must not reap the child (waitid with WNOWAIT may look).
inline Spawned spawn(const std::vector<std::string>& argv, const SpawnOptions& o = {},
                     const std::function<void(pid_t)>& during = {}) {
  int ep[2];
  if (pipe(ep) != 0) return {};
  std::string capture = (fs::temp_directory_path() / "pmclog-spawn-out.XXXXXX").string();
  const int capture_fd = o.capture_stdout ? mkstemp(capture.data()) : -1;
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = o.stdin_fd >= 0 ? o.stdin_fd : ::open(o.stdin_path.c_str(), O_RDONLY);
    const int out = o.capture_stdout  ? capture_fd
                    : o.stdout_fd >= 0 ? o.stdout_fd
                                       : ::open(o.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(ep[1], STDERR_FILENO);
    close(ep[0]);
    signal(SIGPIPE, SIG_DFL);
    if (o.file_size_limit != RLIM_INFINITY) {
      signal(SIGXFSZ, SIG_IGN);  // ignored across exec: EFBIG instead of a core dump
      const rlimit lim{o.file_size_limit, o.file_size_limit};
      setrlimit(RLIMIT_FSIZE, &lim);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(ep[1]);
  if (o.stdin_fd >= 0) close(o.stdin_fd);
  if (o.stdout_fd >= 0) close(o.stdout_fd);
  if (during) during(pid);
  Spawned r;
  char buf[4096];
  for (ssize_t n; (n = read(ep[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    r.err.append(buf, static_cast<size_t>(n));
  }
  close(ep[0]);
  int st = 0;
  rusage ru{};
  while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  r.max_rss_kib = ru.ru_maxrss;
  if (o.capture_stdout) {
    close(capture_fd);
    r.out = slurp(capture);
    fs::remove(capture);
  }
  return r;
}

// True once the child has ended, without reaping it (for spawn's `during`).
inline bool has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

}  // namespace common_test
