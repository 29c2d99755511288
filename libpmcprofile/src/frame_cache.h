// The frames of addresses already resolved since the address spaces last changed.
#pragma once

#include <cstdint>
#include <vector>

#include "pmcprofile/profile.h"

namespace pmcprofile {

// A new stack mostly repeats frames of the stacks before it (the same callers under another
// leaf): each such address was looked up in its process's mappings and its frame interned
// again, about a fifth of a small report's replay. A direct-mapped table remembers the last
// frame of each slot; a change to the address spaces (any record but a sample) forgets all.
class FrameCache {
 public:
  static constexpr FrameId kMiss = ~FrameId{0};

  FrameCache() : slots_(kSlots) {}

  FrameId find(uint32_t pid, uint64_t address, bool kernel, bool caller) const {
    const Slot& s = slots_[index(pid, address)];
    return s.address == address && s.pid == pid && s.tag == tag(kernel, caller) ? s.frame
                                                                                  : kMiss;
  }
  void put(uint32_t pid, uint64_t address, bool kernel, bool caller, FrameId frame) {
    slots_[index(pid, address)] = {address, pid, tag(kernel, caller), frame};
  }
  // Every cached frame is stale.
  void forget() {
    if (++gen_ == kGenerations) {  // wrapped: an old slot could look current again
      slots_.assign(kSlots, Slot{});
      gen_ = 1;
    }
  }

 private:
  static constexpr size_t kSlots = 8192;  // 192 KiB
  static constexpr uint32_t kGenerations = 1u << 30;
  struct Slot {
    uint64_t address = 0;
    uint32_t pid = 0;
    uint32_t tag = 0;  // generation << 2 | kernel << 1 | caller; generation 0: empty
    FrameId frame = 0;
  };
  static size_t index(uint32_t pid, uint64_t address) {
    const uint64_t h = (address ^ (uint64_t{pid} << 40)) * 0x9E3779B97F4A7C15ull;
    static_assert(kSlots == size_t{1} << 13);
    return static_cast<size_t>(h >> 51);  // the top 13 bits
  }
  uint32_t tag(bool kernel, bool caller) const {
    return gen_ << 2 | uint32_t{kernel} << 1 | uint32_t{caller};
  }

  std::vector<Slot> slots_;
  uint32_t gen_ = 1;
};

}  // namespace pmcprofile
