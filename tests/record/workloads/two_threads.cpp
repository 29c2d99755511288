// Test workload: two threads that burn CPU for SECONDS (default 5), the main one and a
// worker, so that a recorder attached to one thread can be told from one attached to both.
#include <cstdlib>
#include <ctime>
#include <thread>

namespace {

volatile unsigned long g_sink = 0;

double cpu_seconds_of_thread() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void spin(double seconds) {
  while (cpu_seconds_of_thread() < seconds)
    for (int i = 0; i < 100000; ++i) g_sink = g_sink + 1;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  std::thread worker(spin, seconds);
  spin(seconds);
  worker.join();
  return 0;
}
