// Every message a tool prints on standard error, in one form:
//   TOOL: MESSAGE            an error
//   TOOL: warning: MESSAGE   the run goes on; the answer may not be what was asked
//   TOOL: note: MESSAGE      information (note_once: once per run, whatever the inputs)
//   TOOL: MESSAGE            then "Try 'TOOL --help'." for a usage error (exit 2)
// Messages are escaped (terminal_safe): they carry file names and log strings. Standard
// output's buffered text is written first, so that both streams keep their order when they
// go to one terminal or file.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "exit_status.h"

namespace pmclog::tools {

class Diagnostics {
 public:
  void set_tool(std::string_view tool) { tool_ = tool; }
  std::string_view tool() const { return tool_; }

  void error(std::string_view message);
  void warning(std::string_view message);
  void note(std::string_view message);
  void note_once(std::string_view message);
  // "TOOL: MESSAGE" that is no error: a summary of what the run did (pmclog-record's "wrote").
  void info(std::string_view message);
  // Prints the message and the "Try" line; returns the usage status (2).
  int usage(std::string_view message);
  // A line without the tool's name (a report section on standard error), still escaped.
  void line(std::string_view text);
  // Text as it is, with no newline added (a progress line's carriage returns): for text the
  // tool made itself, never for untrusted text.
  void raw(std::string_view text);

  // The status the run ends with if it must stop early (a closed pipe): the worst one seen.
  void raise(Exit status);
  int status() const { return status_; }
  unsigned warnings() const { return warnings_; }

 private:
  void emit(std::string_view kind, std::string_view message);

  std::string tool_ = "pmclog";
  std::set<std::string, std::less<>> noted_;
  int status_ = 0;
  unsigned warnings_ = 0;
};

// The process's diagnostics; run_main() names the tool.
Diagnostics& diag();

}  // namespace pmclog::tools
