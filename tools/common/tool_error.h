// The errors a tool throws to end its run; run_main() (run_main.h) maps each to its exit
// status and message, so that no tool prints its own name or picks a status of its own.
#pragma once

#include <stdexcept>
#include <string>

#include "exit_status.h"
#include "output_error.h"

namespace pmclog::tools {

// A bad option or value, found before any work: printed with the "Try" line, status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The run cannot go on: the message is printed, the run ends with `status`.
struct Failure : std::runtime_error {
  Exit status;
  Failure(Exit s, const std::string& message) : std::runtime_error(message), status(s) {}
};

// The reader of standard output went away: the run ends quietly with diag().status().
struct ClosedPipe {};

// A failed output as an exception: a closed pipe ends the run quietly, anything else is an
// I/O failure (2) with the output's message.
inline void throw_if_failed(const OutputError& e) {
  if (e.kind == OutputError::Kind::closed_pipe) throw ClosedPipe{};
  if (e) throw Failure(Exit::io, e.message);
}

}  // namespace pmclog::tools
