// The write tool's failure: an exit code (1 bad input data, 2 usage or I/O) and one line for
// stderr. Thrown inside the tool only; main() turns it into the exit status.
#pragma once

#include <stdexcept>
#include <string>

#include "output_error.h"

namespace pmclog::write {

inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsageOrIo = 2;

struct ToolError : std::runtime_error {
  int exit_code;
  ToolError(int code, const std::string& msg) : std::runtime_error(msg), exit_code(code) {}
};

// The reader of standard output went away: the run ends quietly, as in pmclog-dump.
struct ClosedPipe {};

// Output errors are I/O errors (exit 2), a same-file refusal included.
inline void throw_if_failed(const tools::OutputError& e) {
  if (e.kind == tools::OutputError::Kind::closed_pipe) throw ClosedPipe{};
  if (e) throw ToolError(kExitUsageOrIo, e.message);
}

}  // namespace pmclog::write
