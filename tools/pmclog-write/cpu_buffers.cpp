#include "cpu_buffers.h"

#include "pmclog/encode.h"
#include "pmclog/layout.h"
#include "record_stream.h"
#include "tool_error.h"

namespace pmclog::write {

CpuBuffers::CpuBuffers(RecordStream& stream, const Abi& abi, uint32_t cpus, size_t buffer_size)
    : stream_(stream), abi_(abi), per_cpu_(!abi.legacy()), size_(buffer_size) {
  if (per_cpu_) {
    bufs_.resize(cpus);
    for (auto& b : bufs_) b.reserve(size_ + 65536);
  }
  if (layout_for(abi, Kind::callchain)) callchain_.emplace(abi);
}

uint32_t CpuBuffers::emit_callchain(const RecordValue& r, uint32_t cpu) {
  std::vector<uint8_t>& to = per_cpu_ ? bufs_[cpu] : stream_.pending();
  return placed(to, callchain_->append(r, to));
}

uint32_t CpuBuffers::emit(const RecordValue& r, uint32_t cpu) {
  std::vector<uint8_t>& to = per_cpu_ ? bufs_[cpu] : stream_.pending();
  const auto len = encode(r, abi_, to);
  if (!len.ok()) throw tools::Failure(tools::Exit::io, "internal error: " + len.error().message);
  return placed(to, len.value());
}

// Bookkeeping after a record of `len` bytes was appended to `to`.
uint32_t CpuBuffers::placed(std::vector<uint8_t>& to, uint32_t len) {
  bytes_ += len;
  ++records_;
  if (per_cpu_ && to.size() > size_) {
    // The record does not fit: the full part goes to the writer, the record starts a fresh
    // buffer (a record never spans two buffers).
    stream_.hand_over(to, to.size() - len);
  }
  stream_.added();
  return len;
}

void CpuBuffers::despatch(uint32_t cpu) {
  if (!per_cpu_ || bufs_[cpu].empty()) return;
  stream_.hand_over(bufs_[cpu], bufs_[cpu].size());
}

void CpuBuffers::finish() {
  for (uint32_t c = 0; c < bufs_.size(); ++c) despatch(c);
  stream_.flush();
}

}  // namespace pmclog::write
