// Test workload for --call-graph dwarf across a shared library, all built without frame
// pointers: burns CPU for SECONDS (default 1) on one of two paths.
// Usage: nofp_shlib [path|plt] [SECONDS]
//   path: main -> into_lib -> lib_outer (library, through the PLT) -> lib_inner
//         -> lib_leaf_work, then lib_outer -> back_in_exe -> exe_leaf_work
//   plt:  main -> plt_loop, which calls lib_tiny through the PLT millions of times
#include <cstdlib>
#include <cstring>

#include "nofp_lib.h"
#include "nofp_work.h"

namespace {

volatile unsigned long g_sink = 0;

}  // namespace

extern "C" {

__attribute__((noinline)) void exe_leaf_work(unsigned long n) {
  g_sink = nofp::spin(g_sink, n, 3037000493ul);
}

// Each does something after its call, so that no call becomes a jump.
__attribute__((noinline)) void back_in_exe(unsigned long n) {
  exe_leaf_work(n);
  g_sink = g_sink + 1;
}

__attribute__((noinline)) void into_lib(unsigned long n) {
  lib_outer(n, back_in_exe);
  g_sink = g_sink + 1;
}

__attribute__((noinline)) void plt_loop(unsigned long n) {
  unsigned long acc = g_sink;
  for (unsigned long i = 0; i < n; ++i) acc = lib_tiny(acc);
  g_sink = acc;
}

}  // extern "C"

int main(int argc, char** argv) {
  const bool plt = argc > 1 && std::strcmp(argv[1], "plt") == 0;
  const double until = nofp::cpu_seconds() + (argc > 2 ? std::atof(argv[2]) : 1.0);
  while (nofp::cpu_seconds() < until) {
    if (plt) plt_loop(10000000);
    else into_lib(1000000);
  }
  return 0;
}
