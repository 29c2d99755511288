#include "options.h"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "cli.h"
#include "diagnostics.h"
#include "pmclog/text.h"
#include "pmcprofile/kallsyms.h"
#include "stdout_sink.h"

namespace report {
namespace po = boost::program_options;
namespace cli = pmclog::tools::cli;
using pmclog::tools::UsageError;

namespace {

constexpr const char* kTool = "pmclog-report";

constexpr const char* kKindList =
    "top, folded, svg, pprof, callgraph, perf-script, speedscope, or with --diff json, github "
    "or junit";

constexpr cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-report [options] [LOG...]\n"
    "       pmclog-report [options] --diff BASE_LOG... -- NEW_LOG...\n",
    R"txt(Where the time goes, from hwpmc(4) logs of any generation, address width and byte order:
replays the address spaces, symbolizes every frame (elfutils) and prints the functions by
samples (top), folded stacks, a flame-graph SVG, a pprof profile, pmcstat -G's call graph,
perf script's text or a speedscope file, from one reading. Several logs are merged into one
profile (--by-file: one each). No LOG or "-" reads standard input, named "(stdin)" in
messages; gzip, zstd, xz and bzip2 input is read as is.
)txt",
    R"txt(  pmclog-report pmclog.out                    top: functions by self samples, per event
  pmclog-report --by comm,dso,sym pmclog.out  perf report --sort comm,dso,sym (the default)
  pmclog-report --by thread,sym --limit 20 pmclog.out
                                              per thread ("name:tid") and function, 20 rows
  pmclog-report --format folded -o out.folded pmclog.out
                                              folded stacks: flamegraph.pl out.folded > x.svg
  pmclog-report --format top,folded -o top.txt -o out.folded a.log b.log.zst
  pmclog-report --format svg -o flame.svg pmclog.out
                                              an interactive flame graph (open in a browser)
  pmclog-report --format pprof -o prof.pb.gz host*.pmclog
                                              one pprof profile (pprof -http=: prof.pb.gz)
  pmclog-report --format callgraph pmclog.out pmcstat -G's text (stackcollapse-pmc.pl)
  pmclog-report --sysroot /freebsd-root --kernel /freebsd-root/boot/kernel/kernel x.pmclog
  zstd -dc x.pmclog.zst | pmclog-report       from a pipe
  pmclog-report --generation L3 --address-width 4 --byte-order big old.pmclog
  pmclog-report --diff before.pmclog -- after.pmclog
                                              the rows whose share changed, significance marked
  pmclog-report --fail-if 'self>+2' --format github --diff a1.log a2.log -- b.log
                                              a CI gate: exit 3 when a significant row's self
                                              share grew by more than 2 points
)txt",
    R"txt(  0  the report was written
  1  a log was empty or damaged (the report covers what was good), or the logs held
     more than --max-stacks distinct stacks (nothing is written)
  2  usage error, a log that cannot be opened (missing, a folder), or an output that
     could not be written
  3  --diff: a --fail-if condition held (the rows that tripped it are printed)
)txt"};

std::vector<std::string> split_commas(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, ','))
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

// Decimal, or hexadecimal with 0x; the whole text, no sign.
bool parse_unsigned(const std::string& s, uint64_t max, uint64_t& out) {
  if (s.empty() || s[0] == '-' || s[0] == '+' || s[0] == ' ') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (errno != 0 || end == s.c_str() || *end != '\0' || v > max) return false;
  out = v;
  return true;
}

std::vector<uint32_t> numbers(const std::vector<std::string>& in, const char* option,
                              const char* what) {
  std::vector<uint32_t> out;
  for (const auto& s : split_commas(in)) {
    uint64_t v = 0;
    if (!parse_unsigned(s, 0xFFFFFFFFu, v))
      throw UsageError(std::string("--") + option + ": '" + s + "' is not a " + what);
    out.push_back(static_cast<uint32_t>(v));
  }
  return out;
}

double seconds(const std::string& option, const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0)
    throw UsageError("--" + option + ": '" + s +
                     "' is not a number of seconds >= 0 (from the log's first record)");
  return v;
}

