#include "merger.h"

#include <algorithm>

#include "log_sink.h"

namespace record {

void Merger::flush_before(uint64_t limit, uint64_t deadline) {
  due_.clear();
  for (uint32_t i = 0; i < pending_.size(); ++i)
    if (pending_[i].time < limit) due_.push_back({pending_[i].time, i});
  // Indices rise with arrival, so (time, index) is the (time, arrival) order.
  std::sort(due_.begin(), due_.end(), [](const Due& a, const Due& b) {
    return a.time != b.time ? a.time < b.time : a.index < b.index;
  });
  if (bytes_ > backlog_cap_) deadline = UINT64_MAX;
  size_t done = 0;
  while (done < due_.size()) {
    const PerfEvent& e = pending_[due_[done].index];
    bytes_ -= held_bytes(e);
    conv_.process(e);
    ++done;
    if (deadline != UINT64_MAX && monotonic_ns() >= deadline) break;
  }
  behind_ = done < due_.size();
  if (done == pending_.size()) {
    pending_.clear();
    return;
  }
  // The written events leave; the others keep their arrival order.
  written_.assign(pending_.size(), 0);
  for (size_t k = 0; k < done; ++k) written_[due_[k].index] = 1;
  size_t out = 0;
  for (size_t i = 0; i < pending_.size(); ++i)
    if (!written_[i]) {
      if (out != i) pending_[out] = std::move(pending_[i]);
      ++out;
    }
  pending_.resize(out);
}

}  // namespace record
