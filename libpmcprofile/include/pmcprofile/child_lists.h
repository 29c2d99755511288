// Every node's children in one array, in id order (a counting sort of the nodes by parent),
// for walks down a tree stored as parent links: not a vector per node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pmcprofile {

class ChildLists {
 public:
  static constexpr uint32_t kNoParent = 0xFFFFFFFFu;
  // `parent_of(k)`: node k's parent, or kNoParent for a root; nodes 0 .. n - 1.
  template <class ParentOf>
  ChildLists(size_t n, ParentOf parent_of) : first_(n + 1, 0) {
    for (size_t k = 0; k < n; ++k)
      if (const uint32_t up = parent_of(k); up != kNoParent) ++first_[up + 1];
    for (size_t k = 0; k < n; ++k) first_[k + 1] += first_[k];
    kids_.resize(first_[n]);
    std::vector<uint32_t> fill(first_.begin(), first_.end() - 1);
    for (size_t k = 0; k < n; ++k)
      if (const uint32_t up = parent_of(k); up != kNoParent)
        kids_[fill[up]++] = static_cast<uint32_t>(k);
  }
  // Writable: a caller may sort a node's children in place.
  std::span<uint32_t> of(uint32_t k) {
    return {kids_.data() + first_[k], first_[k + 1] - first_[k]};
  }

 private:
  std::vector<uint32_t> first_, kids_;
};

}  // namespace pmcprofile
