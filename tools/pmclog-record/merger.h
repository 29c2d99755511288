// Merges the per-CPU buffers by time. A record stamped before the moment a drain began is
// already in its buffer by then, so everything older than that moment can be written.
#pragma once

#include <cstdint>
#include <vector>

#include "perf_records.h"
#include "record_conversion.h"

namespace record {

class Merger {
 public:
  explicit Merger(Converter& c) : conv_(c) {}
  void add(PerfEvent&& e) { pending_.push_back(std::move(e)); }
  // Writes the events older than `limit` in (time, arrival) order; the rest wait, in arrival
  // order. Only the due events are sorted, and as 16-byte keys: a stable sort of every
  // pending PerfEvent (200 bytes, with vectors) at every drain was half the recorder's CPU.
  void flush_before(uint64_t limit);
  void flush_all() { flush_before(UINT64_MAX); }

 private:
  Converter& conv_;
  std::vector<PerfEvent> pending_;  // in arrival order
  struct Due {
    uint64_t time;
    uint32_t index;  // into pending_
  };
  std::vector<Due> due_;
};

}  // namespace record
