// Buffered standard output. A closed pipe (EPIPE) ends the program quietly; other write
// errors are I/O errors (exit 2).
#pragma once

#include <string>

namespace dump {

class Output {
 public:
  // The buffer the formatters append to; flushed when it grows past a threshold.
  std::string buf;
  void maybe_flush() {
    if (buf.size() >= kFlushAt) flush();
  }
  void flush();
  static Output& stdout_();

 private:
  static constexpr size_t kFlushAt = 1 << 16;
};

// Thrown by Output::flush when the reader of our output went away.
struct PipeClosed {};
// Thrown on other write errors; carries errno.
struct WriteFailed {
  int err;
};

}  // namespace dump
