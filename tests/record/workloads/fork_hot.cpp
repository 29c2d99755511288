// Test workload: forks a child that burns CPU in its own function (no exec), and waits.
// Usage: fork_hot [SECONDS]. Prints "child PID", then after the wait the child's CPU time
// and page faults (from wait4) and its own: "child_cpu_ns N", "child_faults N", "cpu_ns N",
// "faults N".
#include <sys/resource.h>
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
long long ns(const timeval& a, const timeval& b) {
  return (static_cast<long long>(a.tv_sec) + b.tv_sec) * 1000000000ll +
         (static_cast<long long>(a.tv_usec) + b.tv_usec) * 1000ll;
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
  rusage child{};
  wait4(pid, &st, 0, &child);
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  std::printf("child_cpu_ns %lld\nchild_faults %ld\ncpu_ns %lld\nfaults %ld\n",
              ns(child.ru_utime, child.ru_stime), child.ru_minflt + child.ru_majflt,
              static_cast<long long>(ts.tv_sec) * 1000000000ll + ts.tv_nsec,
              self.ru_minflt + self.ru_majflt);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
