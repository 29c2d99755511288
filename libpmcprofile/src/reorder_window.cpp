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

void RunItems::push_back(const QueueItem& it, std::vector<Block>& spare) {
  const size_t at = head_ + size_;
  if (at == blocks_.size() * kBlock) {
    if (spare.empty()) {
      blocks_.push_back(std::make_unique_for_overwrite<QueueItem[]>(kBlock));
    } else {
      blocks_.push_back(std::move(spare.back()));
      spare.pop_back();
    }
  }
  blocks_[at / kBlock][at % kBlock] = it;
  ++size_;
}

QueueItem RunItems::pop_front(std::vector<Block>& spare) {
  const QueueItem it = front();
  --size_;
  if (++head_ == kBlock || size_ == 0) {  // the first block is served, or the run is empty
    spare.push_back(std::move(blocks_.front()));
    blocks_.erase(blocks_.begin());
    head_ = 0;
  }
  return it;
}

void ReorderWindow::push(QueueItem it) {
  it.seq = seq_++;
  ++queued_;
  // Best fit: the run whose last key is the latest not after this one's.
  RunItems* best = nullptr;
  for (RunItems& run : runs_)
    if (run.back().key <= it.key && (best == nullptr || run.back().key > best->back().key))
      best = &run;
  if (best == nullptr) {
    if (runs_.size() >= kMaxRuns) {
      to_heap(it);
      return;
    }
    best = &runs_.emplace_back();
  }
  best->push_back(it, spare_);
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
  RunItems& run = runs_[best];
  const QueueItem it = run.pop_front(spare_);
  if (run.empty()) {
    if (best + 1 != runs_.size()) runs_[best] = std::move(runs_.back());
    runs_.pop_back();
    ahead = {};
    return it;
  }
  ahead.far = Ahead::kFar < run.size() ? &run[Ahead::kFar] : nullptr;
  ahead.near = Ahead::kNear < run.size() ? &run[Ahead::kNear] : nullptr;
  return it;
}

uint64_t ReorderWindow::oldest_offset(uint64_t now) const {
  uint64_t oldest = now;
  for (const RunItems& run : runs_) oldest = std::min(oldest, run.front().offset);
  return oldest;
}

}  // namespace pmcprofile
