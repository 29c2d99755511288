// The write tool's failure: an exit code (1 bad input data, 2 usage or I/O) and one line for
// stderr. Thrown inside the tool only; main() turns it into the exit status.
#pragma once

#include <stdexcept>
#include <string>

namespace pmclog::write {

inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsageOrIo = 2;

struct ToolError : std::runtime_error {
  int exit_code;
  ToolError(int code, const std::string& msg) : std::runtime_error(msg), exit_code(code) {}
};

}  // namespace pmclog::write
