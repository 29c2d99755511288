#include "line_reader.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tool_error.h"

namespace pmclog::write {

namespace {
constexpr size_t kChunk = size_t{1} << 20;  // one read; also the starting buffer

std::string size_text(size_t n) {
  if (n % (size_t{1} << 20) == 0) return fmt::format("{} MiB", n >> 20);
  if (n % 1024 == 0) return fmt::format("{} KiB", n >> 10);
  return fmt::format("{} bytes", n);
}
}  // namespace

LineReader::LineReader(ByteSource& src, std::string name, size_t max_line)
    : src_(src), name_(std::move(name)), max_(max_line), buf_(new char[kChunk + kJsonPadding]),
      size_(kChunk + kJsonPadding) {
  std::memset(buf_.get(), 0, kJsonPadding);  // after end_: what a line's padding reads
}

void LineReader::too_long() const {
  throw tools::Failure(tools::Exit::bad_data,
                  fmt::format("{}:{}: line longer than {}, the cap on one JSON line (a record's "
                              "JSON is under 1 MiB)",
                              name_, lineno_ + 1, size_text(max_)));
}

bool LineReader::fill() {
  if (eof_) return false;
  const size_t room = size_ - kJsonPadding - end_;
  if (room < kChunk / 4) {
    // Move the partial line to the front; grow only when it fills most of the buffer.
    if (pos_ > 0) {
      std::memmove(buf_.get(), buf_.get() + pos_, end_ - pos_);
      end_ -= pos_;
      scan_ -= pos_;
      pos_ = 0;
    }
    if (size_ - kJsonPadding - end_ < kChunk / 4) {
      // Enough for the cap plus one byte, which tells a line above it.
      const size_t limit = max_ + 1 + kChunk + kJsonPadding;
      const size_t n = std::min(std::max(size_ * 2, end_ + kChunk + kJsonPadding), limit);
      std::unique_ptr<char[]> grown(new char[n]);
      std::memcpy(grown.get(), buf_.get(), end_ + kJsonPadding);
      buf_ = std::move(grown);
      size_ = n;
    }
  }
  const size_t want = size_ - kJsonPadding - end_;
  auto r = src_.read(reinterpret_cast<uint8_t*>(buf_.get() + end_), want);
  if (!r.ok())
    throw tools::Failure(compressed_ ? tools::Exit::bad_data : tools::Exit::io,
                         "cannot read " + name_ + ": " + r.error().message);
  if (r.value() == 0) {
    eof_ = true;
    return false;
  }
  end_ += r.value();
  std::memset(buf_.get() + end_, 0, kJsonPadding);  // the padding of a line ending here
  return true;
}

std::string_view LineReader::head(size_t n) {
  while (end_ - pos_ < n && fill()) {
  }
  return {buf_.get() + pos_, std::min(n, end_ - pos_)};
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    if (const void* nl = std::memchr(buf_.get() + scan_, '\n', end_ - scan_)) {
      const size_t at = static_cast<size_t>(static_cast<const char*>(nl) - buf_.get());
      if (at - pos_ > max_) too_long();
      line = std::string_view(buf_.get() + pos_, at - pos_);
      pos_ = scan_ = at + 1;
      ++lineno_;
      return true;
    }
    scan_ = end_;
    if (end_ - pos_ > max_) too_long();
    if (!fill()) {
      if (pos_ == end_) return false;
      // The last line has no '\n': blank the padding so that stale bytes read as nothing.
      std::memset(buf_.get() + end_, ' ', kJsonPadding);
      line = std::string_view(buf_.get() + pos_, end_ - pos_);
      pos_ = scan_ = end_;
      ++lineno_;
      return true;
    }
  }
}

}  // namespace pmclog::write
