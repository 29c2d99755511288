// One perf mmap ring buffer: 1 metadata page + 2^n data pages. Records are copied out
// (they can wrap across the end of the buffer) and data_tail is advanced after each drain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace record {

class RingBuffer {
 public:
  // Maps `data_pages` (a power of two) data pages of the perf fd. Returns false with errno.
  bool map(int fd, size_t data_pages);
  RingBuffer() = default;
  RingBuffer(RingBuffer&&) noexcept;
  RingBuffer& operator=(RingBuffer&&) = delete;
  RingBuffer(const RingBuffer&) = delete;
  ~RingBuffer();

  int fd() const { return fd_; }
  // Calls `fn` for each complete record (header included) now in the buffer, then releases
  // the space. Returns the number of records.
  size_t drain(const std::function<void(std::span<const uint8_t>)>& fn);

 private:
  int fd_ = -1;
  void* base_ = nullptr;
  size_t map_size_ = 0;
  size_t data_size_ = 0;
  std::vector<uint8_t> scratch_;  // a wrapped record, reassembled
};

}  // namespace record
