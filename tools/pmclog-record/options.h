// Command-line options of pmclog-record.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmclog/abi.h"

namespace record {

struct Options {
  std::vector<std::string> events{"cpu-clock"};
  bool events_given = false;
  std::optional<uint64_t> period;  // -c
  uint64_t frequency = 1000;       // -F (a modest default: no loss on a busy 2-core VM)
  std::string output;              // -o; empty: default name
  std::vector<pid_t> pids;         // -p
  bool system_wide = false;        // -a
  double duration = 0;             // --duration; 0: until the command/processes end
  pmclog::Abi abi;                 // --generation, --address-width, --byte-order
  uint32_t depth = 32;             // --depth
  bool depth_given = false;
  bool counting = false;           // --count
  bool per_process = false;        // --per-process (with --count)
  bool user_callchain = false;     // --user-callchain (modern generations)
  bool fallback = false;           // --fallback
  bool user_only = false;          // --user-only
  bool container = false;          // --container: a PMCL container first (format.md §18)
  bool list_events = false;        // --list-events
  size_t mmap_pages = 64;          // per CPU, power of two
  bool quiet = false;
  std::vector<std::string> command;
};

// Parses argv. Returns nullopt and sets `exit_code` when the program should stop at once
// (--help, --version: 0; a usage error already reported on stderr: 2).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

inline constexpr const char* kDefaultOutput = "pmclog.out";

// Exit statuses of the tool's own failures, as env(1) and timeout(1) have them, so that they
// stay apart from the command's (passed through) and from usage errors (2, before anything
// runs).
inline constexpr int kExitFailed = 125;      // pmclog-record itself failed
inline constexpr int kExitCannotRun = 126;   // the command exists but cannot be executed
inline constexpr int kExitNotFound = 127;    // no such command

}  // namespace record
