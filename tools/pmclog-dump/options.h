// Command-line options of pmclog-dump (parsed with Boost.Program_options).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmclog/detect.h"
#include "pmclog/kind.h"

namespace dump {

enum class Format { text, pmcstat, jsonl, explain };

struct Selection {
  std::vector<pmclog::Kind> kinds;
  std::vector<int64_t> pids;
  std::vector<uint32_t> pmcids;
  std::vector<uint32_t> cpus;
  std::optional<uint64_t> from_offset;
  std::optional<uint64_t> to_offset;
  std::optional<uint64_t> head;
  std::string text;  // the selection options as given ("--pid 1 --type map_in"), for messages
  bool any() const {
    return !kinds.empty() || !pids.empty() || !pmcids.empty() || !cpus.empty() ||
           from_offset || to_offset;
  }
};

struct Options {
  std::vector<std::string> files;  // "-" is standard input
  Format format = Format::text;
  bool stats = false;
  bool stats_json = false;
  std::optional<uint64_t> top;  // --stats rows per table; 0 for all
  bool show_abi = false;
  bool keep_going = false;
  pmclog::AbiHint hint;
  Selection select;
  std::string sysroot, libpmc;  // where the pmu-events tables are (pmcprofile::load_libpmc)
};

// Returns the options, or nullopt after printing help or the version (exit 0). A bad option
// or value throws pmclog::tools::UsageError.
std::optional<Options> parse_options(int argc, char** argv);

}  // namespace dump
