// The shared library of the nofp_shlib workload, built without frame pointers: a path
// inside the library, one that calls back into the program, and a function small enough
// that a loop calling it spends much of its time in the PLT stub and the callee's entry.
#include "nofp_lib.h"
#include "nofp_work.h"

extern "C" {

volatile unsigned long lib_sink = 0;

__attribute__((noinline)) void lib_leaf_work(unsigned long n) {
  lib_sink = nofp::spin(lib_sink, n, 1442695040888963407ul);
}

// Each does something after its call, so that no call becomes a jump.
__attribute__((noinline)) void lib_inner(unsigned long n) {
  lib_leaf_work(n);
  lib_sink = lib_sink + 1;
}

__attribute__((noinline)) void lib_outer(unsigned long n, void (*then)(unsigned long)) {
  lib_inner(n);
  then(n);
  lib_sink = lib_sink + 1;
}

unsigned long lib_tiny(unsigned long x) { return x * 3 + 1; }

}  // extern "C"
