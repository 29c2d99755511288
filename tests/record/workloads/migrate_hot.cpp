// Test workload: burns CPU while moving itself to the next allowed CPU every few
// milliseconds, so that its counts are split over every CPU's per-CPU event.
// Usage: migrate_hot [--fork] SECONDS. Prints "cpus N" (how many it moved across); with
// --fork a child does the work and the parent prints "child PID" and, after the wait,
// "child_cpu_ns N" (wait4); without, it prints its own "cpu_ns N" at exit.
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

extern "C" __attribute__((noinline)) unsigned long migrate_hot_function(unsigned long n) {
  volatile unsigned long acc = 3;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 6364136223846793005ul + 1;
  return acc;
}

namespace {

long long cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000ll + ts.tv_nsec;
}

// Returns the sink so that the work is not optimised away.
unsigned long burn(double seconds, const std::vector<int>& cpus) {
  const long long end = cpu_ns() + static_cast<long long>(seconds * 1e9);
  unsigned long sink = 0;
  size_t next = 0;
  while (cpu_ns() < end) {
    if (cpus.size() > 1) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpus[next++ % cpus.size()], &one);
      sched_setaffinity(0, sizeof one, &one);  // moves us there before it returns
    }
    sink += migrate_hot_function(500000);
  }
  return sink;
}

}  // namespace

int main(int argc, char** argv) {
  const bool fork_child = argc > 1 && std::strcmp(argv[1], "--fork") == 0;
  const double seconds = argc > 1 + fork_child ? std::atof(argv[1 + fork_child]) : 1.0;
  cpu_set_t allowed;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  std::printf("cpus %zu\n", cpus.size());
  std::fflush(stdout);
  if (!fork_child) {
    const unsigned long sink = burn(seconds, cpus);
    std::printf("cpu_ns %lld\n", cpu_ns());
    return sink == 42 ? 99 : 0;
  }
  pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) _exit(burn(seconds, cpus) == 42 ? 99 : 0);
  std::printf("child %d\n", pid);
  std::fflush(stdout);
  int st = 0;
  rusage ru{};
  wait4(pid, &st, 0, &ru);
  std::printf("child_cpu_ns %lld\n",
              (static_cast<long long>(ru.ru_utime.tv_sec) + ru.ru_stime.tv_sec) * 1000000000ll +
                  (static_cast<long long>(ru.ru_utime.tv_usec) + ru.ru_stime.tv_usec) * 1000ll);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
