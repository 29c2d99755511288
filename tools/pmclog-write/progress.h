// A one-line progress bar on stderr (bytes, records, rate, and a bar when the total is
// known). Shown only when stderr is a terminal and not --quiet, so pipes and logs stay clean.
#pragma once

#include <chrono>
#include <cstdint>

namespace pmclog::write {

class Progress {
 public:
  // total_bytes / total_records: 0 when unknown (then no bar, only counters).
  Progress(bool enabled, uint64_t total_bytes, uint64_t total_records);
  static bool stderr_is_terminal();
  // Cheap to call often: redraws at most ten times a second.
  void update(uint64_t bytes, uint64_t records);
  void finish(uint64_t bytes, uint64_t records);  // final line and newline
  bool enabled() const { return enabled_; }

 private:
  void draw(uint64_t bytes, uint64_t records, bool final);
  bool enabled_;
  uint64_t total_bytes_, total_records_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace pmclog::write
