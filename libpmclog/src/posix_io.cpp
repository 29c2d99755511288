// The POSIX parts of reading: file descriptors and memory mappings.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pmclog/reader.h"

namespace pmclog {

namespace {

Error io_error(const std::string& what) {
  Error e;
  e.code = Errc::io;
  e.message = what + ": " + std::strerror(errno);
  return e;
}

class FdSource final : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    for (;;) {
      const ssize_t k = ::read(fd_, buf, n);
      if (k >= 0) return static_cast<size_t>(k);
      if (errno != EINTR) return io_error("read");
    }
  }

 private:
  int fd_;
};

}  // namespace

std::unique_ptr<ByteSource> fd_source(int fd) { return std::make_unique<FdSource>(fd); }

Result<MappedFile> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(path);
  auto m = map_fd(fd, path);
  ::close(fd);
  return m;
}

Result<MappedFile> MappedFile::map_fd(int fd, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(name);
  MappedFile m;
  if (st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) return io_error(name);
    ::madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
    m.data_ = static_cast<const uint8_t*>(p);
    m.size_ = static_cast<size_t>(st.st_size);
  }
  return m;
}

void release_mapped_pages(const uint8_t* from, const uint8_t* to) {
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t a = (reinterpret_cast<uintptr_t>(from) + page - 1) & ~(page - 1);
  const uintptr_t b = reinterpret_cast<uintptr_t>(to) & ~(page - 1);
  // Clean pages of a private read-only file mapping: dropped now, read again from the file
  // if touched later.
  if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

MappedFile::MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace pmclog
