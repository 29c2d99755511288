// Test workload: a fixed-address (-no-pie) program with more than 8 MiB of text (far_pad.cpp)
// whose hot function lies beyond it. Usage: far_hot [SECONDS]
// Prints "hot 0xADDR" (the function's address) and "at_base 0xADDR" (AT_BASE) at start.
#include <sys/auxv.h>

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

extern "C" __attribute__((noinline)) unsigned long far_hot(unsigned long n) {
  volatile unsigned long acc = 1;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 2862933555777941757ul + 3037000493ul;
  return acc;
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
  std::printf("hot %p\n", reinterpret_cast<void*>(&far_hot));
  // Where the kernel put the run-time linker (AT_BASE), for checking PROCEXEC.
  std::printf("at_base 0x%lx\n", getauxval(AT_BASE));
  std::fflush(stdout);
  const double start = cpu_seconds();
  unsigned long sink = 0;
  while (cpu_seconds() - start < seconds) sink += far_hot(2000000);
  return sink == 42 ? 99 : 0;
}
