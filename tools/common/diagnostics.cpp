#include "diagnostics.h"

#include <unistd.h>

#include <cerrno>

#include "pmclog/text.h"
#include "stdout_sink.h"

namespace pmclog::tools {

namespace {

// stderr is unbuffered in spirit: one write(2) per message, so that messages of processes
// sharing a terminal do not interleave mid-line. A failing stderr has nowhere to be reported.
void write_stderr(const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(STDERR_FILENO, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

Diagnostics& diag() {
  static Diagnostics d;
  return d;
}

void Diagnostics::emit(std::string_view kind, std::string_view message) {
  (void)standard_output().flush();  // its error is reported when the run ends
  std::string s(tool_);
  s += ": ";
  s += kind;
  s += terminal_safe(message);
  s += '\n';
  write_stderr(s);
}

void Diagnostics::error(std::string_view message) { emit("", message); }

void Diagnostics::warning(std::string_view message) {
  ++warnings_;
  emit("warning: ", message);
}

void Diagnostics::note(std::string_view message) { emit("note: ", message); }

void Diagnostics::info(std::string_view message) { emit("", message); }

void Diagnostics::note_once(std::string_view message) {
  if (noted_.insert(std::string(message)).second) note(message);
}

int Diagnostics::usage(std::string_view message) {
  emit("", message);
  write_stderr("Try '" + tool_ + " --help'.\n");
  raise(Exit::usage);
  return code(Exit::usage);
}

void Diagnostics::line(std::string_view text) {
  (void)standard_output().flush();
  write_stderr(terminal_safe(text) + '\n');
}

void Diagnostics::raw(std::string_view text) { write_stderr(std::string(text)); }

void Diagnostics::raise(Exit status) {
  if (code(status) > status_) status_ = code(status);
}

}  // namespace pmclog::tools
