// Known call paths built without frame pointers (see CMakeLists.txt): outer -> middle ->
// leaf, where leaf captures the registers and a copy of the stack as a perf sample would;
// and a call through assembly that has no CFI.
#include "chain.h"

#include <algorithm>

extern "C" void unwind_capture(uint64_t* regs);
extern "C" void unwind_no_cfi(void* arg, void (*fn)(void*));

namespace unwind_chain {

// The stack from the captured SP up, byte by byte: it crosses other frames' redzones, which
// a sanitizer's memcpy would report.
__attribute__((noinline, no_sanitize("address", "undefined"))) void copy_stack(Captured& c) {
  const uint64_t sp = c.regs[7];
  c.size = static_cast<size_t>(std::min<uint64_t>(sizeof c.stack, c.stack_top - sp));
  const volatile uint8_t* from = reinterpret_cast<const volatile uint8_t*>(sp);
  for (size_t i = 0; i < c.size; ++i) c.stack[i] = from[i];
  // The word at SP was the return address into the capturing function; the calls since
  // reused its slot, so it comes from the capture (slot 9).
  for (size_t i = 0; i < 8 && i < c.size; ++i) c.stack[i] = static_cast<uint8_t>(c.regs[9] >> (8 * i));
  c.regs[9] = 0;
}

__attribute__((noinline)) void leaf(Captured& c) {
  unwind_capture(c.regs);
  copy_stack(c);
  asm volatile("" ::: "memory");
}

__attribute__((noinline)) void middle(Captured& c) {
  leaf(c);
  asm volatile("" ::: "memory");
}

__attribute__((noinline)) void outer(Captured& c) {
  middle(c);
  asm volatile("" ::: "memory");
}

namespace {
__attribute__((noinline)) void leaf_of_no_cfi(void* arg) {
  auto& c = *static_cast<Captured*>(arg);
  unwind_capture(c.regs);
  copy_stack(c);
  asm volatile("" ::: "memory");
}
}  // namespace

__attribute__((noinline)) void through_no_cfi(Captured& c) {
  unwind_no_cfi(&c, leaf_of_no_cfi);
  asm volatile("" ::: "memory");
}

}  // namespace unwind_chain
