// The one main() of every tool: names the tool for its messages, sets up signals, runs the
// body, maps every error type to its exit status (exit_status.h) and flushes standard output.
//   UsageError, program_options errors    "TOOL: MESSAGE" + "Try 'TOOL --help'."   2
//   Failure{status, message}              "TOOL: MESSAGE"                          status
//   ClosedPipe                            nothing                    the status raised so far
//   std::bad_alloc, other std::exception  "TOOL: out of memory" / "TOOL: internal error: ..."
//                                         the tool's failure status (2; 125 for pmclog-record)
// Standard output's last text is written after the body returns; a write error there is an
// error (2) even for --help and --version, a closed pipe is not.
#pragma once

#include <functional>
#include <string_view>

#include "diagnostics.h"
#include "exit_status.h"
#include "stdout_sink.h"
#include "tool_error.h"

namespace pmclog::tools {

struct ToolSpec {
  std::string_view name;            // "pmclog-dump"
  Exit failure = Exit::io;          // the tool's own failure (out of memory, internal error)
  // SIGINT/SIGTERM/SIGHUP remove the temporaries of OutputFile, then end the process by that
  // signal (temp_cleanup.h). pmclog-record handles them itself (a clean stop).
  bool cleanup_on_signals = true;
};

int run_main(const ToolSpec& spec, int argc, char** argv,
             const std::function<int(int, char**)>& body);

}  // namespace pmclog::tools
