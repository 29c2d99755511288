// Event names of the modern era (M9/M10) for logs whose CPU has no pmu-events table match
// (FORMAT.md §8): TSC, AMD K7/K8 and Intel fixed-function events keep the legacy codes and
// names (the golden stable/12 log names 0x1000 "TSC" and 0x2098 "BU_CPU_CLK_UNHALTED").
#include "event_names.h"

#include <iterator>
#include <vector>

namespace dump {

std::span<const EventBlock> modern_event_blocks() {
  // The same blocks as legacy minus the Intel P4/P5/P6 ones, which 12.x dropped.
  static const auto blocks = [] {
    auto all = legacy_event_blocks();
    return std::vector<EventBlock>(all.begin(), all.begin() + 4);
  }();
  return blocks;
}

}  // namespace dump
