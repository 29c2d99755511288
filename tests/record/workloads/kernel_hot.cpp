// Test workload: spends its CPU time in the kernel, reading /dev/zero (the kernel clears
// the buffer), so that most samples are kernel-mode ones. Usage: kernel_hot [SECONDS]
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <vector>

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int fd = open("/dev/zero", O_RDONLY);
  if (fd < 0) return 2;
  std::vector<char> buf(1 << 20);
  timespec ts;
  auto cpu = [&] {
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double start = cpu();
  while (cpu() - start < seconds)
    if (read(fd, buf.data(), buf.size()) < 0) return 3;
  return 0;
}