std::optional<OutputKind> kind_named(const std::string& k) {
  if (k == "top") return OutputKind::top;
  if (k == "folded") return OutputKind::folded;
  if (k == "svg") return OutputKind::svg;
  if (k == "pprof") return OutputKind::pprof;
  if (k == "callgraph") return OutputKind::callgraph;
  if (k == "perf-script") return OutputKind::perf_script;
  if (k == "speedscope") return OutputKind::speedscope;
  if (k == "json") return OutputKind::json;
  if (k == "github") return OutputKind::github;
  if (k == "junit") return OutputKind::junit;
  return std::nullopt;
}

// The old spelling "--output KIND[,KIND...]": every item a kind's name (which no path
// with a '/' or a '.' is). Anything else given to --output is a file, as -o's value.
bool is_kind_list(const std::string& v) {
  const std::vector<std::string> items = split_commas({v});
  if (items.empty()) return false;
  for (const auto& k : items)
    if (!kind_named(k)) return false;
  return true;
}

// --sysroot/--symfs and --debug-dir name folders, --kernel a file: a typo found before any
// log is read, rather than a report whose every frame is unresolved.
void check_path(const std::string& option, const std::string& path, bool folder) {
  struct stat st;
  const std::string shown = "--" + option + ": '" + pmclog::display_path(path) + "'";
  if (stat(path.c_str(), &st) != 0) throw UsageError(shown + ": " + std::strerror(errno));
  if (folder && !S_ISDIR(st.st_mode))
    throw UsageError(shown + ": Not a directory (--" + option + " names a folder)");
  if (!folder && S_ISDIR(st.st_mode))
    throw UsageError(shown + ": Is a directory (--" + option + " names a file)");
}

// --kallsyms: a file whose kernel text start can be read (a copy saved while
// kernel.kptr_restrict hid the addresses has none), and the only source of kernel symbols.
void check_kallsyms(const po::variables_map& vm, const std::string& file) {
  if (file.empty()) return;
  if (vm.count("no-kallsyms")) throw UsageError("--kallsyms and --no-kallsyms exclude each other");
  if (vm.count("kernel")) throw UsageError("--kallsyms and --kernel both name the kernel's symbols");
  check_path("kallsyms", file, false);
  if (pmcprofile::shared_kernel_text_start(file) == 0)
    throw UsageError("--kallsyms: '" + pmclog::display_path(file) +
                     "': no _text or _stext address (not a kallsyms file, or saved while "
                     "kernel.kptr_restrict hid the addresses)");
}

bool is_by_key(const std::string& k) {
  return k == "comm" || k == "pid" || k == "tid" || k == "thread" || k == "object" ||
         k == "dso" || k == "symbol" || k == "sym";
}

// --diff BASE... -- NEW...: the logs after --diff are taken off the command line before
// Boost reads it, which would take "--" as the end of options and lose the split.
std::vector<char*> split_diff(int argc, char** argv, Config& cfg) {
  std::vector<char*> rest(argv, argv + argc);
  int at = 1;
  for (; at < argc; ++at) {
    const std::string a = argv[at];
    if (a == "--") return rest;  // no --diff before the end of options
    if (a == "--diff") break;
  }
  if (at == argc) return rest;
  cfg.diff = true;
  rest.resize(static_cast<size_t>(at));
  std::vector<std::string> base, now;
  bool second = false;
  for (int i = at + 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (!second && a == "--") {
      second = true;
      continue;
    }
    if (!second && a.size() > 1 && a[0] == '-')
      throw UsageError("--diff: '" + a + "' is an option among the base logs: options come "
                       "before --diff (--diff BASE... -- NEW...)");
    (second ? now : base).push_back(a);
  }
  if (!second)
    throw UsageError("--diff: no '--' after the base logs (--diff BASE... -- NEW...)");
  if (base.empty()) throw UsageError("--diff: no base log before '--' (--diff BASE... -- NEW...)");
  if (now.empty()) throw UsageError("--diff: no new log after '--' (--diff BASE... -- NEW...)");
  cfg.diff_base = base.size();
  cfg.inputs = std::move(base);
  cfg.inputs.insert(cfg.inputs.end(), now.begin(), now.end());
  return rest;
}

}  // namespace

