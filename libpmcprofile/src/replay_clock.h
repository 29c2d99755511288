// A sample's time in seconds from the log's first record replayed.
#pragma once

#include <cstdint>

namespace pmcprofile {

struct ReplayClock {
  bool legacy = false;  // keys are ns (unwrapped in file order), not TSC ticks
  uint64_t tsc_freq = 0;  // INITIALIZE's (0: unknown, taken as ns)
  bool started = false;
  uint64_t start_key = 0;

  void start(uint64_t key) {
    if (started) return;
    started = true;
    start_key = key;
  }
  double seconds(uint64_t key) const {
    if (key < start_key) return 0;
    const double freq = legacy || tsc_freq == 0 ? 1e9 : static_cast<double>(tsc_freq);
    return static_cast<double>(key - start_key) / freq;
  }
};

}  // namespace pmcprofile
