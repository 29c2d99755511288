// What the workloads built without frame pointers share: the clocks they stop by, and the
// loop each leaf function spins in (inlined into each, so that every leaf is its own
// function with its own name in the stacks). Leaves of one program pass different salts:
// identical bodies would be folded into one function (-fipa-icf at -O2), the path lost.
#pragma once

#include <ctime>

namespace nofp {

inline double cpu_seconds(clockid_t clock = CLOCK_PROCESS_CPUTIME_ID) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

inline unsigned long spin(unsigned long acc, unsigned long n, unsigned long salt) {
  for (unsigned long i = 0; i < n; ++i) acc = acc * 2862933555777941757ul + salt + i;
  return acc;
}

}  // namespace nofp
