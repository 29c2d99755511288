// Report workload: main -> hotspot::outer_caller -> hotspot::middle_caller ->
// hotspot::leaf_hot, which spins for the CPU seconds given (default 1). The leaf's loop body
// is an always-inline helper (hotspot::mix), for the --inline test.
#include <cstdlib>
#include <ctime>

namespace hotspot {

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

__attribute__((always_inline)) inline unsigned long mix(unsigned long acc, unsigned long i) {
  return acc * 2862933555777941757ul + 3037000493ul + (i >> 3);
}

__attribute__((noinline)) unsigned long leaf_hot(unsigned long n) {
  volatile unsigned long acc = 1;
  for (unsigned long i = 0; i < n; ++i) acc = mix(acc, i);
  return acc;
}

// The asm statements keep each call a real call with a frame (no tail call, no inlining).
__attribute__((noinline)) unsigned long middle_caller(unsigned long n) {
  unsigned long r = leaf_hot(n);
  asm volatile("" : "+r"(r));
  return r + 1;
}

__attribute__((noinline)) unsigned long outer_caller(unsigned long n) {
  unsigned long r = middle_caller(n);
  asm volatile("" : "+r"(r));
  return r + 2;
}

}  // namespace hotspot

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const double start = hotspot::cpu_seconds();
  unsigned long sink = 0;
  while (hotspot::cpu_seconds() - start < seconds) sink += hotspot::outer_caller(4000000);
  return sink == 42 ? 1 : 0;
}
