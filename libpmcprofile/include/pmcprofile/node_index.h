// A profile's stack table index: (parent node, frame) -> node, open addressing with linear
// probing in one array. Every new stack's frames and every node of a -j merge are looked up
// here; std::unordered_map's allocation per entry and its pointer chasing were the top of a
// merge's profile.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pmcprofile/big_pages.h"

namespace pmcprofile {

class NodeIndex {
 public:
  // The node of `key`, or `fresh` stored for it (second: whether it was).
  std::pair<uint32_t, bool> try_emplace(uint64_t key, uint32_t fresh) {
    if ((size_ + 1) * 10 > slots_.size() * 7) grow(slots_.size() * 2);
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return {s.node, false};
      if (s.key == kEmpty) {
        s = {key, fresh};
        ++size_;
        return {fresh, true};
      }
    }
  }
  // Room for `n` keys without growing.
  void reserve(size_t n) {
    size_t cap = slots_.size();
    while (n * 10 > cap * 7) cap *= 2;
    if (cap != slots_.size()) grow(cap);
  }
  size_t size() const { return size_; }

 private:
  // No key is all ones: a parent of ~0 is a root's, whose frame is a context id.
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key = kEmpty;
    uint32_t node = 0;
  };
  size_t slot_of(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow(size_t cap) {
    std::vector<Slot, BigPages<Slot>> old(cap);
    old.swap(slots_);
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.key == kEmpty) continue;
      size_t i = slot_of(s.key);
      while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot, BigPages<Slot>> slots_ = std::vector<Slot, BigPages<Slot>>(16);
  size_t mask_ = 15;
  int shift_ = 60;  // 64 - log2(slots)
  size_t size_ = 0;
};

}  // namespace pmcprofile
