#include "ring_buffer.h"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace record {

bool RingBuffer::map(int fd, size_t data_pages) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  map_size_ = (data_pages + 1) * page;
  void* p = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return false;
  base_ = p;
  fd_ = fd;
  data_size_ = data_pages * page;
  return true;
}

RingBuffer::RingBuffer(RingBuffer&& o) noexcept
    : fd_(o.fd_), base_(o.base_), map_size_(o.map_size_), data_size_(o.data_size_) {
  o.base_ = nullptr;
  o.fd_ = -1;
}

RingBuffer::~RingBuffer() {
  if (base_) munmap(base_, map_size_);
}

size_t RingBuffer::drain(const std::function<void(std::span<const uint8_t>)>& fn) {
  if (!base_) return 0;
  auto* meta = static_cast<perf_event_mmap_page*>(base_);
  const uint8_t* data = static_cast<const uint8_t*>(base_) + meta->data_offset;
  // data_head only grows; acquire so the record bytes are visible before we read them.
  const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  size_t n = 0;
  while (tail + sizeof(perf_event_header) <= head) {
    const size_t off = tail % data_size_;
    perf_event_header h;
    // The header itself may straddle the end of the buffer.
    for (size_t i = 0; i < sizeof(h); ++i)
      reinterpret_cast<uint8_t*>(&h)[i] = data[(off + i) % data_size_];
    if (h.size < sizeof(h) || tail + h.size > head) break;
    if (off + h.size <= data_size_) {
      fn({data + off, h.size});
    } else {
      const size_t first = data_size_ - off;
      scratch_.resize(h.size);
      std::memcpy(scratch_.data(), data + off, first);
      std::memcpy(scratch_.data() + first, data, h.size - first);
      fn({scratch_.data(), h.size});
    }
    tail += h.size;
    ++n;
  }
  // Release: the kernel may reuse the space only after we have read it.
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
  return n;
}

}  // namespace record
