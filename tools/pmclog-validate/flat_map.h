// A small open-addressing hash map keyed by a 32-bit id (pid, pmc id). The checker does one
// lookup per sample, so this avoids std::unordered_map's node allocations and pointer chasing.
// No erase: entries are reset in place by the caller, which keeps probing simple.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmclog::validate {

template <class V>
class FlatMap32 {
 public:
  FlatMap32() { slots_.resize(64); }

  // The value for `key`, or nullptr.
  V* find(uint32_t key) {
    for (size_t i = hash(key) & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }

  // The value for `key`, default-constructed if new. The pointer is valid until the next
  // insertion.
  V& operator[](uint32_t key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = hash(key) & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.key = key;
        s.value = V{};
        ++size_;
        return s.value;
      }
      if (s.key == key) return s.value;
    }
  }

  size_t size() const { return size_; }

  template <class F>
  void for_each(F&& f) {
    for (Slot& s : slots_) {
      if (s.used) f(s.key, s.value);
    }
  }

 private:
  struct Slot {
    uint32_t key = 0;
    bool used = false;
    V value{};
  };
  size_t mask() const { return slots_.size() - 1; }
  static size_t hash(uint32_t k) {
    return static_cast<size_t>((uint64_t{k} * 0x9E3779B97F4A7C15ull) >> 32);
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(old.size() * 2);
    size_ = 0;
    for (Slot& s : old) {
      if (s.used) (*this)[s.key] = std::move(s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace pmclog::validate
