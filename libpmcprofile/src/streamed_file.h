// A file read on a thread of its own into address space that never moves, so that another
// thread can parse the text that has arrived while the rest is still being read (and keep
// views into it). Made for /proc/kallsyms, which the kernel formats at about 4 KiB a read().
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace pmcprofile {

class StreamedFile {
 public:
  // Starts reading `path` into `reserve` bytes of address space (pages are used only as the
  // text fills them). nullptr when the file cannot be opened, the space cannot be reserved
  // or no thread can be started: the caller reads the file the plain way.
  static std::shared_ptr<StreamedFile> start(const std::string& path, size_t reserve);

  struct Progress {
    std::string_view text;  // everything read so far; stays valid while this object lives
    bool ended = false;     // the reading has stopped: end of file or a read error
    bool overflow = false;  // it stopped because the file is larger than the reservation
  };
  // The text read so far, once it is longer than `seen` bytes or the reading has ended.
  // The reader wakes a waiter every few hundred kilobytes, not at every read().
  Progress wait_past(size_t seen) const;

  ~StreamedFile();
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

 private:
  StreamedFile(char* data, size_t reserve) : data_(data), reserve_(reserve) {}
  void read_all(int fd);

  static constexpr uint64_t kEnded = uint64_t{1} << 63;
  static constexpr uint64_t kOverflow = uint64_t{1} << 62;
  static constexpr uint64_t kSize = kOverflow - 1;

  char* const data_;
  const size_t reserve_;
  std::atomic<uint64_t> state_{0};  // bytes read, with kEnded and kOverflow
};

}  // namespace pmcprofile
