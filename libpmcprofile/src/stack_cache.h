// The stacks seen since the last change of address spaces or names, found by a hash of the
// raw stack: most samples repeat one, and a hit costs one hash instead of a mapping lookup
// and a frame lookup per frame.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pmcprofile/big_pages.h"
#include "pmcprofile/profile.h"

namespace pmcprofile {

// What a cached stack stands for besides its pcs: one profile node.
struct StackKey {
  uint32_t pid = 0;
  uint32_t tid = 0;  // 0 unless profiles keep threads
  uint32_t event = 0, comm = 0;
  bool user = false;
};

struct CachedStack {
  uint32_t id = 0;  // Sample::stack_id, within epoch()
  std::span<const FrameId> frames;
  std::span<const uint64_t> addresses;
};

class StackCache {
 public:
  static constexpr uint64_t kNoHash = 0;  // not computed yet (a hash is never 0)
  static constexpr size_t kMaxStacks = 1u << 16;  // full(): the owner invalidates

  // The frames and what is known of a sample before its replay (the event and command are
  // compared, not hashed: they depend on records replayed before it). `tid` as in StackKey.
  static uint64_t hash(uint32_t pid, uint32_t tid, bool user, const uint64_t* pcs, size_t n);

  StackCache();
  // Room for what a log of `log_bytes` can cache, up to a million frames (0: unknown, none).
  void reserve_for(uint64_t log_bytes);
  bool full() const { return count_ >= kMaxStacks; }
  // The stack, if cached; on a miss, add() may follow with the same arguments' stack.
  bool find(uint64_t hash, const StackKey& k, const uint64_t* pcs, size_t n, CachedStack& out);
  // Caches the stack find() just missed, with its resolved frames; returns its id.
  uint32_t add(const StackKey& k, const uint64_t* pcs, size_t n, std::span<const FrameId> frames,
               std::span<const uint64_t> addresses);
  // Address spaces or names changed: every entry goes, and ids restart in a new epoch.
  void invalidate();
  uint64_t epoch() const { return epoch_; }

  // For a stack a few samples ahead: its index slot, then (once that is in) its entry.
  void prefetch_slot(uint64_t hash) const {
    if (!index_.empty()) __builtin_prefetch(&index_[hash & (index_.size() - 1)]);
  }
  void prefetch(uint64_t hash, size_t n) const;

 private:
  // A cached stack in the arena: these words, then its pcs. Its frames' addresses are
  // nearly always its pcs, which are then not stored again (kAddressesArePcs); only a
  // stack that lost frames to a filter keeps its own in addresses_.
  static constexpr size_t kHeader = 6;  // pid|tid, event|comm, n|user, frames offset, kept|id, addresses offset
  static constexpr uint64_t kAddressesArePcs = ~uint64_t{0};
  struct Slot {
    uint64_t hash = 0;
    uint32_t off = 0;  // in arena_
    uint32_t gen = 0;  // an entry of an older generation is empty: invalidate() in one step
  };
  void grow();
  static constexpr uint64_t kMaxReserve = uint64_t{1} << 20;  // words and frame ids: 12 MiB

  size_t count_ = 0;
  std::vector<uint64_t, BigPages<uint64_t>> arena_;
  std::vector<FrameId, BigPages<FrameId>> frames_;
  std::vector<uint64_t> addresses_;  // of the stacks whose addresses are not their pcs
  std::vector<Slot, BigPages<Slot>> index_;  // open addressing by hash
  uint32_t gen_ = 1;
  size_t miss_at_ = 0;  // the free slot find() stopped at
  uint64_t miss_hash_ = 0;
  uint64_t epoch_;
};

}  // namespace pmcprofile
