// Test workload for --call-graph dwarf, built without frame pointers (as Debian builds its
// programs): burns CPU for SECONDS (default 1) in leaf_work, reached by one of three paths.
// Usage: nofp_paths [deep|callback|signal|recurse] [SECONDS]
//   deep:     main -> path_a -> path_b -> path_c -> path_d -> leaf_work
//   recurse:  main -> recurse (60 times) -> leaf_work: chains longer than 32 frames
//   callback: main -> through_qsort -> qsort (libc) -> ... -> compare -> leaf_work
//   signal:   a SIGALRM handler -> leaf_work, on top of main -> wait_for_signals
#include <signal.h>
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

#include "nofp_work.h"

namespace {

volatile unsigned long g_sink = 0;
double g_until = 0;

}  // namespace

extern "C" {

__attribute__((noinline)) void leaf_work(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 3037000493ul);
}

// Each calls the next and does something after it, so that no call becomes a jump.
__attribute__((noinline)) void path_d(unsigned long n) { leaf_work(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void path_c(unsigned long n) { path_d(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void path_b(unsigned long n) { path_c(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void path_a(unsigned long n) { path_b(n); g_sink = g_sink + 1; }

__attribute__((noinline)) void recurse(int depth, unsigned long n) {
  if (depth == 0) leaf_work(n);
  else recurse(depth - 1, n);
  g_sink = g_sink + 1;  // not a tail call
}

__attribute__((noinline)) int compare(const void* a, const void* b) {
  leaf_work(20000);
  return std::memcmp(a, b, sizeof(int));
}

__attribute__((noinline)) void through_qsort() {
  int v[64];
  for (int i = 0; i < 64; ++i) v[i] = (i * 37) % 64;
  std::qsort(v, 64, sizeof v[0], compare);
}

void on_alarm(int) {
  leaf_work(3000000);
  g_sink = g_sink + 1;  // not a tail call: the handler stays on the stack
  // Past the deadline, no more signals. Where the handler takes longer than the timer's
  // period (a slower CPU), one is always pending when it returns, and main, which looks at
  // the clock, would never run again.
  if (nofp::cpu_seconds() >= g_until) {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPROF, &ignore, nullptr);
  }
}

// Spins between the signals, and looks at the clock only now and then.
__attribute__((noinline)) void wait_for_signals() {
  while (nofp::cpu_seconds() < g_until)
    for (int i = 0; i < 1000000; ++i) g_sink = g_sink + 1;
}

}  // extern "C"

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "deep";
  g_until = nofp::cpu_seconds() + (argc > 2 ? std::atof(argv[2]) : 1.0);
  if (std::strcmp(mode, "callback") == 0) {
    while (nofp::cpu_seconds() < g_until) through_qsort();
  } else if (std::strcmp(mode, "signal") == 0) {
    struct sigaction sa {};
    sa.sa_handler = on_alarm;
    sigaction(SIGPROF, &sa, nullptr);
    itimerval t{{0, 2000}, {0, 2000}};  // every 2 ms of CPU time
    setitimer(ITIMER_PROF, &t, nullptr);
    wait_for_signals();
  } else if (std::strcmp(mode, "recurse") == 0) {
    while (nofp::cpu_seconds() < g_until) recurse(59, 1000000);
  } else {
    while (nofp::cpu_seconds() < g_until) path_a(1000000);
  }
  return 0;
}
