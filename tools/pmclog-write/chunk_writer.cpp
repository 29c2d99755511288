#include "chunk_writer.h"

#include <utility>

namespace pmclog::write {

ChunkWriter::ChunkWriter(Sink sink) : sink_(std::move(sink)) {}

ChunkWriter::~ChunkWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ChunkWriter::throw_if_failed_locked() {
  if (error_) std::rethrow_exception(error_);
}

void ChunkWriter::submit(std::vector<uint8_t>& bytes, bool raw, uint64_t records) {
  std::unique_lock lock(mu_);
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  cv_.wait(lock, [&] { return queue_.size() < kMaxQueued || error_; });
  throw_if_failed_locked();
  std::vector<uint8_t> next;
  if (!spare_.empty()) {
    next = std::move(spare_.back());
    spare_.pop_back();
  } else {
    next.reserve(bytes.capacity());
  }
  queue_.push_back({std::move(bytes), raw, records});
  bytes = std::move(next);
  bytes.clear();
  lock.unlock();
  cv_.notify_all();
}

void ChunkWriter::drain() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
  throw_if_failed_locked();
}

void ChunkWriter::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Chunk c = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    cv_.notify_all();  // room in the queue
    std::exception_ptr failed;
    try {
      sink_(c.bytes, c.raw, c.records);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    c.bytes.clear();
    spare_.push_back(std::move(c.bytes));
    if (failed) {
      error_ = failed;
      queue_.clear();  // nothing after a failed write may reach the output
    }
    cv_.notify_all();
    if (error_) {
      cv_.wait(lock, [&] { return stop_; });
      return;
    }
  }
}

}  // namespace pmclog::write
