#include "pmclog/legacy_clock.h"

namespace pmclog {

namespace {

constexpr int64_t kNsPerSec = 1000000000;

// How many wraps a stored value can have had: the true nanoseconds, stored + k * 2^28,
// stay below one second (a value the writer cannot have masked has none).
int64_t max_wraps(uint32_t nsec) {
  return nsec < kNsPerSec ? (kNsPerSec - 1 - int64_t{nsec}) / kLegacyNsecWrap : 0;
}

}  // namespace

int64_t LegacyClock::since_first_slow(uint32_t sec, uint32_t nsec) {
  const auto prev_sec = static_cast<uint32_t>(last_ >> 32);  // the previous record's header
  const auto prev_nsec = static_cast<uint32_t>(last_);
  const int64_t base = int64_t{sec} * kNsPerSec + nsec;  // the header as stored: no wrap
  if (!started_) {
    started_ = true;
    first_sec_ = sec;
    first_nsec_ = nsec;
    last_ = uint64_t{sec} << 32 | nsec;
    wraps_ = 0;
    first_ = base;
    wrap_start_ = -int64_t{nsec};
    return 0;
  }
  int64_t at = first_ + wrap_start_ + prev_nsec;  // the previous record's time
  if (!wraps_known_ && sec != prev_sec) {
    // The log leaves its first second, whose records were counted from 0 wraps. When the
    // record before can lie within half a wrap of that second's end and this one within half
    // a wrap of the next second's start, records are dense here: the one before had every
    // wrap its value allows, which settles the first second's count. A sparse log keeps 0.
    wraps_known_ = true;
    const int64_t latest = max_wraps(prev_nsec);
    const int64_t to_end = kNsPerSec - (int64_t{prev_nsec} + latest * kLegacyNsecWrap);
    if (prev_sec == first_sec_ && sec == prev_sec + 1 && to_end <= kHalfWrap && nsec < kHalfWrap) {
      int64_t shift = latest - wraps_;
      if (shift > max_wraps(first_nsec_)) shift = max_wraps(first_nsec_);
      if (shift > 0) {
        at += shift * kLegacyNsecWrap;
        first_ += shift * kLegacyNsecWrap;
        wraps_ += shift;
      }
    }
  }
  // The wrap count that puts this record nearest the previous one.
  const int64_t ahead = at - base;
  int64_t k = ahead <= 0 ? 0 : (ahead + kLegacyNsecWrap / 2) / kLegacyNsecWrap;
  if (k > max_wraps(nsec)) k = max_wraps(nsec);
  at = base + k * kLegacyNsecWrap;
  last_ = uint64_t{sec} << 32 | nsec;
  wraps_ = k;
  wrap_start_ = at - first_ - nsec;
  return at - first_;
}

}  // namespace pmclog
