// Validating one log: the framing loop (next / skip / resync), the framing and type rules,
// and the Checker for everything else. The result of a file is what every output format
// prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config.h"
#include "diagnostics.h"
#include "pmclog/abi.h"
#include "pmclog/detect.h"
#include "pmclog/reader.h"

namespace pmclog::validate {

struct FileResult {
  std::string name;
  bool io_error = false;  // could not open or read: exit status 2
  std::string io_message;  // raw, as the library words it (may start with "NAME: ")
  std::optional<Abi> abi;  // set once the ABI is settled
  std::vector<std::string> abi_evidence;
  uint64_t records = 0;  // record positions checked (decoded or damaged)
  uint64_t bytes = 0;
  uint64_t errors = 0, warnings = 0, not_shown = 0;
  std::vector<Diagnostic> diagnostics;  // sorted by offset, at most Config::max_diagnostics
};

// Opens `name` ("-" for standard input; gzip/zstd transparently) and validates it.
FileResult validate_file(const std::string& name, const AbiHint& hint, const Config& cfg);

// Validates what `reader` yields, from its current offset to the end.
FileResult validate_reader(std::string name, LogReader& reader, const Config& cfg);

}  // namespace pmclog::validate
