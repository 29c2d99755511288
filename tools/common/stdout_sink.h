// Standard output, buffered, with the error handling of OutputFile: a full disk or any other
// write error is an error value (run_main exits 2 with the message), and the reader going
// away (a closed pipe, `| head`) is not a failure: further text is dropped, the run may stop
// early (closed()), and it ends quietly with the status it had otherwise.
// Every tool prints to standard output only through this (never std::cout or printf), so
// that --help on /dev/full fails as a report on /dev/full does.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "output_error.h"

namespace pmclog::tools {

class StdoutSink {
 public:
  // Formatters may append here directly; maybe_flush() writes it out past a threshold.
  std::string buf;

  void write(std::string_view s) {
    if (!error_) buf.append(s);
    maybe_flush();
  }
  void maybe_flush() {
    if (buf.size() >= kFlushAt) (void)flush();  // the error sticks: seen at the end
  }
  // Writes the buffer out. The first error sticks; after it, text is dropped.
  OutputError flush();
  // The reader went away: nothing more will be read.
  bool closed() const { return error_.kind == OutputError::Kind::closed_pipe; }
  const OutputError& error() const { return error_; }
  // The same sink as a std::ostream, for code that prints with operator<<.
  std::ostream& stream();

 private:
  static constexpr size_t kFlushAt = 1 << 16;
  OutputError error_;
};

StdoutSink& standard_output();

}  // namespace pmclog::tools
