// The reordering window: records wait here until they are the earliest of all by (key, file
// order), so that a modern log's per-CPU buffers are replayed in time order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pmcprofile/big_pages.h"
#include "pmclog/pmclog.h"

namespace pmcprofile {

// A record held in the window as a copy (stream readers reuse their buffer).
struct Held {
  pmclog::Kind kind = pmclog::Kind::unknown;
  std::array<uint64_t, pmclog::kScalarSlots> v{};
  std::string text;
  std::vector<uint64_t> pcs;
  uint64_t operator[](pmclog::Field f) const { return v[static_cast<size_t>(f)]; }
};

// A record waiting in the window. Most records are callchains: in a mapped log one waits as
// the few fields a sample needs and a view of its frames in the mapping (no copy); any other
// record waits as a copy in the pool (slot).
struct QueueItem {
  static constexpr uint32_t kInline = 0xFFFFFFFFu;
  uint64_t key, seq;
  uint64_t time;  // for --from/--to: the TSC, or legacy ns after the first record
  uint64_t offset;  // the record's, for a message about its sample (Sample::offset)
  const uint8_t* at;  // the record in a mapped log
  pmclog::AddrView pcs;  // kInline: the frames, in the mapping
  uint64_t hash;  // kInline: StackCache::hash(), while the record is in the cache
  uint32_t slot;
  uint32_t pid, tid, pmcid, cpuflags;  // kInline: the callchain's fields (tid: pid in legacy logs)
  bool before(const QueueItem& o) const { return key != o.key ? key < o.key : seq < o.seq; }
  bool in_view() const { return slot == kInline; }
};

// What follows a popped item in its run, for the caller to ask for early (null: none).
struct Ahead {
  static constexpr size_t kFar = 64, kNear = 32;  // measured: 24/12 left most misses, 160/80 no better
  const QueueItem* far = nullptr;
  const QueueItem* near = nullptr;
};

// Runs of records in file order whose keys never go down (a modern log's per-CPU buffers
// make a few), so that the earliest record is the earliest run front, and a heap for what
// fits no run when there are too many. The earliest (key, file order) of all comes out
// first, as from one heap over everything, at a fraction of the cost.
class ReorderWindow {
 public:
  static constexpr size_t kMaxRuns = 16;
  // `pool`: the copies' slots, kept from one log to the next (all free when given).
  explicit ReorderWindow(std::vector<Held>& pool);

  size_t size() const { return queued_; }
  // A slot of the pool to copy a record into, for push(); free() hands it back after pop().
  uint32_t take_slot();
  Held& held(uint32_t slot) { return pool_[slot]; }
  void free(uint32_t slot) { free_.push_back(slot); }

  // Adds an item after every one pushed before it in file order (its seq is set here).
  void push(QueueItem it);
  // Takes out the earliest item (the window must not be empty).
  QueueItem pop(Ahead& ahead);
  // The file offset of the oldest record waiting in a run (the heap holds copies), or `now`.
  uint64_t oldest_offset(uint64_t now) const;

 private:
  // A run's items live in fixed blocks from the window's free list: a run grows without
  // copying what it holds (a vector that doubled copied a 20,000-record log's items into
  // fresh pages again and again), and a block it has served goes back at once for any run.
  static constexpr size_t kBlock = 512;  // items: 44 KiB, from malloc's heap, not mmap
  struct Run {
    std::vector<QueueItem*> blocks;  // never empty while the run is in runs_
    size_t head = 0;  // in blocks.front()
    size_t tail = 0;  // items in blocks.back()
    const QueueItem& front() const { return blocks.front()[head]; }
    const QueueItem& back() const { return blocks.back()[tail - 1]; }
    size_t size() const { return (blocks.size() - 1) * kBlock + tail - head; }
    // The item `k` places after the front.
    const QueueItem* after_front(size_t k) const {
      const size_t i = head + k;
      return &blocks[i / kBlock][i % kBlock];
    }
  };
  QueueItem* take_block();
  void append(Run& run, const QueueItem& it);
  void to_heap(QueueItem it);
  void retire(size_t run);
  static bool later(const QueueItem& a, const QueueItem& b) { return b.before(a); }

  std::vector<Held>& pool_;
  std::vector<uint32_t> free_;
  std::vector<Run> runs_;
  // Every block, owned: the first few one by one (a small log holds little), then carved from
  // chunks of kChunk blocks on huge pages (a 20,000-record log held 430 pages of them).
  static constexpr size_t kChunk = 46;  // 2 MiB of items
  static constexpr size_t kSingles = 4;
  std::vector<std::unique_ptr<QueueItem[]>> singles_;
  std::vector<BigArray<QueueItem>> chunks_;
  size_t carved_ = 0;  // blocks taken from chunks_.back()
  std::vector<QueueItem*> free_blocks_;
  std::vector<QueueItem> heap_;
  size_t queued_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace pmcprofile
