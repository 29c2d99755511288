// Test workload: burns CPU in one known function. Usage: cpu_hot [SECONDS [EXIT_CODE]]
// Prints "hot 0xADDR" (the function's run-time address) and "at_base 0xADDR" (AT_BASE) at
// start, "cpu_ns N" at exit.
// "cpu_hot -n CALLS" does a fixed amount of work instead (for overhead comparisons).
#include <sys/auxv.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>

namespace {

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

// The hot function: nearly all samples must land here. noinline keeps it a real symbol.
extern "C" __attribute__((noinline)) unsigned long hot_function(unsigned long n) {
  volatile unsigned long acc = 1;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 2862933555777941757ul + 3037000493ul;
  return acc;
}

int main(int argc, char** argv) {
  if (argc > 2 && std::string_view(argv[1]) == "-n") {
    unsigned long sink = 0;
    for (long i = std::atol(argv[2]); i > 0; --i) sink += hot_function(1000000);
    return sink == 42 ? 99 : 0;
  }
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int code = argc > 2 ? std::atoi(argv[2]) : 0;
  std::printf("hot %p\n", reinterpret_cast<void*>(&hot_function));
  // Where the kernel put the run-time linker (AT_BASE), for checking PROCEXEC.
  std::printf("at_base 0x%lx\n", getauxval(AT_BASE));
  std::fflush(stdout);
  const double start = cpu_seconds();
  unsigned long sink = 0;
  while (cpu_seconds() - start < seconds) sink += hot_function(2000000);
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  std::printf("cpu_ns %lld\n", static_cast<long long>(ts.tv_sec) * 1000000000ll + ts.tv_nsec);
  return sink == 42 ? 99 : code;
}
