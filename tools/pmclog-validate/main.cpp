// pmclog-validate: checks hwpmc logs for CI. Options, then one validation per file, then the
// chosen output format. Exit status: 0 valid, 1 errors (or warnings with --strict),
// 2 usage or I/O errors.
#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "config.h"
#include "output_file.h"
#include "pmclog/abi.h"
#include "pmclog/detect.h"
#include "pmclog/text.h"
#include "report.h"
#include "rules.h"
#include "same_file.h"
#include "scan.h"
#include "temp_cleanup.h"

namespace po = boost::program_options;
using namespace pmclog;
using namespace pmclog::validate;

namespace {

constexpr int kExitUsage = 2;

struct UsageError {
  std::string message;
};

const char* kUsage = R"(Usage: pmclog-validate [options] FILE...

Checks FreeBSD hwpmc(4) logs (every generation, 32/64-bit, either byte order; gzip and zstd
are read transparently; '-' is standard input) and reports every problem it finds, one line
each, sorted by offset:

  FILE:0xOFFSET (DECIMAL): error|warning: MESSAGE [rule-id]

then a one-line summary. It resynchronizes after damage, so independent problems each get
their own line.

Exit status: 0 every file valid; 1 any error (or any warning with --strict);
2 usage or I/O errors.

Examples:
  pmclog-validate cpu.pmclog                  check one log
  pmclog-validate --strict --format=github *.pmclog
  pmclog-validate --format=junit -o report.xml logs/*.pmclog.zst
  pmclog-validate --pedantic --max-cpu 63 -   check a pipe, stale bytes and CPUs too
  pmclog-validate --list-rules                every rule, its severity and why

Options)";

std::vector<std::string> split_list(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      const size_t comma = item.find(',', start);
      const std::string part =
          item.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!part.empty()) out.push_back(part);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

// A rule id, a category name, or "all".
void apply_rules(Config& cfg, const std::vector<std::string>& names, bool on) {
  for (const std::string& n : split_list(names)) {
    if (auto r = parse_rule(n)) {
      cfg.set(*r, on);
      continue;
    }
    bool matched = false;
    for (const RuleInfo& r : rules()) {
      if (n == "all" || category_name(r.category) == n) {
        cfg.set(r.rule, on);
        matched = true;
      }
    }
    if (!matched) {
      throw UsageError{fmt::format("unknown rule '{}' (see --list-rules)", n)};
    }
  }
}

AbiHint make_hint(const po::variables_map& vm) {
  AbiHint hint;
  if (vm.count("generation")) {
    const std::string g = vm["generation"].as<std::string>();
    if (g == "M" || g == "m") {
      hint.modern = true;
    } else if (auto gen = parse_generation(g)) {
      hint.generation = *gen;
    } else {
      throw UsageError{fmt::format("--generation: '{}' is not L1, L2, L3, M, M9 or M10", g)};
    }
  }
  if (vm.count("address-width")) {
    const unsigned w = vm["address-width"].as<unsigned>();
    if (w != 4 && w != 8 && w != 32 && w != 64)
      throw UsageError{"--address-width: give 4 or 8 (bytes), or 32 or 64 (bits)"};
    hint.address_width = static_cast<uint8_t>(w > 8 ? w / 8 : w);
  }
  if (vm.count("byte-order")) {
    const std::string o = vm["byte-order"].as<std::string>();
    auto bo = parse_byte_order(o);
    if (!bo) throw UsageError{fmt::format("--byte-order: '{}' is not little or big", o)};
    hint.byte_order = *bo;
  }
  if (vm.count("time-width")) {
    const unsigned w = vm["time-width"].as<unsigned>();
    if (w != 4 && w != 8) throw UsageError{"--time-width: give 4 or 8 (bytes)"};
    hint.time_width = static_cast<uint8_t>(w);
  }
  return hint;
}

// Standard output through the shared output component, so that a write error is seen (a full
// disk, /dev/full). The reader going away (a closed pipe) is not a failure: `status` stands.
int write_stdout(const std::string& s, int status) {
  const tools::OutputError e = tools::write_whole_file("-", s);
  if (e.kind == tools::OutputError::Kind::closed_pipe) return status;
  if (e) {
    std::cerr << "pmclog-validate: " << terminal_safe(e.message) << '\n';
    return kExitUsage;
  }
  return status;
}

int run(int argc, char** argv) {
  po::options_description opts("Options");
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("version", "show the version")
    ("list-rules", "list every rule: id, severity, category, default, description and why "
                   "that severity (as JSON with --format=json)")
    ("format,f", po::value<std::string>()->default_value("text"),
     "text | json | github | junit")
    ("output,o", po::value<std::string>(),
     "write the report to this file (a regular file is written to a temporary name, then "
     "renamed; a device or FIFO is written through; one of the logs is refused)")
    ("disable", po::value<std::vector<std::string>>()->composing(),
     "turn off rules: ids, categories (framing, types, contents, structure) or 'all'; "
     "repeatable, comma-separated; wins over --enable")
    ("enable", po::value<std::vector<std::string>>()->composing(),
     "turn on rules (e.g. a pedantic one), same forms as --disable")
    ("pedantic", "also report nonzero stale bytes and other pedantic rules")
    ("strict", "warnings make the exit status 1 too")
    ("max-cpu", po::value<uint32_t>(), "highest CPU number of the producing machine; "
                                       "enables cpu-out-of-range")
    ("max-errors", po::value<uint64_t>()->default_value(1000),
     "print at most N diagnostics per file, those with the lowest offsets (0: all); the "
     "summary counts every one")
    ("quiet,q", "print nothing; only the exit status (--output is still written)")
    ("generation,g", po::value<std::string>(), "force the generation: L1 L2 L3 M M9 M10")
    ("address-width,w", po::value<unsigned>(), "force the address size: 4 or 8 bytes")
    ("byte-order,b", po::value<std::string>(), "force the byte order: little | big")
    ("time-width", po::value<unsigned>(), "force the modern INITIALIZE time_t size: 4 or 8");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "log files");
  // clang-format on
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);

  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
  po::notify(vm);

  if (vm.count("help")) {
    std::cout << kUsage << ":\n" << opts << '\n';
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "pmclog-validate " << PMCLOG_VALIDATE_VERSION << '\n';
    return 0;
  }
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "github" && format != "junit")
    throw UsageError{fmt::format("--format: '{}' is not text, json, github or junit", format)};
  if (vm.count("list-rules")) {
    std::string out;
    if (format == "json") {
      write_rules_json(out);
    } else {
      write_rules_text(out);
    }
    return write_stdout(out, 0);
  }
  if (!vm.count("file")) throw UsageError{"no log file given (use '-' for standard input)"};
  const auto files = vm["file"].as<std::vector<std::string>>();
  tools::OutputOptions out_opt;
  out_opt.inputs = files;
  // "-o x.pmclog x.pmclog" would replace the log with its report: refused before any work.
  const std::string out_path = vm.count("output") ? vm["output"].as<std::string>() : "-";
  if (const tools::OutputError e = tools::refuse_same_file(out_path, files)) {
    std::cerr << "pmclog-validate: " << terminal_safe(e.message) << '\n';
    return kExitUsage;
  }

  std::optional<uint32_t> max_cpu;
  if (vm.count("max-cpu")) max_cpu = vm["max-cpu"].as<uint32_t>();
  Config cfg = Config::defaults(vm.count("pedantic") > 0, max_cpu);
  if (vm.count("enable")) apply_rules(cfg, vm["enable"].as<std::vector<std::string>>(), true);
  if (vm.count("disable")) apply_rules(cfg, vm["disable"].as<std::vector<std::string>>(), false);
  if (cfg.on(Rule::cpu_out_of_range) && !max_cpu)
    throw UsageError{"cpu-out-of-range needs --max-cpu"};
  cfg.max_diagnostics = vm["max-errors"].as<uint64_t>();
  const AbiHint hint = make_hint(vm);
  const bool strict = vm.count("strict") > 0;
  const bool quiet = vm.count("quiet") > 0;

  std::vector<FileResult> results;
  for (const std::string& name : files) {
    results.push_back(validate_file(name, hint, cfg));
  }
  const RunSummary summary = summarize(results, strict);

  std::string out;
  if (format == "json") {
    write_json(out, results, summary);
  } else if (format == "github") {
    write_github(out, results, summary);
  } else if (format == "junit") {
    write_junit(out, results, summary);
  } else {
    write_text(out, results, summary);
  }

  if (!quiet && format != "github" && format != "json") {
    for (const FileResult& f : results) {
      if (f.io_error) std::cerr << "pmclog-validate: " << io_error_text(f) << '\n';
    }
  }
  if (vm.count("output")) {
    const tools::OutputError e = tools::write_whole_file(out_path, out, out_opt);
    if (e && e.kind != tools::OutputError::Kind::closed_pipe) {
      // Even with --quiet: a report that was asked for and not written is a failure to see.
      std::cerr << "pmclog-validate: " << terminal_safe(e.message) << '\n';
      return kExitUsage;
    }
    // The report went to the file; keep the summary visible in the CI log.
    if (!quiet) return write_stdout(summary_line(summary) + '\n', summary.exit_status);
  } else if (!quiet) {
    return write_stdout(out, summary.exit_status);
  }
  return summary.exit_status;
}

}  // namespace

int main(int argc, char** argv) {
  tools::install_cleanup_signal_handlers();
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "pmclog-validate: " << terminal_safe(e.message)
              << "\nTry 'pmclog-validate --help'.\n";
  } catch (const po::error& e) {
    std::cerr << "pmclog-validate: " << terminal_safe(e.what())
              << "\nTry 'pmclog-validate --help'.\n";
  } catch (const std::exception& e) {
    std::cerr << "pmclog-validate: " << terminal_safe(e.what()) << '\n';
  }
  return kExitUsage;
}
