// The answer for the last key asked, for runs of samples that share it (one pmc, one
// process, one thread): the last answers first.
#pragma once

#include <cstdint>

namespace pmcprofile {

template <class V>
class RunCache {
 public:
  const V* find(uint32_t key) const { return valid_ && key == key_ ? &value_ : nullptr; }
  const V& set(uint32_t key, const V& v) {
    key_ = key;
    value_ = v;
    valid_ = true;
    return value_;
  }
  void clear() { valid_ = false; }

 private:
  uint32_t key_ = 0;
  bool valid_ = false;
  V value_{};
};

}  // namespace pmcprofile
