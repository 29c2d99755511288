// Test workload: forks a child that burns CPU in its own function (no exec), and waits.
// Usage: fork_hot [SECONDS]. Prints "child PID".
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
}  // namespace

extern "C" __attribute__((noinline)) unsigned long child_hot_function(unsigned long n) {
  volatile unsigned long acc = 7;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 6364136223846793005ul + 1442695040888963407ul;
  return acc;
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    const double start = cpu_seconds();
    unsigned long sink = 0;
    while (cpu_seconds() - start < seconds) sink += child_hot_function(2000000);
    _exit(sink == 42 ? 99 : 0);
  }
  std::printf("child %d\n", pid);
  std::fflush(stdout);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
