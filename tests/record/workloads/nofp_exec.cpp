// Test workload for --call-graph dwarf across fork and exec, built without frame pointers.
// Usage: nofp_exec [SECONDS]: forks; the child burns SECONDS/4 (default 1) of CPU time on
//   main -> before_exec -> before_leaf, then execs this program again as
// nofp_exec after SECONDS: burns SECONDS of CPU time on
//   main -> after_a -> after_b -> after_c -> after_leaf
// The parent waits for the child. The program is a PIE: each exec loads it at its own address.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "nofp_work.h"

namespace {

volatile unsigned long g_sink = 0;

}  // namespace

extern "C" {

__attribute__((noinline)) void before_leaf(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 1442695040888963407ul);
}

__attribute__((noinline)) void after_leaf(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 3037000493ul);
}

// Each does something after its call, so that no call becomes a jump.
__attribute__((noinline)) void before_exec(unsigned long n) { before_leaf(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void after_c(unsigned long n) { after_leaf(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void after_b(unsigned long n) { after_c(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void after_a(unsigned long n) { after_b(n); g_sink = g_sink + 1; }

}  // extern "C"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "after") == 0) {
    const double until = nofp::cpu_seconds() + (argc > 2 ? std::atof(argv[2]) : 1.0);
    while (nofp::cpu_seconds() < until) after_a(1000000);
    return 0;
  }
  const char* seconds = argc > 1 ? argv[1] : "1";
  const pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    const double until = nofp::cpu_seconds() + std::atof(seconds) / 4;
    while (nofp::cpu_seconds() < until) before_exec(1000000);
    execl("/proc/self/exe", argv[0], "after", seconds, static_cast<char*>(nullptr));
    std::perror("execl");
    _exit(127);
  }
  int st = 0;
  if (waitpid(pid, &st, 0) != pid) return 2;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
