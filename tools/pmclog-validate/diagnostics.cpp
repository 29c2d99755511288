#include "diagnostics.h"

#include <algorithm>

namespace pmclog::validate {

namespace {
bool before(const Diagnostic& a, const Diagnostic& b) {
  return a.offset != b.offset ? a.offset < b.offset : a.seq < b.seq;
}
}  // namespace

void DiagnosticSink::add(Diagnostic d) {
  (d.severity == Severity::error ? errors_ : warnings_)++;
  d.seq = seq_++;
  if (limit_ == 0 || heap_.size() < limit_) {
    heap_.push_back(std::move(d));
    std::push_heap(heap_.begin(), heap_.end(), before);
    return;
  }
  ++dropped_;
  // Keep the lowest offsets: replace the current maximum when the new one sorts before it.
  if (before(d, heap_.front())) {
    std::pop_heap(heap_.begin(), heap_.end(), before);
    heap_.back() = std::move(d);
    std::push_heap(heap_.begin(), heap_.end(), before);
  }
}

std::vector<Diagnostic> DiagnosticSink::take_sorted() {
  std::vector<Diagnostic> out = std::move(heap_);
  heap_.clear();
  std::sort(out.begin(), out.end(), before);
  return out;
}

}  // namespace pmclog::validate
