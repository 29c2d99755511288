#include "options.h"

#include <boost/program_options.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "cli.h"
#include "dwarf_unwinder.h"
#include "events_table.h"
#include "perf_open.h"
#include "pmclog/text.h"
#include "stdout_sink.h"

namespace po = boost::program_options;

namespace record {

namespace {

using pmclog::tools::UsageError;
namespace cli = pmclog::tools::cli;

constexpr cli::HelpText kHelp{
    "pmclog-record",
    "Usage: pmclog-record [options] [--] COMMAND [ARGS...]\n"
    "       pmclog-record [options] -p PID[,PID...]\n"
    "       pmclog-record [options] -a [--duration S | [--] COMMAND...]\n"
    "       pmclog-record --list-events\n",
    "Profiles with Linux perf_event_open and writes a FreeBSD hwpmc(4) log.\n"
    "The options end at the first argument that is not one (or at \"--\"): that is the\n"
    "command, and what follows it is the command's own.\n",
    "  pmclog-record -F 999 -o app.pmclog ./app --input x\n"
    "                                 sample a command (and its children) 999 times a second\n"
    "  pmclog-record -e cycles,cache-misses --fallback make -j2\n"
    "  pmclog-record -p 1234 --duration 10 -o attach.pmclog\n"
    "  pmclog-record -a --duration 5     the whole system (root or CAP_PERFMON)\n"
    "  pmclog-record --count --per-process -e task-clock sh -c 'sort big.txt >/dev/null'\n"
    "  pmclog-record --generation M10 --address-width 8 --byte-order big ./app\n"
    "  pmclog-record --list-events\n",
    "  N    with a COMMAND: the command's own exit status, 128+S when signal S killed it\n"
    "       (as a shell reports it); with -p or -a: 0 when the log was written\n"
    "  2    usage error (bad options or values): found before anything runs, so a 2 after\n"
    "       the command ran is the command's own; also --help, --version or --list-events\n"
    "       that could not be written\n"
    "  125  pmclog-record itself failed (events could not be opened, the log could not be\n"
    "       written, no such process); a reader of -o - that goes away is not a failure\n"
    "  126  the command was found but cannot be executed\n"
    "  127  the command was not found\n"};

// Values are quoted as given; they are the user's and may hold anything.
std::string quoted(const std::string& v) {
  std::string q(1, '\'');  // appends: g++-12 warns falsely (-Wrestrict) on "'" + s
  q += pmclog::escaped(v);
  q += '\'';
  return q;
}

bool parse_pids(const std::string& s, std::vector<pid_t>& out) {
  for (const auto& part : split_list(s)) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return false;
    errno = 0;
    const long v = std::strtol(part.c_str(), nullptr, 10);
    if (errno || v <= 0 || v > INT_MAX) return false;
    out.push_back(static_cast<pid_t>(v));
  }
  return !out.empty();
}

// A whole number from `min` to `max`, digits only: program_options would read "-1" into an
// unsigned as its largest value and take it in silence.
uint64_t whole_number(const char* option, const std::string& v, uint64_t min, uint64_t max,
                      const char* unit) {
  const std::string range = max == UINT64_MAX
                                ? "of at least " + std::to_string(min)
                                : "from " + std::to_string(min) + " to " + std::to_string(max);
  const std::string message = std::string(option) + ": " + quoted(v) + " is not a whole number " +
                              range + (*unit ? " (" + std::string(unit) + ")" : "");
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(message);
  errno = 0;
  const unsigned long long n = std::strtoull(v.c_str(), nullptr, 10);
  if (errno == ERANGE || n < min || n > max) throw UsageError(message);
  return n;
}

// The kernel refuses a higher -F (EINVAL); 0 when it does not say.
uint64_t max_sample_rate() {
  std::ifstream f("/proc/sys/kernel/perf_event_max_sample_rate");
  uint64_t v = 0;
  return f >> v ? v : 0;
}

// The longest --duration: a year. More is a typo (a count of milliseconds, say), and the
// deadline must fit in 64-bit nanoseconds.
constexpr double kMaxDuration = 365 * 86400.0;

double seconds(const std::string& v) {
  const std::string message = "--duration: " + quoted(v) +
                              " is not a number of seconds above 0 and at most " +
                              std::to_string(static_cast<long>(kMaxDuration)) + " (a year)";
  char* end = nullptr;
  errno = 0;
  const double d = v.empty() ? NAN : std::strtod(v.c_str(), &end);
  if (v.empty() || *end || errno == ERANGE || !std::isfinite(d) || d <= 0 || d > kMaxDuration)
    throw UsageError(message);
  return d;
}

// Whether -o names a terminal: standard output for "-" (and its /dev spellings), else a
// character device opened to ask. A binary log there is unreadable and can upset the
// terminal, as gzip says of compressed data.
bool output_is_terminal(const std::string& path) {
  if (path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" ||
      path == "/proc/self/fd/1")
    return isatty(STDOUT_FILENO) == 1;
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return false;
  const int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;  // the open error is the output's, reported when it is opened
  const bool tty = isatty(fd) == 1;
  close(fd);
  return tty;
}

// Where the options end: at "--" or at the first argument that is neither an option nor an
// option's value. That is the command, and everything after it is its own, as perf has it
// (`pmclog-record ls -la`). An option that takes a value takes the next argument whatever it
// looks like (`-o -`), as program_options does.
int options_end(int argc, char** argv, const po::options_description& all) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--" || a.size() < 2 || a[0] != '-') return i;
    if (a[1] == '-') {  // --name VALUE, --name=VALUE; abbreviations as program_options takes them
      if (a.find('=') != std::string::npos) continue;
      const auto* d = all.find_nothrow(a.substr(2), true);
      if (d && d->semantic()->max_tokens() > 0) ++i;
      continue;
    }
    // -abc: switches, the first one that takes a value takes the rest or the next argument
    for (size_t k = 1; k < a.size(); ++k) {
      const auto* d = all.find_nothrow(std::string("-") + a[k], false);
      if (d && d->semantic()->max_tokens() > 0) {
        if (k + 1 == a.size()) ++i;
        break;
      }
    }
  }
  return argc;
}

