// Stacks cut at a recording's depth limit look whole: their outermost frames are gone, and a
// flame graph roots them at an inner function. No log says what its limit was
// (kern.hwpmc.callchaindepth, pmclog-record --depth), but cut stacks leave a mark: every
// deeper stack lands on the same frame count, the deepest in the log, at one of the usual
// limits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace pmcprofile {

struct DepthLimit {
  uint32_t frames = 0;   // the limit the stacks seem cut at
  uint64_t samples = 0;  // samples of exactly that many frames
  uint64_t of = 0;       // samples with frames, in all
};

// Samples counted by their number of frames, for one log.
class DepthCounts {
 public:
  void see(size_t frames) { ++counts_[frames < kTracked ? frames : kTracked]; }
  // The limit the deepest stacks were likely cut at, if they pile up at one.
  std::optional<DepthLimit> likely_limit() const;

 private:
  // Deeper than any limit (M10's is 512): counted together. A fixed table, as each sample
  // counts: a growing vector cost 18 instructions a sample (callgrind), this 5.
  static constexpr size_t kTracked = 1024;
  std::array<uint64_t, kTracked + 1> counts_{};
};

// What a reader of the report should know about a log with such a limit.
std::string depth_limit_note(const std::string& log_name, const DepthLimit& d);

}  // namespace pmcprofile