bool parse_options(int argc_all, char** argv_all, Config& cfg) {
  std::vector<char*> kept = split_diff(argc_all, argv_all, cfg);
  const int argc = static_cast<int>(kept.size());
  char** argv = kept.data();
  const std::vector<std::string> diff_inputs = cfg.inputs;
  std::vector<std::string> fail_if;
  std::string alpha;
  std::vector<std::string> formats, outputs, files, pids, tids, cpus, comms, events, debug_dirs;
  std::string sort = "self", by = "comm,object,symbol", sysroot, kernel, kallsyms, limit, from,
      to;
  std::string min_width, width, depth, max_stacks, jobs;
  cli::AbiValues abi;
  cfg.profile.max_stacks = kDefaultMaxStacks;
  // clang-format off
  po::options_description out("Output");
  out.add_options()
      ("format", po::value(&formats)->composing()->value_name("KIND"),
       "top (default), folded, svg, pprof, callgraph, perf-script or speedscope; with --diff "
       "also json, github or junit; repeatable or comma-separated (top,folded)")
      ("output,o", po::value(&outputs)->composing()->value_name("FILE"),
       "write the N-th --format to the N-th -o FILE (default: standard output). "
       "Deprecated: --output KIND[,KIND...], every item a kind's name, is read as --format "
       "(with a warning); write ./top for a file named top")
      ("by", po::value(&by)->value_name("KEYS"),
       "top: group rows by these comma-separated keys, as perf report --sort: comm, pid, "
       "tid, thread (name:tid), object (dso), symbol (sym) (default: comm,object,symbol)")
      ("sort", po::value(&sort)->value_name("ORDER"),
       "top: order rows by self (default), total, name or object")
      ("limit", po::value(&limit)->value_name("N"),
       "top: at most N rows per event (default: all)")
      ("diff", "--diff BASE... -- NEW... (options before it): compare two runs, each side one "
       "log or several merged: per row of top (--by), its self and total share of the event's "
       "samples on each side, the change in points, and whether the change is significant; "
       "rows sorted by the size of the change of what --sort names (self or total). Formats: "
       "top, folded (base and new count per stack), svg (a differential flame graph: red grew, "
       "blue shrank), pprof (pprof -diff_base's form: the base's samples negative), json, "
       "github, junit")
      ("alpha", po::value(&alpha)->value_name("RATE"),
       "--diff: the false discovery rate of the significance marks, over all rows "
       "(Benjamini-Hochberg; default 0.01)")
      ("fail-if", po::value(&fail_if)->composing()->value_name("EXPR"),
       "--diff: exit 3 when a significantly changed row meets EXPR, "
       "self|total[(KEY=NAME,...)] >|< [+|-]NUMBER[%] written without spaces, KEY sym, comm, "
       "dso or event: self>+2 a self share grown by more than 2 points, total(sym=f)>+5% f's "
       "total share grown by more than 5 percent of itself; repeatable")
      ("comm-frame", po::bool_switch(&cfg.comm_frame),
       "folded, svg: the command as the frame after the event")
      ("by-file", po::bool_switch(&cfg.profile.by_file),
       "one profile per input instead of one merged profile (pprof: -o names a folder, "
       "one FILE.pb.gz per input)")
      ("icicle", po::bool_switch(&cfg.svg.icicle), "svg: root at the top, stacks growing down")
      ("reverse", po::bool_switch(&cfg.svg.reverse),
       "svg: stacks merged from the leaf (who calls the hot functions)")
      ("min-width", po::value(&min_width)->value_name("PIXELS"),
       "svg: prune frames narrower than PIXELS (default 0.1; the count is shown)")
      ("width", po::value(&width)->value_name("PIXELS"), "svg: image width (default 1200)")
      ("title", po::value(&cfg.svg.title)->value_name("TEXT"),
       "svg: the title (default: the event and the inputs)")
      ("callgraph-depth,z", po::value(&depth)->value_name("N"),
       "callgraph: at most N frames per chain, the sampled function included (pmcstat -z; "
       "default 32)")
      ("no-progress", "never show the progress line (shown on a terminal after 1 second)")
      ("jobs,j", po::value(&jobs)->value_name("N"),
       "read up to N inputs at once, each on a thread of its own (default: one per CPU); the "
       "output is the same for every N (perf-script reads one input at a time)")
      ("max-stacks", po::value(&max_stacks)->value_name("N"),
       "stop with exit 1 and write nothing when the logs hold more than N distinct stacks, "
       "counted as stack-table nodes (a stack costs one per frame it shares with no other); "
       "memory grows with them (60 to 800 bytes each, README.md): default 10000000, far "
       "above real profiles, so that a runaway log stops with a message before it exhausts "
       "memory; 0: no cap");
  po::options_description filt("Filters (comma-separated lists, or repeated options)");
  filt.add_options()
      ("pid", po::value(&pids)->composing()->value_name("PIDS"), "only these processes")
      ("tid", po::value(&tids)->composing()->value_name("TIDS"),
       "only these threads (legacy logs: their pid)")
      ("comm", po::value(&comms)->composing()->value_name("NAMES"), "only these commands")
      ("event", po::value(&events)->composing()->value_name("EVENTS"),
       "only these events (name, or pmc id 0x...)")
      ("cpu", po::value(&cpus)->composing()->value_name("CPUS"),
       "only samples taken on these CPUs")
      ("user-only", "only samples taken in user mode")
      ("kernel-only", "only samples taken in kernel mode, kernel frames only")
      ("from", po::value(&from)->value_name("SECONDS"),
       "only samples from SECONDS after the log's first record")
      ("to", po::value(&to)->value_name("SECONDS"),
       "only samples before SECONDS after the log's first record")
      ("ibs", "multipart (AMD IBS) callchains: the IBS op RIP is the sample's leaf frame");
  po::options_description sym("Symbols");
  sym.add_options()
      ("sysroot", po::value(&sysroot)->value_name("DIR"),
       "look every object of the log up under DIR, as if chrooted")
      ("symfs", po::value(&sysroot)->value_name("DIR"), "same as --sysroot (perf's name)")

      ("kernel", po::value(&kernel)->value_name("FILE"),
       "the kernel image (FreeBSD kernel or vmlinux)")
      ("debug-dir", po::value(&debug_dirs)->composing()->value_name("DIR"),
       "a folder of separate debug files (.build-id/xx/rest.debug), searched before "
       "/usr/lib/debug; repeatable")
      ("kallsyms", po::value(&kallsyms)->value_name("FILE"),
       "the kernel's symbols from a copy of /proc/kallsyms saved where and when the log was "
       "recorded (pmclog-record --kallsyms), in place of this machine's")
      ("no-kallsyms", "never use this machine's /proc/kallsyms")
      ("no-demangle", "keep C++ names as in the symbol table")
      ("lines", "source file:line of each function row or frame")
      ("inline", "inlined calls as frames of their own");
  po::options_description damage("Damage");
  damage.add_options()
      ("keep-going,k", "after damage, resynchronize and go on (the exit status is still 1)");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("input", po::value(&cfg.inputs)->composing())
      // -o's long name before --output took it: one release more.
      ("out-file", po::value(&files)->composing());
  po::options_description visible;
  visible.add(cli::general_options()).add(out).add(filt).add(sym)
      .add(cli::libpmc_options(cfg.libpmc_file)).add(damage).add(cli::abi_options(abi));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);

  // The parsed options in command-line order, each with the tokens as typed: -o and
  // --output share a key, and only the spelling tells the deprecated --output KIND apart.
  po::parsed_options parsed(&all);
  po::variables_map vm;
  try {
    parsed = po::command_line_parser(argc, argv).options(all).positional(pos).run();
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (cli::print_help_or_version(vm, kHelp, visible, pmclog::tools::standard_output().stream()))
    return false;
  cfg.profile.hint = cli::abi_hint(abi);
  if (cfg.diff && !cfg.inputs.empty() && cfg.inputs != diff_inputs)
    throw UsageError("--diff: the logs go after --diff (--diff BASE... -- NEW...), not before it");
  if (!cfg.diff) {
    if (!fail_if.empty()) throw UsageError("--fail-if needs --diff BASE... -- NEW...");
    if (!alpha.empty()) throw UsageError("--alpha needs --diff BASE... -- NEW...");
  }
  for (const auto& e : fail_if) cfg.fail_if.push_back(parse_gate(e));
  if (!alpha.empty()) {
    char* end = nullptr;
    const double v = std::strtod(alpha.c_str(), &end);
    if (end == alpha.c_str() || *end != '\0' || !(v > 0 && v < 1))
      throw UsageError("--alpha: '" + alpha + "' is not a rate between 0 and 1 (e.g. 0.01)");
    cfg.alpha = v;
  }
  cli::default_to_stdin(cfg.inputs, "log");
  std::vector<std::string> kinds;
  files.clear();  // in command-line order, -o, --output FILE and --out-file alike
  for (const auto& o : parsed.options) {
    if (o.value.empty()) continue;
    const std::string& v = o.value.front();
    const bool long_spelling = !o.original_tokens.empty() &&
                               o.original_tokens.front().rfind("--", 0) == 0;
    if (o.string_key == "format") {
      kinds.push_back(v);
    } else if (o.string_key == "output" && long_spelling && is_kind_list(v)) {
      pmclog::tools::diag().warning("--output " + v + " is deprecated; use --format " + v +
                                    " (--output will name the output file, as -o does)");
      kinds.push_back(v);
    } else if (o.string_key == "output" || o.string_key == "out-file") {
      files.push_back(v);
    }
  }
  for (const auto& k : split_commas(kinds)) {
    const auto kind = kind_named(k);
    if (!kind) throw UsageError("--format: '" + k + "' is not " + kKindList);
    const bool diff_only = *kind == OutputKind::json || *kind == OutputKind::github ||
                           *kind == OutputKind::junit;
    if (diff_only && !cfg.diff) throw UsageError("--format " + k + " needs --diff BASE... -- NEW...");
    if (cfg.diff && !diff_only && *kind != OutputKind::top && *kind != OutputKind::folded &&
        *kind != OutputKind::pprof && *kind != OutputKind::svg)
      throw UsageError("--format " + k + " is not made by --diff: give top, folded, svg, pprof, "
                       "json, github or junit");
    cfg.outputs.push_back({*kind});
  }
  if (cfg.outputs.empty()) cfg.outputs.push_back({OutputKind::top});
  if (files.size() > cfg.outputs.size())
    throw UsageError(std::to_string(files.size()) + " -o/--output files but " +
                     std::to_string(cfg.outputs.size()) +
                     " --format kinds (the N-th -o is the file of the N-th --format)");
  for (size_t i = 0; i < files.size(); ++i) cfg.outputs[i].file = files[i];
  if (cfg.diff && cfg.profile.by_file)
    throw UsageError("--by-file and --diff: a diff merges each side's logs into one profile");
  for (const auto& o : cfg.outputs)
    if (o.kind == OutputKind::pprof && cfg.profile.by_file && o.file == "-")
      throw UsageError("--format pprof with --by-file writes one file per input: give -o FOLDER");
  if (!min_width.empty()) {
    char* end = nullptr;
    const double v = std::strtod(min_width.c_str(), &end);
    if (end == min_width.c_str() || *end != '\0' || !std::isfinite(v) || v < 0)
      throw UsageError("--min-width: '" + min_width + "' is not a number of pixels >= 0");
    cfg.svg.min_width = v;
  }
  if (!width.empty()) {
    uint64_t n = 0;
    if (!parse_unsigned(width, 100000, n) || n < 100)
      throw UsageError("--width: '" + width + "' is not a number of pixels from 100 to 100000");
    cfg.svg.width = static_cast<unsigned>(n);
  }
  if (!depth.empty()) {
    uint64_t n = 0;
    if (!parse_unsigned(depth, 100000, n) || n == 0)
      throw UsageError("--callgraph-depth: '" + depth + "' is not a depth from 1 to 100000");
    cfg.callgraph_depth = static_cast<size_t>(n);
  }
  if (vm.count("jobs")) {
    uint64_t n = 0;
    if (!parse_unsigned(jobs, 1024, n) || n == 0)
      throw UsageError("--jobs: '" + jobs + "' is not a number of threads from 1 to 1024");
    cfg.jobs = static_cast<unsigned>(n);
  }
  if (vm.count("max-stacks")) {
    uint64_t n = 0;
    if (!parse_unsigned(max_stacks, SIZE_MAX, n))
      throw UsageError("--max-stacks: '" + max_stacks + "' is not a number of stacks (0: no cap)");
    cfg.profile.max_stacks = static_cast<size_t>(n);
  }
  if (sort == "self") cfg.sort = pmcprofile::SortKey::self;
  else if (sort == "total") cfg.sort = pmcprofile::SortKey::total;
  else if (sort == "name") cfg.sort = pmcprofile::SortKey::name;
  else if (sort == "object") cfg.sort = pmcprofile::SortKey::object;
  else {
    // perf report's --sort is the grouping: say where its keys go here.
    bool perf_keys = true;
    for (const auto& k : split_commas({sort})) perf_keys = perf_keys && is_by_key(k);
    throw UsageError("--sort: '" + sort + "' is not self, total, name or object" +
                     (perf_keys ? " (rows are grouped with --by, as perf report --sort)" : ""));
  }
  if (!limit.empty()) {
    uint64_t n = 0;
    if (!parse_unsigned(limit, SIZE_MAX, n))
      throw UsageError("--limit: '" + limit + "' is not a number of rows (0: all)");
    cfg.limit = static_cast<size_t>(n);
  }
  cfg.by = {false, false, false, false, false, false};
  for (const auto& k : split_commas({by})) {
    if (k == "comm") cfg.by.comm = true;
    else if (k == "pid") cfg.by.pid = true;
    else if (k == "tid") cfg.by.tid = true;
    else if (k == "thread") cfg.by.thread = true;
    else if (k == "object" || k == "dso") cfg.by.object = true;
    else if (k == "symbol" || k == "sym") cfg.by.symbol = true;
    else
      throw UsageError("--by: '" + k + "' is not one of comm, pid, tid, thread, object (dso), "
                       "symbol (sym)");
  }
  if (!cfg.by.comm && !cfg.by.pid && !cfg.by.tid && !cfg.by.thread && !cfg.by.object &&
      !cfg.by.symbol)
    throw UsageError("--by needs at least one key");
  // Only a report that shows threads pays for stacks per thread.
  cfg.profile.keep_threads = cfg.by.tid || cfg.by.thread;
  for (const auto& o : cfg.outputs) {
    // pprof labels each sample with pid, tid, comm, cpu and file.
    if (o.kind == OutputKind::pprof) {
      cfg.profile.keep_threads = cfg.profile.keep_cpus = true;
      cfg.profile.keep_inputs = !cfg.profile.by_file;
    }
  }
  pmcprofile::Filter& f = cfg.profile.filter;
  f.pids = numbers(pids, "pid", "process id");
  f.tids = numbers(tids, "tid", "thread id");
  f.cpus = numbers(cpus, "cpu", "CPU number");
  f.comms = split_commas(comms);
  f.events = split_commas(events);
  if (vm.count("user-only") && vm.count("kernel-only"))
    throw UsageError("--user-only and --kernel-only exclude each other");
  if (vm.count("user-only")) f.mode = pmcprofile::Filter::Mode::user;
  if (vm.count("kernel-only")) f.mode = pmcprofile::Filter::Mode::kernel;
  if (vm.count("from")) f.from = seconds("from", from);
  if (vm.count("to")) f.to = seconds("to", to);
  if (f.from && f.to && *f.to <= *f.from) throw UsageError("--to must be after --from");
  if (!sysroot.empty()) check_path(vm.count("symfs") ? "symfs" : "sysroot", sysroot, true);
  if (!kernel.empty()) check_path("kernel", kernel, false);
  check_kallsyms(vm, kallsyms);
  for (const auto& d : debug_dirs) check_path("debug-dir", d, true);
  cfg.profile.locate.sysroot = sysroot;
  cfg.profile.locate.kernel_file = kernel;
  cfg.profile.locate.kallsyms = !vm.count("no-kallsyms");
  cfg.profile.locate.kallsyms_file = kallsyms;
  cfg.profile.symbols.debug_dirs = debug_dirs;
  cfg.profile.symbols.demangle = !vm.count("no-demangle");
  cfg.profile.symbols.lines = vm.count("lines") > 0;
  cfg.profile.symbols.inlines = vm.count("inline") > 0;
  cfg.profile.keep_going = vm.count("keep-going") > 0;
  cfg.profile.ibs = vm.count("ibs") > 0;
  cfg.progress = !vm.count("no-progress");
  return true;
}

}  // namespace report
