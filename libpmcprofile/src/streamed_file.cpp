#include "streamed_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <thread>

namespace pmcprofile {

std::shared_ptr<StreamedFile> StreamedFile::start(const std::string& path, size_t reserve) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  // NORESERVE: only the pages the text fills are ever backed.
  void* p = ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    ::close(fd);
    return nullptr;
  }
  std::shared_ptr<StreamedFile> f(new StreamedFile(static_cast<char*>(p), reserve));
  try {
    // The thread holds the object: a process that never waits for the text (or exits first)
    // leaves nothing dangling.
    std::thread([f, fd] { f->read_all(fd); }).detach();
  } catch (const std::system_error&) {
    ::close(fd);
    return nullptr;
  }
  return f;
}

StreamedFile::~StreamedFile() { ::munmap(data_, reserve_); }

void StreamedFile::read_all(int fd) {
  // A waiter is woken at this much new text: at every 4 KiB read() it would be woken a
  // thousand times for /proc/kallsyms, and each wake-up costs the reading thread too.
  constexpr size_t kWakeEvery = size_t{256} << 10;
  size_t size = 0;
  size_t woken_at = 0;
  uint64_t end = kEnded;
  for (;;) {
    if (size == reserve_) {
      end |= kOverflow;
      break;
    }
    const ssize_t n = ::read(fd, data_ + size, std::min(reserve_ - size, size_t{1} << 20));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the end, or an error: what was read is what there is
    size += static_cast<size_t>(n);
    state_.store(size, std::memory_order_release);
    if (size - woken_at >= kWakeEvery) {
      state_.notify_all();
      woken_at = size;
    }
  }
  ::close(fd);
  state_.store(size | end, std::memory_order_release);
  state_.notify_all();
}

StreamedFile::Progress StreamedFile::wait_past(size_t seen) const {
  uint64_t s = state_.load(std::memory_order_acquire);
  while ((s & kEnded) == 0 && (s & kSize) <= seen) {
    state_.wait(s, std::memory_order_acquire);
    s = state_.load(std::memory_order_acquire);
  }
  return {std::string_view(data_, s & kSize), (s & kEnded) != 0, (s & kOverflow) != 0};
}

}  // namespace pmcprofile
