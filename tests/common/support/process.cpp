#include "support/process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

extern char** environ;

namespace pmclog_test {

namespace {

// A descriptor above 0-2, close-on-exec, so that the child's dup2 onto 0-2 never clobbers
// another of its sources (the test process may itself run with a standard stream closed).
int high(int fd) {
  if (fd < 0 || fd > STDERR_FILENO) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  close(fd);
  return moved;
}

// argv[0] as execve needs it: a name without a slash is looked up in PATH, here in the
// parent, as the child may only make async-signal-safe calls.
std::string resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t at = 0; at <= dirs.size();) {
    size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > at ? dirs.substr(at, end - at) : ".";
    const std::string full = dir + "/" + name;
    struct stat st {};
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0)
      return full;
    at = end + 1;
  }
  return name;  // execve fails with ENOENT: 127, as in a shell
}

// The test's environment with the changes of RunOptions::env.
std::vector<std::string> environment(const std::vector<std::string>& changes) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  for (const std::string& c : changes) {
    const std::string name = c.substr(0, c.find('='));
    std::erase_if(env, [&](const std::string& e) {
      return e.compare(0, name.size(), name) == 0 && e.size() > name.size() && e[name.size()] == '=';
    });
    if (c.find('=') != std::string::npos) env.push_back(c);
  }
  return env;
}

std::vector<char*> pointers(const std::vector<std::string>& v) {
  std::vector<char*> p;
  for (const auto& s : v) p.push_back(const_cast<char*>(s.c_str()));
  p.push_back(nullptr);
  return p;
}

// A regular file holding `data`, already unlinked, read from its start.
int data_file(const std::string& data) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "pmclog-test-stdin.XXXXXX").string();
  const int fd = mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  unlink(tmpl.c_str());
  for (size_t done = 0; done < data.size();) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return -1;
    }
    done += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

// In the child: says what failed on its stderr (already the test's pipe) and exits.
[[noreturn]] void fail(const char* what, int status) {
  const char* tail = ": pmclog_test::run could not start the program\n";
  if (write(STDERR_FILENO, what, std::strlen(what)) < 0 ||
      write(STDERR_FILENO, tail, std::strlen(tail)) < 0) {
  }
  _exit(status);
}

// Feeds the child's stdin pipe (when `in_fd` >= 0) and reads its stdout and stderr pipes
// until all are done. Once the child is reaped, what it left running may hold them a little
// longer, not for ever.
void drain(int in_fd, const std::string* in_data, int out_fd, int err_fd, std::string& out,
           std::string& err, const std::atomic<bool>& reaped) {
  // A reader that goes away gives EPIPE here, not a SIGPIPE that would end the test: the
  // signal is sent to the writing thread, this one, which blocks it and then ends.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  size_t written = 0;
  struct Src {
    int fd;
    std::string* into;
  };
  std::vector<Src> srcs;
  if (out_fd >= 0) srcs.push_back({out_fd, &out});
  if (err_fd >= 0) srcs.push_back({err_fd, &err});
  std::chrono::steady_clock::time_point reaped_at{};
  while (!srcs.empty() || in_fd >= 0) {
    if (reaped && reaped_at == std::chrono::steady_clock::time_point{})
      reaped_at = std::chrono::steady_clock::now();
    if (reaped && std::chrono::steady_clock::now() - reaped_at > std::chrono::seconds(2)) {
      // Whatever is already in the pipes is kept, however late this thread got to it.
      for (const Src& s : srcs) {
        fcntl(s.fd, F_SETFL, O_NONBLOCK);
        char buf[65536];
        for (ssize_t n; (n = read(s.fd, buf, sizeof buf)) > 0;) s.into->append(buf, static_cast<size_t>(n));
      }
      break;
    }
    std::vector<pollfd> pfds;
    for (const Src& s : srcs) pfds.push_back({s.fd, POLLIN, 0});
    if (in_fd >= 0) pfds.push_back({in_fd, POLLOUT, 0});
    if (poll(pfds.data(), pfds.size(), 50) < 0 && errno != EINTR) break;
    if (in_fd >= 0) {
      if (pfds.back().revents != 0) {
        const ssize_t n = written < in_data->size()
                              ? write(in_fd, in_data->data() + written, in_data->size() - written)
                              : 0;
        if (n > 0) written += static_cast<size_t>(n);
        if (written == in_data->size() || (n < 0 && errno != EINTR && errno != EAGAIN)) {
          close(in_fd);  // all given, or the reader is gone: the child sees the end
          in_fd = -1;
        }
      }
      pfds.pop_back();  // the rest are the outputs, in the order of srcs
    }
    for (size_t i = pfds.size(); i-- > 0;) {
      if (pfds[i].revents == 0) continue;
      char buf[65536];
      const ssize_t n = read(srcs[i].fd, buf, sizeof buf);
      if (n > 0) {
        srcs[i].into->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(srcs[i].fd);
        srcs.erase(srcs.begin() + static_cast<long>(i));
      }
    }
  }
  for (const Src& s : srcs) close(s.fd);
  if (in_fd >= 0) close(in_fd);
}

}  // namespace

