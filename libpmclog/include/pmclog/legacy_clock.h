// The time of legacy records, as one clock (docs/format.md §3.5). A legacy header keeps the
// seconds whole but the nanoseconds only modulo 2^28, so the stored value wraps up to three
// times a second (every 0.268 s). Fed every record's header in file order, the clock
// unwraps them: each record takes, of the times its header can stand for, the one nearest
// the previous record's. The report's time window, its sample times and pmclog-dump
// --stats' span all read legacy times through it.
#pragma once

#include <cstdint>

namespace pmclog {

inline constexpr uint32_t kLegacyNsecMask = 0x0FFFFFFFu;  // the writer's mask (format.md §3.2)
inline constexpr int64_t kLegacyNsecWrap = int64_t{kLegacyNsecMask} + 1;  // 268435456 ns

class LegacyClock {
 public:
  // The record's time in nanoseconds after the first record fed (negative before it).
  int64_t since_first(uint32_t sec, uint32_t nsec) {
    // Most records: the same second, later by less than half a wrap, so the same wrap. With
    // the headers as sec << 32 | nsec and nsec not less than before, that is a difference
    // below kHalfWrap (another second differs by 2^32 or more). Then the time is the wrap's
    // start plus nsec: one store, where four tests and a running sum were (unwrapping is
    // about a seventh of --stats on a legacy log, which validate does not unwrap).
    const uint64_t header = uint64_t{sec} << 32 | nsec;
    if (header - last_ < kHalfWrap && nsec >= static_cast<uint32_t>(last_)) [[likely]] {
      last_ = header;
      return wrap_start_ + nsec;
    }
    return since_first_slow(sec, nsec);
  }

  // The first record's time in nanoseconds since the epoch. Its wraps are known once the
  // log has gone on into another second; until then they are taken as 0 (the earliest).
  uint64_t first_ns() const { return static_cast<uint64_t>(first_); }
  bool started() const { return started_; }

 private:
  static constexpr uint32_t kHalfWrap = static_cast<uint32_t>(kLegacyNsecWrap / 2);
  int64_t since_first_slow(uint32_t sec, uint32_t nsec);

  bool started_ = false;
  bool wraps_known_ = false;  // whether the first second's wrap count is settled
  uint32_t first_sec_ = 0, first_nsec_ = 0;  // the first record's header
  // The previous record's header, sec << 32 | nsec. Before the first, a value that no
  // header passes the test above with (its nsec would be 2^32 - 1, and its difference 2^32).
  uint64_t last_ = UINT64_MAX;
  int64_t wraps_ = 0;            // the previous record's wraps in its second
  int64_t first_ = 0;            // the first record's time (ns since the epoch)
  int64_t wrap_start_ = 0;       // the previous record's time less its nsec, after first_
};

}  // namespace pmclog
