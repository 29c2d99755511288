// Lines of a ByteSource, read in large blocks, in time linear in the input: the search for a
// newline resumes where it stopped, so a long line is scanned once however many reads it
// takes. One line may not exceed a stated cap (memory stays within about twice the cap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "pmclog/json.h"
#include "pmclog/reader.h"

namespace pmclog::write {

// Far above any real line: the largest record (65532 bytes) is under 1 MB of JSON.
inline constexpr size_t kMaxJsonLine = size_t{16} << 20;

class LineReader {
 public:
  LineReader(ByteSource& src, std::string name, size_t max_line = kMaxJsonLine);

  // The next line, without its '\n'; false at the end. The view stays valid until the next
  // call and has pmclog::kJsonPadding readable bytes after it. Throws tools::Failure: exit 1
  // ("NAME:LINE: line longer than ...") above the cap or when compressed input is damaged,
  // exit 2 when reading the file fails.
  bool next(std::string_view& line);
  uint64_t line_number() const { return lineno_; }  // of the line last returned
  // Up to `n` bytes from the start of the input, before the first next() (for sniffing).
  std::string_view head(size_t n);
  // The input is decompressed: a read error is then damaged data (a truncated .gz), exit 1.
  void set_compressed(bool c) { compressed_ = c; }

 private:
  bool fill();  // reads once more after end_; false at the end of the input
  [[noreturn]] void too_long() const;

  ByteSource& src_;
  std::string name_;
  size_t max_;
  // [pos_, end_) unread; kJsonPadding spare bytes kept at the end. Not zero-filled: a short
  // input touches a page or two of the 1 MiB, where zeroing it all cost more than parsing.
  std::unique_ptr<char[]> buf_;
  size_t size_;
  size_t pos_ = 0, scan_ = 0, end_ = 0;  // scan_: no '\n' in [pos_, scan_)
  bool eof_ = false, compressed_ = false;
  uint64_t lineno_ = 0;
};

}  // namespace pmclog::write
