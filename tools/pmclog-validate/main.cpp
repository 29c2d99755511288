// pmclog-validate: checks hwpmc logs for CI. Options, then one validation per file, then the
// chosen output format. Exit status: 0 valid, 1 errors (or warnings with --strict),
// 2 usage or I/O errors.
#include <sys/stat.h>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "config.h"
#include "diagnostics.h"
#include "output_file.h"
#include "pmclog/abi.h"
#include "pmclog/detect.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "pmcprofile/pmu_events.h"
#include "progress.h"
#include "report.h"
#include "rules.h"
#include "run_main.h"
#include "same_file.h"
#include "scan.h"
#include "stdout_sink.h"

namespace po = boost::program_options;
using namespace pmclog;
using namespace pmclog::validate;

namespace {

using tools::Exit;
using tools::UsageError;

constexpr const char* kTool = "pmclog-validate";

constexpr tools::cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-validate [options] [FILE...]\n"
    "       pmclog-validate --list-rules [--format=json]\n",
    R"txt(Checks FreeBSD hwpmc(4) logs (every generation, 32/64-bit, either byte order; gzip, zstd,
xz and bzip2 are read transparently; no FILE or '-' is standard input, not a terminal) and
reports every problem it finds, one line each, sorted by offset:

  FILE:0xOFFSET (DECIMAL): error|warning: MESSAGE [rule-id]

