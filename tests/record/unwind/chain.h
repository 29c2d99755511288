// The unwinder test's call path, compiled without frame pointers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace unwind_chain {

struct Captured {
  uint64_t regs[24] = {};    // perf's x86 register numbers
  uint64_t stack_top = 0;    // the end of the stack mapping (set by the caller)
  uint8_t stack[32768] = {};
  size_t size = 0;
};

void outer(Captured& c);
void middle(Captured& c);
void leaf(Captured& c);
// Calls a capturing function through assembly without CFI (capture.S's unwind_no_cfi).
void through_no_cfi(Captured& c);

}  // namespace unwind_chain
