// Benchmark workload: two threads (std::thread, so libstdc++'s and libc's thread start frames
// are in every stack) recurse 14 levels through two template families before one of three
// hot leaves, giving callchains of depth ~16-18 and a few thousand distinct stacks.
// Usage: bench_workload [CPU_SECONDS_PER_THREAD]
// Prints "work N" at the end: the iterations both threads did. A run always takes the same
// CPU seconds, so a profiler's cost shows as less work in them, not as more time.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>

namespace {

double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

__attribute__((noinline)) unsigned long leaf_mul(unsigned long x) {
  volatile unsigned long a = x;
  for (int i = 0; i < 20000; ++i) a = a * 6364136223846793005ul + 1;
  return a;
}
__attribute__((noinline)) unsigned long leaf_xor(unsigned long x) {
  volatile unsigned long a = x;
  for (int i = 0; i < 20000; ++i) a = a ^ (a << 13) ^ (a >> 7);
  return a;
}
__attribute__((noinline)) unsigned long leaf_add(unsigned long x) {
  volatile unsigned long a = x;
  for (int i = 0; i < 20000; ++i) a = a + static_cast<unsigned long>(i) * 3;
  return a;
}

template <int N> unsigned long left(unsigned long x);
template <int N> unsigned long right(unsigned long x);

template <int N>
__attribute__((noinline)) unsigned long left(unsigned long x) {
  unsigned long r;
  if constexpr (N == 0) {
    r = (x % 3 == 0) ? leaf_mul(x) : (x % 3 == 1) ? leaf_xor(x) : leaf_add(x);
  } else {
    r = ((x >> N) & 1) ? left<N - 1>(x) : right<N - 1>(x);
  }
  asm volatile("" : "+r"(r));
  return r + 1;
}

template <int N>
__attribute__((noinline)) unsigned long right(unsigned long x) {
  unsigned long r;
  if constexpr (N == 0) {
    r = leaf_add(x);
  } else {
    r = ((x >> (N + 1)) & 1) ? right<N - 1>(x) : left<N - 1>(x);
  }
  asm volatile("" : "+r"(r));
  return r + 2;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  std::vector<std::thread> threads;
  std::atomic<unsigned long> work{0};
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([seconds, t, &work] {
      const double start = thread_seconds();
      unsigned long x = 12345 + static_cast<unsigned long>(t), sink = 0, n = 0;
      while (thread_seconds() - start < seconds) {
        x = x * 2862933555777941757ul + 3037000493ul;
        sink += left<14>(x >> 20);
        ++n;
      }
      work += n;
      if (sink == 42) std::abort();
    });
  for (auto& th : threads) th.join();
  std::printf("work %lu\n", work.load());
  return 0;
}
