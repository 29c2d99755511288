// Shared-library workload: main -> call_lib (here) -> lib_hot (libreport_hot.so), for the
// CPU seconds given (default 1).
#include <cstdlib>
#include <ctime>

extern "C" unsigned long lib_hot(unsigned long n);

namespace {
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
}  // namespace

extern "C" __attribute__((noinline)) unsigned long call_lib(unsigned long n) {
  unsigned long r = lib_hot(n);
  asm volatile("" : "+r"(r));
  return r + 1;
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const double start = cpu_seconds();
  unsigned long sink = 0;
  while (cpu_seconds() - start < seconds) sink += call_lib(4000000);
  return sink == 42 ? 1 : 0;
}
