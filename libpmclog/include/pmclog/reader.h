// Iterating the records of a log: zero-copy over a memory span or a mapped file, or
// streaming from a file descriptor / pipe / decompressor through a bounded buffer.
//
// Memory: a span reader (over()) views bytes the caller owns, which must outlive the reader
// and every Record it gives; a stream reader owns its ByteSource and a buffer of at most
// `buffer` bytes. A Record views the reader's bytes: a stream reader's until the next call.
// Threads: a LogReader is used by one thread at a time; separate readers, even over the
// same bytes, may run in parallel. Errors: next() and for_each() return Step::error with an
// Error naming the record's byte offset; they never throw on bad data and never read outside
// the bytes. Stability: the 0.x API may change in a minor release (docs/library.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/decode.h"
#include "pmclog/detail/fast_decode.h"
#include "pmclog/detect.h"
#include "pmclog/error.h"
#include "pmclog/record.h"

namespace pmclog {

// A source of bytes for streaming. read() returns the number of bytes read, 0 at the end.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual Result<size_t> read(uint8_t* buf, size_t n) = 0;
};
// Reads a file descriptor (not closed by the source).
std::unique_ptr<ByteSource> fd_source(int fd);
// Reads a span (for tests of the streaming path).
std::unique_ptr<ByteSource> span_source(std::span<const uint8_t> data, size_t chunk = 4096);

// A read-only memory-mapped file (or the bytes of an empty one).
class MappedFile {
 public:
  static Result<MappedFile> open(const std::string& path);
  // Maps an open regular file (not closed here); `name` is for error messages.
  static Result<MappedFile> map_fd(int fd, const std::string& name);
  MappedFile(MappedFile&&) noexcept;
  MappedFile& operator=(MappedFile&&) noexcept;
  ~MappedFile();
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

struct SkippedRange {
  uint64_t from = 0;  // first skipped byte
  uint64_t to = 0;    // one past the last; the next plausible record starts here (or EOF)
};

class LogReader {
 public:
  // Zero-copy over bytes that outlive the reader.
  static LogReader over(std::span<const uint8_t> data, const Abi& abi);
  // Streaming: memory stays within `buffer` bytes (at least 128 KiB) whatever the log's size.
  static LogReader stream(std::unique_ptr<ByteSource> src, const Abi& abi,
                          size_t buffer = 1u << 20);

  LogReader(LogReader&&) noexcept;
  LogReader& operator=(LogReader&&) noexcept;
  ~LogReader();

  const Abi& abi() const;
  void set_abi(const Abi& abi);

  // The next record. Views in `r` stay valid until the next call to next()/resync() (for a
  // span reader: as long as the span). On Step::error the reader stays at the bad record;
  // call skip() (when the framing allows it, e.g. an unknown type) or resync() to go on,
  // or stop. Iteration can stop at any point and resume later with another next().
  Step next(Record& r, Error& err) { return next_(*impl_.get(), r, err); }

  // Calls f(record) for every record from here on, until f returns false (when it returns
  // bool), the end, or an error; returns Step::record, Step::end or Step::error accordingly,
  // and can be called again to go on (after skip() or resync() on an error). The fast way to
  // read a whole log: for a span reader the common records are decoded inline in this loop,
  // with no call per record. `f` sees the same records as a loop over next() would; the
  // record it gets is valid during the call, and `f` must not use this reader (but for
  // keep_from()).
  template <class F>
  Step for_each(F&& f, Error& err);

  // After an error: move past the bad record by its length when its framing is sound
  // (unknown type, bad body), returning true; false when the length cannot be trusted.
  bool skip();
  // After an error: scan forward for the next plausible record header. Returns the bytes
  // skipped ([from, to)); `to` is the end of the data when nothing plausible follows.
  SkippedRange resync();
  // After an error, the one way every tool's --keep-going goes on: skip() when the framing
  // allows it, else resync(). The bytes stepped over; an empty range at the end of the data.
  SkippedRange skip_or_resync();

  uint64_t offset() const;  // byte offset of the next record
  // Moves past n bytes that are no records (a PMCL container in front of the stream), so that
  // record offsets stay file offsets. Returns how many bytes there were to skip.
  uint64_t discard(uint64_t n);
  // For detection before the ABI is known: up to n bytes from the current offset (a stream
  // reader buffers them; nothing is consumed).
  std::span<const uint8_t> peek(size_t n);
  size_t buffer_capacity() const;  // bytes this reader may hold (streaming bound)

  // For a span reader over a read-only file mapping (MappedFile) only: give the pages behind
  // the read position back to the kernel as reading goes on, so that resident memory stays
  // flat whatever the file's size. Views of earlier records stay valid (their pages are read
  // in again from the file if touched). Must not be used on memory that is not such a mapping.
  void release_pages_behind(bool on);
  // With release_pages_behind(true): pages from this byte offset (a Record::offset) on stay;
  // pages behind min(read position, offset) may be given back. For a caller that still
  // reads records behind the position, such as a window of records waiting to be
  // replayed: it passes the offset of the oldest one still waiting, and again as that moves
  // on (the latest call counts; a lower offset than before is allowed, though pages already
  // given back stay so and are read again from the file if touched). The one call `f` of
  // for_each may make on this reader. Without a call every page behind the position may go.
  void keep_from(uint64_t offset);

  struct Impl;

 private:
  explicit LogReader(std::unique_ptr<Impl> impl);
  detail::Window* span_window();  // nullptr for a stream reader
  // The step for the ABI and the reader's mode (Impl::next), kept here so that next() is
  // one indirect call.
  Step (*next_)(Impl&, Record&, Error&) = nullptr;
  // Always inline: for_each's loop is large, and GCC 12 left this call (and the caller's
  // loop body with it) out of line once the body grew, a call per record.
  template <class F>
  [[gnu::always_inline]] static bool call(F& f, const Record& r) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, const Record&>>) {
      f(r);
      return true;
    } else {
      return static_cast<bool>(f(r));
    }
  }
  std::unique_ptr<Impl> impl_;
};

template <class F>
Step LogReader::for_each(F&& f, Error& err) {
  Record r;
  detail::Window* w = span_window();
  if (w == nullptr) {
    Step st;
    while ((st = next(r, err)) == Step::record)
      if (!call(f, r)) return Step::record;
    return st;
  }
  return detail::dispatch_abi(abi(), [&]<ByteOrder O, int Width, bool Legacy>() -> Step {
    detail::LocalWindow local(*w);  // f cannot touch the reader, so the position stays local
    for (;;) {
      if (!detail::fast_step<O, Width, Legacy>(local.get(), r)) [[unlikely]] {
        // Rare record kinds, damage and the end: the general decoder.
        const Step st = local.sync([&] { return next(r, err); });
        if (st != Step::record) return st;
      } else if (detail::release_due(local.get())) [[unlikely]] {
        local.sync([&] { detail::release_step(*w); return 0; });
      }
      if (!call(f, r)) return Step::record;
    }
  });
}

}  // namespace pmclog
