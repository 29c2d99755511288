// Merges the per-CPU buffers by time. A record stamped before the moment a drain began is
// already in its buffer by then, so everything older than that moment can be written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perf_records.h"
#include "record_conversion.h"

namespace record {

class Merger {
 public:
  // Past `backlog_bytes` of events held (their user stacks mostly), flush_before() writes
  // every due event whatever its deadline: memory stays bounded when the conversion cannot
  // keep up, and the ring buffers overflow instead (the kernel counts what it drops).
  static constexpr size_t kBacklogBytes = size_t{256} << 20;

  explicit Merger(Converter& c, size_t backlog_bytes = kBacklogBytes)
      : conv_(c), backlog_cap_(backlog_bytes) {}
  void add(PerfEvent&& e) {
    bytes_ += held_bytes(e);
    pending_.push_back(std::move(e));
  }
  // Writes the events older than `limit` in (time, arrival) order; the rest wait, in arrival
  // order. Only the due events are sorted, and as 16-byte keys: a stable sort of every
  // pending PerfEvent (200 bytes, with vectors) at every drain was half the recorder's CPU.
  //
  // The writing stops at the first event done after the monotonic clock passes `deadline`
  // (at least one is written): unwinding a --call-graph dwarf sample costs microseconds,
  // up to about 12 ms for the first samples of a program whose CFI is not read yet,
  // and meanwhile the kernel fills the ring buffers and drops what does not fit. The due
  // events left wait in memory (behind() says so) while the caller drains the buffers.
  void flush_before(uint64_t limit, uint64_t deadline = UINT64_MAX);
  void flush_all() { flush_before(UINT64_MAX); }
  bool behind() const { return behind_; }  // the last flush left due events for want of time
  size_t held_bytes() const { return bytes_; }

 private:
  static size_t held_bytes(const PerfEvent& e) {
    return sizeof(PerfEvent) + e.user_stack.size() + 8 * (e.callchain.size() + e.user_regs.size());
  }
  Converter& conv_;
  const size_t backlog_cap_;
  std::vector<PerfEvent> pending_;  // in arrival order
  size_t bytes_ = 0;                // held_bytes() of pending_
  bool behind_ = false;
  struct Due {
    uint64_t time;
    uint32_t index;  // into pending_
  };
  std::vector<Due> due_;
  std::vector<uint8_t> written_;  // per pending_ index: written by this flush
};

}  // namespace record