// A CPU list as perf and taskset write it: "0,2-3". Each CPU must exist on this machine.
std::vector<int> parse_cpu_list(const std::string& v) {
  const int n = online_cpu_count();
  const auto bad = [&](const std::string& why) {
    return UsageError("-C/--cpu: " + quoted(v) + " " + why);
  };
  std::vector<int> out;
  size_t at = 0;
  while (at <= v.size()) {
    const size_t comma = std::min(v.find(',', at), v.size());
    const std::string item = v.substr(at, comma - at);
    const size_t dash = item.find('-');
    const std::string lo_s = item.substr(0, dash);
    const std::string hi_s = dash == std::string::npos ? lo_s : item.substr(dash + 1);
    const auto digits = [](const std::string& s) {
      return !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(lo_s) || !digits(hi_s)) throw bad("is not a CPU list such as 0,2-3");
    const int lo = std::stoi(lo_s), hi = std::stoi(hi_s);
    if (lo > hi) throw bad("has a range that goes down (" + item + ")");
    if (hi >= n)
      throw bad("names CPU " + std::to_string(hi) + "; this machine has CPUs 0 to " +
                std::to_string(n - 1));
    for (int c = lo; c <= hi; ++c) out.push_back(c);
    at = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// perf's spelling: fp, or dwarf with an optional stack size (a multiple of 8 below 64 KiB,
// the kernel's limit; perf rounds up as here).
void parse_call_graph(const std::string& v, Options& o) {
  if (v == "fp") {
    o.call_graph = Options::CallGraph::fp;
    return;
  }
  if (v.rfind("dwarf", 0) != 0 || (v.size() > 5 && v[5] != ','))
    throw UsageError("--call-graph: " + quoted(v) + " is not fp or dwarf[,BYTES]");
  o.call_graph = Options::CallGraph::dwarf;
  if (v.size() > 5) {
    const uint64_t n = whole_number("--call-graph dwarf,BYTES", v.substr(6), 8, 65528, "bytes");
    o.stack_bytes = static_cast<uint32_t>((n + 7) / 8 * 8);
  }
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  std::string events, pids, tids, cpus, freq, period, depth, mmap_pages, duration, call_graph;
  cli::AbiValues abi;
  po::options_description sampling("Events and sampling");
  sampling.add_options()
      ("event,e", po::value(&events), "events, comma-separated (default cpu-clock); "
       "hardware: cycles instructions branches branch-misses cache-references cache-misses "
       "ref-cycles rXXXX; software: cpu-clock task-clock page-faults context-switches; "
       "FreeBSD pmc(3) aliases such as unhalted-cycles, branch-mispredicts, dc-misses")
      ("period,c", po::value(&period), "sample every PERIOD events (1 or more)")
      ("freq,F", po::value(&freq), "sample at HZ samples per second (default 1000; from 1 to "
       "kernel.perf_event_max_sample_rate)")
      ("depth", po::value(&depth), "callchain depth limit (default 32, or 127 with --call-graph "
       "dwarf; 1 or more, capped at the generation's maximum and kernel.perf_event_max_stack)")
      ("call-graph", po::value(&call_graph), "how user-space stacks are walked: fp (frame "
       "pointers, by the kernel; the default, as in perf) or dwarf[,BYTES] (a copy of BYTES "
       "of each sample's stack, default 8192, unwound by the recorder with the programs' CFI: "
       "whole stacks from code built without frame pointers)")
      ("user-only", po::bool_switch(&o.user_only), "record user-space frames only")
      ("container", po::bool_switch(&o.container),
       "write a PMCL container in front of the log, as FreeBSD's pmc record does: this "
       "machine's arch, CPU model, kernel release and build id, and CPUID leaves on x86")
      ("user-callchain", po::bool_switch(&o.user_callchain), "kernel-mode samples also keep "
       "the user-space frames, after the kernel ones (PMC_F_USERCALLCHAIN, pmcstat -U; M9, "
       "M10 only)")
      ("fallback", po::bool_switch(&o.fallback), "replace hardware events that this machine "
       "lacks by the nearest software event")
      ("count", po::bool_switch(&o.counting), "counting mode: PROCCSW at each context switch "
       "and PROCEXIT at exit, no samples (so no -F, -c, --depth or --user-callchain); prints "
       "the totals of the command and all its descendants")
      ("per-process", po::bool_switch(&o.per_process), "with --count: also print each "
       "process's own counts")
      ("list-events", po::bool_switch(&o.list_events), "list the events and whether this "
       "machine supports them (each is opened to find out)");
  po::options_description target("Target");
  target.add_options()
      ("pid,p", po::value(&pids), "attach to running processes PID[,PID...]")
      ("tid,t", po::value(&tids), "attach to threads TID[,TID...] of running processes "
       "(those threads only, and the threads they start)")
      ("cpu,C", po::value(&cpus), "only these CPUs, as 0,2-3 (the whole system on them: "
       "implies -a)")
      ("all-cpus,a", po::bool_switch(&o.system_wide), "profile the whole system (root, "
       "CAP_PERFMON or kernel.perf_event_paranoid <= 0)")
      ("duration", po::value(&duration), "stop after SECONDS (above 0, at most a year; a "
       "command still running then gets SIGTERM, and its status is the tool's)");
  po::options_description output("Output");
  output.add_options()
      ("output,o", po::value(&o.output), "output file (default pmclog.out; an existing "
       "default file is kept as pmclog.out.old); - is standard output, not a terminal")
      ("kallsyms", po::value(&o.kallsyms)->value_name("FILE"), "also save a copy of "
       "/proc/kallsyms to FILE as the recording ends: pmclog-report --kallsyms FILE names "
       "the log's kernel frames after a reboot, on another machine, and sooner")
      ("mmap-pages", po::value(&mmap_pages), "ring buffer data pages per CPU, a power of "
       "two from 1 to 1048576 (default 64)")
      ("quiet,q", po::bool_switch(&o.quiet), "no summary on stderr");
  // The log is this machine's: no --time-width (Abi::make gives the usual time_t).
  cli::AbiOptionSet abi_set;
  abi_set.time_width = false;
  abi_set.address_slot = false;  // this machine writes whole slots
  // L1 is not offered: its CALLCHAIN-less records cannot hold a sample's stack.
  abi_set.generation_values = "L2 L3 M9 M10, or M (M10)";
  abi_set.generation_default = "M10, what FreeBSD writes today; L3 for FreeBSD 9.2-11 "
                               "readers";
  abi_set.address_width_default = "this machine's; 4 only on a 32-bit one";
  abi_set.byte_order_default = "this machine's";
  po::options_description visible;
  visible.add(cli::general_options()).add(sampling).add(target).add(output).add(
      cli::abi_options(abi, abi_set));

  // The options end where the command begins; "--" itself is nobody's.
  const int end = options_end(argc, argv, visible);
  const po::variables_map vm = cli::parse(end, argv, visible);
  for (int i = end + (end < argc && std::strcmp(argv[end], "--") == 0); i < argc; ++i)
    o.command.emplace_back(argv[i]);
  if (cli::print_help_or_version(vm, kHelp, visible,
                                 pmclog::tools::standard_output().stream()))
    return std::nullopt;

  if (vm.count("event")) {
    o.events = split_list(events);
    o.events_given = true;
    if (o.events.empty()) throw UsageError("-e needs at least one event name");
  }
  std::vector<std::pair<std::string, EventSpec>> seen;
  for (const auto& name : o.events) {
    const auto spec = find_event(name);
    if (!spec) throw UsageError("unknown event '" + name + "' (see --list-events)");
    // The same perf event twice would be opened twice and every sample counted twice.
    for (const auto& [other, sp] : seen)
      if (sp.type == spec->type && sp.config == spec->config)
        throw UsageError("-e names the same event twice: '" + other +
                         (other == name ? "'" : "' and '" + name + "' (" + spec->name + ")"));
    seen.emplace_back(name, *spec);
  }
  // --count counts: a sampling rate, a period or a callchain option would be ignored.
  if (o.counting) {
    if (vm.count("freq"))
      throw UsageError("--count and -F/--freq cannot be used together: --count counts, -F "
                       "sets a sampling rate");
    if (vm.count("period"))
      throw UsageError("--count and -c/--period cannot be used together: --count counts, -c "
                       "sets a sampling period");
    if (vm.count("depth"))
      throw UsageError("--count and --depth cannot be used together: --count records no "
                       "callchains");
    if (o.user_callchain)
      throw UsageError("--count and --user-callchain cannot be used together: --count "
                       "records no callchains");
    if (vm.count("call-graph"))
      throw UsageError("--count and --call-graph cannot be used together: --count records no "
                       "callchains");
  }
  if (vm.count("period")) o.period = whole_number("-c/--period", period, 1, UINT64_MAX, "");
  if (vm.count("freq")) {
    if (o.period)
      throw UsageError("-c/--period and -F/--freq cannot be used together: give a period or "
                       "a rate");
    o.frequency = whole_number("-F/--freq", freq, 1, UINT64_MAX, "samples per second");
    const uint64_t max = max_sample_rate();
    if (max && o.frequency > max)
      throw UsageError("-F/--freq: " + quoted(freq) + " is above this machine's maximum of " +
                       std::to_string(max) + " (kernel.perf_event_max_sample_rate)");
  }
  if (vm.count("pid") && !parse_pids(pids, o.pids))
    throw UsageError("-p/--pid: " + quoted(pids) + " is not PID[,PID...] (process ids above 0)");
  if (vm.count("tid") && !parse_pids(tids, o.tids))
    throw UsageError("-t/--tid: " + quoted(tids) + " is not TID[,TID...] (thread ids above 0)");
  if (vm.count("cpu")) {
    o.cpus = parse_cpu_list(cpus);
    o.system_wide = true;  // as in perf: -C records everything that runs there
  }
  if (vm.count("depth")) {
    o.depth_given = true;
    o.depth = static_cast<uint32_t>(whole_number("--depth", depth, 1, UINT32_MAX, "frames"));
  }
  if (vm.count("call-graph")) parse_call_graph(call_graph, o);
  if (o.call_graph == Options::CallGraph::dwarf) {
    if (!DwarfUnwinder::available())
      throw UsageError("--call-graph dwarf: this recorder unwinds x86-64 stacks only; use fp");
    // Each sample carries its stack copy: a ring that holds the default's worth of samples.
    if (!vm.count("mmap-pages")) o.mmap_pages = 512;
    // Interpreters and compilers run deeper than 32 frames; perf's default limit
    // (kernel.perf_event_max_stack) keeps their chains whole, as perf report shows them.
    if (!o.depth_given) o.depth = 127;
  }
  if (vm.count("mmap-pages")) {
    o.mmap_pages = whole_number("--mmap-pages", mmap_pages, 1, 1 << 20, "");
    if (!std::has_single_bit(o.mmap_pages))
      throw UsageError("--mmap-pages: " + quoted(mmap_pages) + " is not a power of two");
  }
  if (vm.count("duration")) o.duration = seconds(duration);

  // The generations this writer takes; the shared check would list L1 as one of them.
  pmclog::Generation gen = pmclog::Generation::M10;  // what FreeBSD's kernel writes today
  if (!abi.generation.empty()) {
    const auto g = pmclog::parse_generation(abi.generation);
    if ((!g && abi.generation != "M" && abi.generation != "m") ||
        (g && *g == pmclog::Generation::L1))
      throw UsageError("--generation: " + quoted(abi.generation) +
                       " is not one of L2 L3 M M9 M10 (L1 has no callchains)");
  }
  const pmclog::AbiHint hint = cli::abi_hint(abi);
  if (hint.generation) gen = *hint.generation;
  const uint8_t width = hint.address_width.value_or(sizeof(void*));
  if (width < sizeof(void*))
    throw UsageError("--address-width 4 cannot hold this machine's 64-bit addresses; use 8");
  const auto order = hint.byte_order.value_or(
      std::endian::native == std::endian::little ? pmclog::ByteOrder::little
                                                 : pmclog::ByteOrder::big);
  o.abi = pmclog::Abi::make(gen, width, order);
  if (o.user_callchain && o.abi.legacy())
    throw UsageError("--user-callchain needs a modern generation (M9, M10): " +
                     std::string(pmclog::generation_name(gen)) +
                     " kernels have no PMC_F_USERCALLCHAIN and write only the kernel stack of "
                     "a kernel-mode sample");
  if (o.per_process && !o.counting) throw UsageError("--per-process needs --count");
  if (o.list_events) {
    if (!o.command.empty())
      throw UsageError("--list-events takes no command: unexpected argument " +
                       quoted(o.command[0]));
    return o;
  }

  if (!o.cpus.empty() && (!o.pids.empty() || !o.tids.empty()))
    throw UsageError("-C/--cpu and -p/--pid or -t/--tid cannot be used together: -C records "
                     "the whole system on those CPUs");
  if (!o.pids.empty() && !o.tids.empty())
    throw UsageError("-p/--pid and -t/--tid cannot be used together: give the processes or "
                     "the threads");
  if (!o.command.empty() && !o.tids.empty())
    throw UsageError("give either a command or -t/--tid, not both");
  if (o.system_wide && !o.tids.empty())
    throw UsageError("-a/--all-cpus and -t/--tid cannot be used together");
  const int targets = (!o.command.empty()) + (!o.pids.empty()) + (!o.tids.empty());
  if (targets == 0 && !o.system_wide)
    throw UsageError("nothing to profile: give COMMAND [ARGS...], -p PID, -t TID or -a");
  if (!o.command.empty() && !o.pids.empty())
    throw UsageError("give either a command or -p/--pid, not both");
  if (o.system_wide && !o.pids.empty())
    throw UsageError("-a/--all-cpus and -p/--pid cannot be used together");
  if (o.counting && o.system_wide)
    throw UsageError("--count with -a is not supported (system-mode counting PMCs write no "
                     "PROCCSW/PROCEXIT); use --count with a command or -p");
  if (!o.kallsyms.empty()) {
    if (o.counting)
      throw UsageError("--kallsyms names the kernel frames of samples; --count records none");
    if (o.user_only)
      throw UsageError("--kallsyms names kernel frames; --user-only records none");
    const std::string log = o.output.empty() ? kDefaultOutput : o.output;
    struct stat a, b;
    if (o.kallsyms == log || (stat(o.kallsyms.c_str(), &a) == 0 && stat(log.c_str(), &b) == 0 &&
                              a.st_dev == b.st_dev && a.st_ino == b.st_ino && S_ISREG(a.st_mode)))
      throw UsageError("--kallsyms and -o name the same file: " + pmclog::display_path(log));
  }
  if (!o.output.empty() && output_is_terminal(o.output))
    throw UsageError("-o " + pmclog::display_path(o.output) +
                     ": not writing a binary log to a terminal; redirect standard output or "
                     "give -o FILE");
  return o;
}

}  // namespace record
