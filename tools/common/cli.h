// The command-line language every tool shares: --help/-V, the ABI options, the help layout,
// and usage errors ("TOOL: MESSAGE", "Try 'TOOL --help'.", exit 2). A tool adds its own groups.
#pragma once

#include <boost/program_options.hpp>

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "exit_status.h"
#include "pmclog/detect.h"
#include "tool_error.h"

namespace pmclog::tools::cli {

namespace po = boost::program_options;

inline constexpr int kExitUsage = code(Exit::usage);

using tools::UsageError;

// The project version (CMake's PROJECT_VERSION).
const char* version();

// What --version prints for TOOL: "TOOL VERSION", then the log generations and forms the
// library reads and writes. One text for every tool.
std::string version_text(std::string_view tool);

// What --help prints besides the options: lines are printed as given.
struct HelpText {
  std::string_view tool;         // "pmclog-dump"
  std::string_view synopsis;     // "Usage: ..." lines
  std::string_view description;  // a paragraph or two
  std::string_view examples;     // one per mode, indented by two spaces
  std::string_view exit_status;  // one status per line, indented by two spaces
};

// -h/--help and -V/--version, the first group of every tool.
po::options_description general_options();

// Which ABI options a tool takes; the text says what happens when one is left out.
struct AbiOptionSet {
  bool generation = true, address_width = true, byte_order = true, time_width = true;
  bool address_slot = true;
  // The generations the tool takes, as --help lists them (a writer may refuse some).
  std::string_view generation_values =
      "L1 L2 L3 M9 M10, or M (M9 or M10 by the INITIALIZE version)";
  std::string_view generation_default = "detected from the log";
  std::string_view address_width_default = "detected from the log";
  std::string_view address_slot_default = "detected from the log";
  std::string_view byte_order_default = "detected from the log";
  std::string_view time_width_default = "detected from the log";
};

// The values as given; empty/0 when the option was left out.
struct AbiValues {
  std::string generation, byte_order;
  unsigned address_width = 0, time_width = 0;
  unsigned address_slot = 0;  // --address-slot (0: not given)
};

// --generation, --address-width 4|8, --address-slot 4|8, --byte-order little|big,
// --time-width 4|8 (no short
// names: -g, -w and -b mean other things in perf and are not worth a clash).
po::options_description abi_options(AbiValues& v, const AbiOptionSet& set = {});

// --libpmc FILE (and, with a sysroot, --sysroot DIR): the recording system's libpmc, whose
// pmu-events tables name EV_PMU events (pmcprofile::load_libpmc). The report has its own
// --sysroot (objects too), so it passes none.
po::options_description libpmc_options(std::string& libpmc, std::string* sysroot = nullptr);
// The paths those options name, checked before any work: a missing --libpmc or --sysroot, a
// folder given as --libpmc or a file as --sysroot is a UsageError naming the option and path.
// (load_libpmc alone would take a missing --sysroot for one without a libpmc.)
void check_libpmc_paths(const std::string& libpmc, const std::string* sysroot = nullptr);

// Checks the values and turns them into a hint; throws UsageError for a bad one.
// "M" (modern, M9 or M10 by the INITIALIZE version) sets `modern`.
AbiHint abi_hint(const AbiValues& v);

// Parses argv; program_options' own exceptions become UsageError. `positional` may be null.
po::variables_map parse(int argc, char** argv, const po::options_description& all,
                        const po::positional_options_description* positional = nullptr);

// If --help or --version was given, prints it and returns true (the tool exits 0).
bool print_help_or_version(const po::variables_map& vm, const HelpText& help,
                           const po::options_description& visible, std::ostream& out);
void print_help(const HelpText& help, const po::options_description& visible, std::ostream& out);

// No input named: standard input ("-"), as every tool reads it, unless it is a terminal,
// where waiting for a binary log would only look hung (a UsageError naming `what`).
void default_to_stdin(std::vector<std::string>& inputs, std::string_view what);

// "TOOL: MESSAGE" and "Try 'TOOL --help'." on stderr (diag().usage); returns kExitUsage.
int usage_error(std::string_view tool, std::string_view message);

// Runs `body`; a UsageError (or program_options error) thrown from it is reported as above
// and the result is kExitUsage. Anything else propagates.
template <class Body>
int catch_usage_errors(std::string_view tool, Body&& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    return usage_error(tool, e.what());
  } catch (const po::error& e) {
    return usage_error(tool, e.what());
  }
}

}  // namespace pmclog::tools::cli