then a one-line summary. It resynchronizes after damage, so independent problems each get
their own line.
)txt",
    R"txt(  pmclog-validate cpu.pmclog                  check one log
  pmclog-validate --strict --format=github *.pmclog
  pmclog-validate --format=junit -o report.xml logs/*.pmclog.zst
  pmclog-validate --pedantic --max-cpu 63 -   check a pipe, stale bytes and CPUs too
  pmclog-validate --generation L3 --address-width 4 --byte-order big old.pmclog
  pmclog-validate --list-rules                every rule, its severity and why
)txt",
    R"txt(  0  every file valid
  1  any error (or any warning with --strict), damaged compressed data included
  2  usage error, or a file that cannot be read (missing, a folder) or an output that
     cannot be written
)txt"};

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
      throw UsageError(fmt::format("unknown rule '{}' (see --list-rules)", n));
    }
  }
}

// A whole decimal number from `lo` to `hi`; anything else (a sign, a fraction, a value
// program_options would wrap around, "-1" into 4294967295) is refused with the value quoted.
uint64_t number_option(const std::string& option, const std::string& value, uint64_t lo,
                       uint64_t hi, const std::string& what) {
  uint64_t v = 0;
  bool ok = !value.empty() && value.size() <= 20;
  for (char c : value) {
    if (c < '0' || c > '9' || v > (UINT64_MAX - static_cast<uint64_t>(c - '0')) / 10) {
      ok = false;
      break;
    }
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || v < lo || v > hi)
    throw UsageError(fmt::format("--{}: '{}' is not {}", option, value, what));
  return v;
}

// The input's size when the reader's offset can be set against it (a regular uncompressed
// file); 0 otherwise, and the progress line counts megabytes instead.
uint64_t input_size(const std::string& name) {
  struct stat st {};
  if (name == "-" || ::stat(name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  std::ifstream in(name, std::ios::binary);
  std::vector<uint8_t> head(kSniffBytes);
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (sniff_compression(head) != Compression::none) return 0;
  return static_cast<uint64_t>(st.st_size);
}

int run(int argc, char** argv) {
  tools::cli::AbiValues abi;
  po::options_description checks("Checks");
  // clang-format off
  checks.add_options()
    ("disable", po::value<std::vector<std::string>>()->composing(),
     "turn off rules: ids, categories (framing, types, contents, structure) or 'all'; "
     "repeatable, comma-separated; wins over --enable")
    ("enable", po::value<std::vector<std::string>>()->composing(),
     "turn on rules (e.g. a pedantic one), same forms as --disable")
    ("pedantic", "also the pedantic rules: what FreeBSD writes in normal operation (no "
                 "CLOSELOG, samples after exit, ...) and nonzero stale bytes")
    ("strict", "warnings make the exit status 1 too")
    ("max-cpu", po::value<std::string>(), "highest CPU number of the producing machine (0 to "
                                          "65535); enables cpu-out-of-range")
    ("list-rules", "list every rule: id, severity, category, default, description and why "
                   "that severity (as JSON with --format=json); takes no FILE");
  po::options_description report("Report");
  report.add_options()
    ("format,f", po::value<std::string>()->default_value("text"),
     "text | json | github | junit")
    ("output,o", po::value<std::string>(),
     "write the report to this file (a regular file is written to a temporary name, then "
     "renamed; a device or FIFO is written through; one of the logs is refused)")
    ("max-errors", po::value<std::string>()->default_value("1000"),
     "print at most N diagnostics per file, those with the lowest offsets (0: all); the "
     "summary counts every one")
    ("quiet,q", "print nothing; only the exit status (--output is still written)");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "log files");
  // clang-format on
  std::string sysroot, libpmc;
  po::options_description visible;
  visible.add(tools::cli::general_options()).add(checks).add(report)
      .add(tools::cli::libpmc_options(libpmc, &sysroot)).add(tools::cli::abi_options(abi));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);

  const po::variables_map vm = tools::cli::parse(argc, argv, all, &pos);
  tools::StdoutSink& out = tools::standard_output();
  if (tools::cli::print_help_or_version(vm, kHelp, visible, out.stream())) return 0;
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "github" && format != "junit")
    throw UsageError(fmt::format("--format: '{}' is not text, json, github or junit", format));
  std::vector<std::string> files;
  if (vm.count("file")) files = vm["file"].as<std::vector<std::string>>();
  if (vm.count("list-rules")) {
    // A log named here would look checked while nothing was read.
    if (!files.empty())
      throw UsageError(fmt::format("unexpected argument '{}': --list-rules reads no log",
                                   files.front()));
    if (format != "text" && format != "json")
      throw UsageError(fmt::format(
          "--list-rules and --format={} cannot be used together: the list is text or json",
          format));
    std::string list;
    if (format == "json") {
      write_rules_json(list);
    } else {
      write_rules_text(list);
    }
    out.write(list);
    return 0;
  }
  tools::cli::check_libpmc_paths(libpmc, &sysroot);
  tools::cli::default_to_stdin(files, "log");
  tools::OutputOptions out_opt;
  out_opt.inputs = files;
  // "-o x.pmclog x.pmclog" would replace the log with its report: refused before any work.
  const std::string out_path = vm.count("output") ? vm["output"].as<std::string>() : "-";
  if (const tools::OutputError e = tools::refuse_same_file(out_path, files))
    throw tools::Failure(Exit::usage, e.message);

  std::optional<uint32_t> max_cpu;
  if (vm.count("max-cpu"))
    max_cpu = static_cast<uint32_t>(number_option(
        "max-cpu", vm["max-cpu"].as<std::string>(), 0, 65535, "a CPU number from 0 to 65535"));
  Config cfg = Config::defaults(vm.count("pedantic") > 0, max_cpu);
  if (vm.count("enable")) apply_rules(cfg, vm["enable"].as<std::vector<std::string>>(), true);
  if (vm.count("disable")) apply_rules(cfg, vm["disable"].as<std::vector<std::string>>(), false);
  if (cfg.on(Rule::cpu_out_of_range) && !max_cpu)
    throw UsageError("cpu-out-of-range needs --max-cpu");
  cfg.max_diagnostics = number_option("max-errors", vm["max-errors"].as<std::string>(), 0,
                                      UINT64_MAX, "a count (0 or more; 0: all)");
  const AbiHint hint = tools::cli::abi_hint(abi);
  const bool strict = vm.count("strict") > 0;
  const bool quiet = vm.count("quiet") > 0;

  const pmcprofile::LibpmcOption tables = pmcprofile::load_libpmc(sysroot, libpmc);
  if (!tables.error.empty()) throw tools::Failure(Exit::io, tables.error);
  if (tables.events) cfg.pmu_events = &*tables.events;
  cfg.pmu_missing = tables.missing;
  std::set<std::string> notes;
  cfg.notes = &notes;

  std::vector<FileResult> results;
  {
    // Nothing is printed until every file is read: a long run shows how far it got.
    tools::Progress progress(!quiet);
    for (const std::string& name : files) {
      if (progress.on()) {
        progress.set_label("reading " + input_display_name(name));
        cfg.progress = [&progress, total = input_size(name)](uint64_t at) {
          progress.update(at, total);
        };
      }
      results.push_back(validate_file(name, hint, cfg));
    }
  }
  if (!quiet)  // once per run, whatever the number of files
    for (const std::string& n : notes) tools::diag().note(n);
  const RunSummary summary = summarize(results, strict);

  std::string text;
  if (format == "json") {
    write_json(text, results, summary);
  } else if (format == "github") {
    write_github(text, results, summary);
  } else if (format == "junit") {
    write_junit(text, results, summary);
  } else {
    write_text(text, results, summary);
  }

  if (!quiet && format != "github" && format != "json") {
    for (const FileResult& f : results) {
      if (f.io_error) tools::diag().error(io_error_text(f));
    }
  }
  if (vm.count("output")) {
    const tools::OutputError e = tools::write_whole_file(out_path, text, out_opt);
    // Even with --quiet: a report that was asked for and not written is a failure to see.
    if (e && e.kind != tools::OutputError::Kind::closed_pipe) throw tools::Failure(Exit::io, e.message);
    // The report went to the file; keep the summary visible in the CI log.
    if (!quiet) out.write(summary_line(summary) + '\n');
  } else if (!quiet) {
    out.write(text);
  }
  tools::diag().raise(static_cast<Exit>(summary.exit_status));  // a closed pipe keeps it
  return summary.exit_status;
}

}  // namespace

int main(int argc, char** argv) { return tools::run_main({kTool}, argc, argv, run); }
