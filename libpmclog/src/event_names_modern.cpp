// Event names of the modern era (M9/M10) for logs whose CPU has no pmu-events table match
// (format.md §12.1): the static tables keep TSC and the AMD K7/K8 events at their legacy codes
// and names (the golden stable/12 log names 0x1000 "TSC" and 0x2098 "BU_CPU_CLK_UNHALTED").
// 12.x replaced the Intel tables (IAF, IAP, P4/P5/P6) by pmu-events, so an IAF code such as
// 0x10000 has no static name in M9 or M10.
#include <algorithm>
#include <vector>

#include "pmclog/event_names.h"

namespace pmclog {

std::span<const EventBlock> modern_event_blocks() {
  static const auto blocks = [] {
    constexpr uint32_t kKept[] = {0x1000, 0x2000, 0x2080};  // TSC, K7, K8 block starts
    std::vector<EventBlock> v;
    for (const EventBlock& b : legacy_event_blocks()) {
      if (std::find(std::begin(kKept), std::end(kKept), b.first) != std::end(kKept))
        v.push_back(b);
    }
    return v;
  }();
  return blocks;
}

}  // namespace pmclog
