// The shared library of the shared-library workload: the hot function lives here.
extern "C" __attribute__((noinline, visibility("default"))) unsigned long lib_hot(unsigned long n) {
  volatile unsigned long acc = 7;
  for (unsigned long i = 0; i < n; ++i) acc = acc * 6364136223846793005ul + 1442695040888963407ul;
  return acc;
}
