// Test workload for --call-graph dwarf in a threaded program built without frame pointers:
// two threads, each burning SECONDS (default 0.5) of its own CPU time on its own path.
//   thread one: run_one -> one_a -> one_b -> one_c -> one_leaf
//   thread two: run_two -> two_a -> two_b -> two_leaf
// Both started with pthread_create, so that their stacks begin at the thread's start
// routine under glibc's start_thread.
#include <pthread.h>

#include <cstdlib>

#include "nofp_work.h"

namespace {

volatile unsigned long g_sink = 0;
double g_seconds = 0.5;

}  // namespace

extern "C" {

__attribute__((noinline)) void one_leaf(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 3037000493ul);
}

__attribute__((noinline)) void two_leaf(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 1442695040888963407ul);
}

// Each does something after its call, so that no call becomes a jump.
__attribute__((noinline)) void one_c(unsigned long n) { one_leaf(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void one_b(unsigned long n) { one_c(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void one_a(unsigned long n) { one_b(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void two_b(unsigned long n) { two_leaf(n); g_sink = g_sink + 1; }
__attribute__((noinline)) void two_a(unsigned long n) { two_b(n); g_sink = g_sink + 1; }

void* run_one(void*) {
  while (nofp::cpu_seconds(CLOCK_THREAD_CPUTIME_ID) < g_seconds) one_a(1000000);
  return nullptr;
}

void* run_two(void*) {
  while (nofp::cpu_seconds(CLOCK_THREAD_CPUTIME_ID) < g_seconds) two_a(1000000);
  return nullptr;
}

}  // extern "C"

int main(int argc, char** argv) {
  if (argc > 1) g_seconds = std::atof(argv[1]);
  pthread_t one, two;
  if (pthread_create(&one, nullptr, run_one, nullptr) != 0) return 2;
  if (pthread_create(&two, nullptr, run_two, nullptr) != 0) return 2;
  pthread_join(one, nullptr);
  pthread_join(two, nullptr);
  return 0;
}