Ran run(const std::vector<std::string>& argv, const RunOptions& o,
        const std::function<void(pid_t)>& during) {
  Ran r;
  if (argv.empty()) {
    r.err = "pmclog_test::run: no program\n";
    return r;
  }
  // Everything the child needs is made here: after fork it may only make async-signal-safe
  // calls (the test may have other threads, a nested run among them).
  const std::string exe = resolve(argv[0]);
  std::vector<char*> args = pointers(argv);
  const std::vector<std::string> env_strings = environment(o.env);
  std::vector<char*> envp = pointers(env_strings);

  int in = -1, out = -1;  // the child's stdin and stdout, when the runner opens them
  int feed = -1;          // the write end of the stdin pipe
  auto opened = [&](int fd, const std::string& what) {
    if (fd < 0) r.err = "pmclog_test::run: cannot open " + what + ": " + std::strerror(errno) + "\n";
    return fd >= 0;
  };
  if (o.stdin_data && o.stdin_pipe) {
    int ip[2];
    if (pipe2(ip, O_CLOEXEC) != 0) {
      opened(-1, "a pipe for standard input");
      return r;
    }
    in = high(ip[0]);
    feed = high(ip[1]);
    fcntl(feed, F_SETFL, O_NONBLOCK);
  } else if (o.stdin_data) {
    if (!opened(in = high(data_file(*o.stdin_data)), "a file for standard input")) return r;
  } else if (!o.stdin_path.empty()) {
    if (!opened(in = high(open(o.stdin_path.c_str(), O_RDONLY | O_CLOEXEC)), o.stdin_path)) return r;
  } else if (o.stdin_fd < 0 && !o.stdin_closed) {
    if (!opened(in = high(open("/dev/null", O_RDONLY | O_CLOEXEC)), "/dev/null")) return r;
  }
  if (!o.stdout_path.empty()) {
    out = high(open(o.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!opened(out, o.stdout_path)) {
      if (in >= 0) close(in);
      return r;
    }
  }
  const bool capture_out = o.stdout_path.empty() && o.stdout_fd < 0;
  int op[2] = {-1, -1}, ep[2] = {-1, -1};
  if ((capture_out && pipe2(op, O_CLOEXEC) != 0) || pipe2(ep, O_CLOEXEC) != 0) {
    r.err = std::string("pmclog_test::run: pipe: ") + std::strerror(errno) + "\n";
    for (int fd : {in, feed, out, op[0], op[1]})
      if (fd >= 0) close(fd);
    return r;
  }
  for (int& fd : op) fd = high(fd);
  for (int& fd : ep) fd = high(fd);
  const int child_in = o.stdin_fd >= 0 ? o.stdin_fd : in;
  const int child_out = capture_out ? op[1] : o.stdout_fd >= 0 ? o.stdout_fd : out;
  const std::string what = argv[0];

  const pid_t pid = fork();
  if (pid == 0) {
    if (dup2(ep[1], STDERR_FILENO) < 0) _exit(125);
    if (o.stdin_closed) close(STDIN_FILENO);
    else if (dup2(child_in, STDIN_FILENO) < 0) fail("stdin", 125);
    if (dup2(child_out, STDOUT_FILENO) < 0) fail("stdout", 125);
    signal(SIGPIPE, SIG_DFL);
    if (o.file_size_limit != RLIM_INFINITY) {
      signal(SIGXFSZ, SIG_IGN);  // ignored across exec: EFBIG instead of a core dump
      const rlimit lim{o.file_size_limit, o.file_size_limit};
      if (setrlimit(RLIMIT_FSIZE, &lim) != 0) fail("setrlimit", 125);
    }
    if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) fail(o.cwd.c_str(), 125);
    if (o.uid >= 0) {
      const auto id = static_cast<uid_t>(o.uid);
      if (setgroups(0, nullptr) != 0 || setresgid(id, id, id) != 0 || setresuid(id, id, id) != 0)
        fail("setuid", 125);
    }
    execve(exe.c_str(), args.data(), envp.data());
    fail(what.c_str(), errno == ENOENT ? 127 : 126);  // a shell's statuses
  }
  for (int fd : {in, out, op[1], ep[1]})
    if (fd >= 0) close(fd);
  if (pid < 0) {
    for (int fd : {feed, op[0], ep[0]})
      if (fd >= 0) close(fd);
    r.err = std::string("pmclog_test::run: fork: ") + std::strerror(errno) + "\n";
    return r;
  }
  std::atomic<bool> reaped{false};
  std::thread reader(drain, feed, o.stdin_data ? &*o.stdin_data : nullptr, op[0], ep[0],
                     std::ref(r.out), std::ref(r.err), std::cref(reaped));
  if (during) during(pid);
  int st = 0;
  rusage ru{};
  while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
  }
  reaped = true;
  reader.join();
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  r.max_rss_kib = ru.ru_maxrss;
  return r;
}

RunOptions stdin_piped(std::string data) {
  RunOptions o;
  o.stdin_data = std::move(data);
  o.stdin_pipe = true;
  return o;
}

Ran bash(const std::string& script, const RunOptions& options) {
  return run({"bash", "-c", script}, options);
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = text.find_first_not_of(' ', at)) != std::string::npos) {
    const size_t end = std::min(text.find(' ', at), text.size());
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  q += '\'';
  return q;
}

bool has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

bool self_maps(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace pmclog_test
