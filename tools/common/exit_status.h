// What an exit status means, the same in every tool. --help prints its part of this table.
#pragma once

namespace pmclog::tools {

enum class Exit : int {
  ok = 0,
  bad_data = 1,  // the input is damaged or invalid (pmclog-validate: a problem was found)
  usage = 2,     // a bad option or value, found before any work
  io = 2,        // an input that cannot be read (missing, a folder), an output that failed
  // The report's gate (pmclog-report --diff --fail-if: a condition held): not 0, 1 or 2, so
  // that a CI script can tell "worse" from "broken".
  gate = 3,
  // pmclog-record's own statuses, as env(1) and timeout(1) have them, apart from the
  // command's status, which it passes through:
  tool_failed = 125,  // pmclog-record itself failed while the command ran
  cannot_run = 126,   // the command exists but cannot be executed
  not_found = 127,    // no such command
};

constexpr int code(Exit e) { return static_cast<int>(e); }

}  // namespace pmclog::tools
