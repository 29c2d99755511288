// The interface of the nofp_shlib workload's shared library (nofp_lib.cpp).
#pragma once

extern "C" {
// Runs lib_inner -> lib_leaf_work (in the library), then `then` (in the caller).
void lib_outer(unsigned long n, void (*then)(unsigned long));
unsigned long lib_tiny(unsigned long x);  // a few instructions
}
