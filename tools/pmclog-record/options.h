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
  std::string kallsyms;            // --kallsyms FILE: a copy of /proc/kallsyms; empty: none
  std::vector<pid_t> pids;         // -p
  std::vector<pid_t> tids;         // -t: these threads of running processes only
  std::vector<int> cpus;           // -C: these CPUs only (implies -a); empty: all
  bool system_wide = false;        // -a
  double duration = 0;             // --duration (> 0 when given); 0: until the end
  pmclog::Abi abi;                 // --generation, --address-width, --byte-order
  uint32_t depth = 32;             // --depth
  bool depth_given = false;
  bool counting = false;           // --count
  bool per_process = false;        // --per-process (with --count)
  bool user_callchain = false;     // --user-callchain (modern generations)
  // --call-graph: user stacks by frame pointers (the kernel's walk), or unwound here from a
  // copy of each sample's stack (dwarf, stack_bytes of it) by the objects' CFI.
  enum class CallGraph : uint8_t { fp, dwarf } call_graph = CallGraph::fp;
  uint32_t stack_bytes = 8192;
  bool fallback = false;           // --fallback
  bool user_only = false;          // --user-only
  bool container = false;          // --container: a PMCL container first (format.md §18)
  bool list_events = false;        // --list-events
  size_t mmap_pages = 64;          // per CPU, power of two
  bool quiet = false;
  std::vector<std::string> command;
};

// Parses argv: the options end at "--" or at the first argument that is not an option or an
// option's value, where the command begins. Returns nullopt when --help or --version was
// printed; throws tools::UsageError (or a program_options error) for a usage error.
std::optional<Options> parse_options(int argc, char** argv);

inline constexpr const char* kDefaultOutput = "pmclog.out";

}  // namespace record
