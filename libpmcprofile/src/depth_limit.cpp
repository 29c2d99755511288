#include "depth_limit.h"

#include <algorithm>

namespace pmcprofile {

namespace {

// FreeBSD's defaults (8, then 128) and array sizes (32, 128, 512), perf's
// kernel.perf_event_max_stack (127), pmclog-record's defaults (32, 127), and the round
// numbers people set.
constexpr std::array<uint32_t, 8> kUsualLimits{8, 16, 32, 64, 127, 128, 256, 512};

// Fewer samples at the limit than this say too little either way.
constexpr uint64_t kFewest = 5;

}  // namespace

std::optional<DepthLimit> DepthCounts::likely_limit() const {
  size_t deepest = counts_.size();
  while (deepest > 1 && counts_[deepest - 1] == 0) --deepest;
  if (deepest < 2) return std::nullopt;
  const auto d = static_cast<uint32_t>(deepest - 1);
  if (std::find(kUsualLimits.begin(), kUsualLimits.end(), d) == kUsualLimits.end())
    return std::nullopt;
  // Cut stacks of every deeper size land on the limit; whole ones thin out toward their
  // deepest. Three sizes below, as recursion may favour every other one.
  const uint64_t at = counts_[d];
  uint64_t below = 0;
  for (uint32_t k = d - 1; k >= 1 && k + 3 >= d; --k) below = std::max(below, counts_[k]);
  if (at < kFewest || at < 2 * below) return std::nullopt;
  uint64_t of = 0;
  for (size_t k = 1; k < counts_.size(); ++k) of += counts_[k];
  return DepthLimit{d, at, of};
}

std::string depth_limit_note(const std::string& log_name, const DepthLimit& d) {
  const std::string n = std::to_string(d.frames);
  return log_name + ": " + std::to_string(d.samples) + " of " + std::to_string(d.of) +
         " samples have " + n + " frames, and none more: far fewer stop just short of " + n +
         ". " + n + " looks like the recording's depth limit, so these stacks are probably " +
         "cut, their outermost frames missing (flame graphs root them at an inner function, " +
         "and their callers' totals count too few); record deeper with " +
         "kern.hwpmc.callchaindepth or pmclog-record --depth";
}

}  // namespace pmcprofile
