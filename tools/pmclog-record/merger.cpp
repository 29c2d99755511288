#include "merger.h"

#include <algorithm>

namespace record {

void Merger::flush_before(uint64_t limit) {
  due_.clear();
  for (uint32_t i = 0; i < pending_.size(); ++i)
    if (pending_[i].time < limit) due_.push_back({pending_[i].time, i});
  // Indices rise with arrival, so (time, index) is the (time, arrival) order.
  std::sort(due_.begin(), due_.end(), [](const Due& a, const Due& b) {
    return a.time != b.time ? a.time < b.time : a.index < b.index;
  });
  for (const Due& d : due_) conv_.process(pending_[d.index]);
  if (due_.size() == pending_.size()) {
    pending_.clear();
    return;
  }
  std::erase_if(pending_, [limit](const PerfEvent& e) { return e.time < limit; });
}

}  // namespace record
