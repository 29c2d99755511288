#include "reorder_window.h"

#include <algorithm>

namespace pmcprofile {

using pmclog::Field;

ReorderWindow::ReorderWindow(std::vector<Held>& pool) : pool_(pool) {
  for (uint32_t i = static_cast<uint32_t>(pool_.size()); i-- > 0;) free_.push_back(i);
}

uint32_t ReorderWindow::take_slot() {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  pool_.emplace_back();
  return static_cast<uint32_t>(pool_.size() - 1);
}

QueueItem* ReorderWindow::take_block() {
  if (!free_blocks_.empty()) {
    QueueItem* b = free_blocks_.back();
    free_blocks_.pop_back();
    return b;
  }
  // Not value-initialized: every item is written before it is read, and zeroing would touch
  // every page of a block that may stay half used.
  if (singles_.size() < kSingles) {
    singles_.push_back(std::make_unique_for_overwrite<QueueItem[]>(kBlock));
    return singles_.back().get();
  }
  if (chunks_.empty() || carved_ == kChunk) {
    chunks_.emplace_back(kChunk * kBlock);
    carved_ = 0;
  }
  return chunks_.back().data() + kBlock * carved_++;
}

void ReorderWindow::append(Run& run, const QueueItem& it) {
  if (run.blocks.empty() || run.tail == kBlock) {
    run.blocks.push_back(take_block());
    run.tail = 0;
  }
  run.blocks.back()[run.tail++] = it;
}

void ReorderWindow::push(QueueItem it) {
  it.seq = seq_++;
  ++queued_;
  // Best fit: the run whose last key is the latest not after this one's.
  Run* best = nullptr;
  for (Run& run : runs_)
    if (run.back().key <= it.key && (best == nullptr || run.back().key > best->back().key))
      best = &run;
  if (best == nullptr) {
    if (runs_.size() >= kMaxRuns) {
      to_heap(it);
      return;
    }
    best = &runs_.emplace_back();
  }
  append(*best, it);
}

// Heap items are copies, so that no old page has to stay for them.
void ReorderWindow::to_heap(QueueItem it) {
  if (it.in_view()) {
    it.slot = take_slot();
    Held& h = pool_[it.slot];
    h.kind = pmclog::Kind::callchain;
    h.v = {};  // a reused slot: nothing of its last record stays
    h.v[static_cast<size_t>(Field::pid)] = it.pid;
    h.v[static_cast<size_t>(Field::tid)] = it.tid;
    h.v[static_cast<size_t>(Field::pmcid)] = it.pmcid;
    h.v[static_cast<size_t>(Field::cpuflags)] = it.cpuflags;
    h.text.clear();
    h.pcs.resize(it.pcs.size());
    it.pcs.copy_to(h.pcs);
  }
  heap_.push_back(it);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

QueueItem ReorderWindow::pop(Ahead& ahead) {
  --queued_;
  size_t best = runs_.size();
  for (size_t i = 0; i < runs_.size(); ++i)
    if (best == runs_.size() || runs_[i].front().before(runs_[best].front())) best = i;
  if (!heap_.empty() && (best == runs_.size() || heap_.front().before(runs_[best].front()))) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const QueueItem it = heap_.back();
    heap_.pop_back();
    ahead = {};
    return it;
  }
  Run& run = runs_[best];
  const QueueItem it = run.front();
  if (run.size() == 1) {
    retire(best);
    ahead = {};
    return it;
  }
  if (++run.head == kBlock) {  // a block served: free for any run
    free_blocks_.push_back(run.blocks.front());
    run.blocks.erase(run.blocks.begin());
    run.head = 0;
  }
  const size_t left = run.size();
  ahead.far = Ahead::kFar < left ? run.after_front(Ahead::kFar) : nullptr;
  ahead.near = Ahead::kNear < left ? run.after_front(Ahead::kNear) : nullptr;
  return it;
}

// An emptied run's blocks go back to the free list.
void ReorderWindow::retire(size_t i) {
  Run& run = runs_[i];
  free_blocks_.insert(free_blocks_.end(), run.blocks.begin(), run.blocks.end());
  if (i + 1 != runs_.size()) runs_[i] = std::move(runs_.back());
  runs_.pop_back();
}

uint64_t ReorderWindow::oldest_offset(uint64_t now) const {
  uint64_t oldest = now;
  for (const Run& run : runs_) oldest = std::min(oldest, run.front().offset);
  return oldest;
}

}  // namespace pmcprofile
