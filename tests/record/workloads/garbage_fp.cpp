// Test workload: spins with the frame pointer aimed at text, as code built without frame
// pointers leaves it, so that frame-pointer unwinding yields impossible return addresses:
// "BBBBBBBB" (non-canonical on x86-64) or "BBBBBB\0\0" (canonical, but mapped nowhere),
// alternately. Usage: garbage_fp [SECONDS]. Prints "unsupported" on other machines.
#include <cstdio>
#include <cstdlib>
#include <ctime>

#if defined(__x86_64__)
// rbp = frame for a plain counting loop: an unwinder reads frame[1] as the return address
// and frame[0] as the next frame.
asm(R"(
  .text
  .globl spin_with_frame
  .type spin_with_frame, @function
spin_with_frame:
  push %rbp
  mov %rdi, %rbp
1:
  dec %rsi
  jnz 1b
  pop %rbp
  ret
  .size spin_with_frame, .-spin_with_frame
)");
extern "C" void spin_with_frame(const void* frame, unsigned long n);

alignas(16) const char kTextFrame[17] = "AAAAAAAABBBBBBBB";
alignas(16) const char kLowFrame[16] = {'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
                                        'B', 'B', 'B', 'B', 'B', 'B', 0,   0};
#endif

int main(int argc, char** argv) {
#if defined(__x86_64__)
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  auto cpu = [] {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double start = cpu();
  for (int i = 0; cpu() - start < seconds; ++i)
    spin_with_frame(i % 2 ? kTextFrame : kLowFrame, 20000000);
  return 0;
#else
  (void)argc;
  (void)argv;
  std::puts("unsupported");
  return 0;
#endif
}
