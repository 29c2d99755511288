// Report workload for --diff: spins for the CPU seconds given (argv[1], default 1), each
// round split between split::work_a and split::work_b, work_a taking the share argv[2]
// (0 to 1, default 0.5) of the round's iterations. Two runs with two shares move time from
// one function to the other by a known amount.
#include <cstdlib>
#include <ctime>

namespace split {

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The same loop in both, so that iterations are time alike.
__attribute__((noinline)) unsigned long work_a(unsigned long n) {
  volatile unsigned long acc = 1;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 2862933555777941757ul + 3037000493ul;
  return acc;
}

__attribute__((noinline)) unsigned long work_b(unsigned long n) {
  volatile unsigned long acc = 3;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 2862933555777941757ul + 3037000493ul;
  return acc;
}

}  // namespace split

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const double share = argc > 2 ? std::atof(argv[2]) : 0.5;
  constexpr unsigned long kRound = 2000000;
  const auto a = static_cast<unsigned long>(share * kRound);
  const double start = split::cpu_seconds();
  unsigned long sink = 0;
  while (split::cpu_seconds() - start < seconds) sink += split::work_a(a) + split::work_b(kRound - a);
  return sink == 42 ? 1 : 0;
}
