#include "options.h"

#include <boost/program_options.hpp>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli.h"
#include "events_table.h"

namespace po = boost::program_options;

namespace record {

namespace {

using pmclog::tools::cli::UsageError;
namespace cli = pmclog::tools::cli;

constexpr const char* kTool = "pmclog-record";

constexpr cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-record [options] -- COMMAND [ARGS...]\n"
    "       pmclog-record [options] -p PID[,PID...]\n"
    "       pmclog-record [options] -a [--duration S | -- COMMAND...]\n"
    "       pmclog-record --list-events\n",
    "Profiles with Linux perf_event_open and writes a FreeBSD hwpmc(4) log.\n",
    "  pmclog-record -F 999 -o app.pmclog -- ./app --input x\n"
    "                                 sample a command (and its children) 999 times a second\n"
    "  pmclog-record -e cycles,cache-misses --fallback -- make -j2\n"
    "  pmclog-record -p 1234 --duration 10 -o attach.pmclog\n"
    "  pmclog-record -a --duration 5     the whole system (root or CAP_PERFMON)\n"
    "  pmclog-record --count --per-process -e task-clock -- sh -c 'sort big.txt >/dev/null'\n"
    "  pmclog-record --generation M10 --address-width 8 --byte-order big -- ./app\n"
    "  pmclog-record --list-events\n",
    "  N    with a COMMAND: the command's own exit status, 128+S when signal S killed it\n"
    "       (as a shell reports it); with -p or -a: 0 when the log was written\n"
    "  2    usage error (bad options or values): found before anything runs, so a 2 after\n"
    "       the command ran is the command's own\n"
    "  125  pmclog-record itself failed (events could not be opened, the log could not be\n"
    "       written, no such process)\n"
    "  126  the command was found but cannot be executed\n"
    "  127  the command was not found\n"};

bool parse_pids(const std::string& s, std::vector<pid_t>& out) {
  for (const auto& part : split_list(s)) {
    char* end = nullptr;
    long v = std::strtol(part.c_str(), &end, 10);
    if (!end || *end || v <= 0) return false;
    out.push_back(static_cast<pid_t>(v));
  }
  return !out.empty();
}

// The kernel refuses a higher -F (EINVAL); 0 when it does not say.
uint64_t max_sample_rate() {
  std::ifstream f("/proc/sys/kernel/perf_event_max_sample_rate");
  uint64_t v = 0;
  return f >> v ? v : 0;
}

void parse_into(Options& o, int split, char** argv, int& exit_code) {
  std::string events, pids;
  cli::AbiValues abi;
  uint64_t freq = 0;
  uint64_t period = 0;
  po::options_description sampling("Events and sampling");
  sampling.add_options()
      ("event,e", po::value(&events), "events, comma-separated (default cpu-clock); "
       "hardware: cycles instructions branches branch-misses cache-references cache-misses "
       "ref-cycles rXXXX; software: cpu-clock task-clock page-faults context-switches; "
       "FreeBSD pmc(3) aliases such as unhalted-cycles, branch-mispredicts, dc-misses")
      ("period,c", po::value(&period), "sample every PERIOD events")
      ("freq,F", po::value(&freq), "sample at HZ samples per second (default 1000; at most "
       "kernel.perf_event_max_sample_rate)")
      ("depth", po::value(&o.depth), "callchain depth limit (default 32, capped at the "
       "generation's maximum and kernel.perf_event_max_stack)")
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
       "and PROCEXIT at exit, no samples; prints the totals of the command and all its "
       "descendants")
      ("per-process", po::bool_switch(&o.per_process), "with --count: also print each "
       "process's own counts")
      ("list-events", po::bool_switch(&o.list_events), "list the events and whether this "
       "machine supports them (each is opened to find out)");
  po::options_description target("Target");
  target.add_options()
      ("pid,p", po::value(&pids), "attach to running processes PID[,PID...]")
      ("all-cpus,a", po::bool_switch(&o.system_wide), "profile the whole system (root, "
       "CAP_PERFMON or kernel.perf_event_paranoid <= 0)")
      ("duration", po::value(&o.duration), "stop after SECONDS (a command still running then "
       "gets SIGTERM, and its status is the tool's)");
  po::options_description output("Output");
  output.add_options()
      ("output,o", po::value(&o.output), "output file (default pmclog.out; an existing "
       "default file is kept as pmclog.out.old)")
      ("mmap-pages", po::value(&o.mmap_pages), "ring buffer data pages per CPU, a power of "
       "two (default 64)")
      ("quiet,q", po::bool_switch(&o.quiet), "no summary on stderr");
  // The log is this machine's: no --time-width (Abi::make gives the usual time_t).
  cli::AbiOptionSet abi_set;
  abi_set.time_width = false;
  abi_set.address_slot = false;  // this machine writes whole slots
  abi_set.generation_default = "M10, what FreeBSD writes today; M means M10; L3 for "
                               "FreeBSD 9.2-11 readers; L1 has no callchains";
  abi_set.address_width_default = "this machine's; 4 only on a 32-bit one";
  abi_set.byte_order_default = "this machine's";
  po::options_description visible;
  visible.add(cli::general_options()).add(sampling).add(target).add(output).add(
      cli::abi_options(abi, abi_set));
  po::options_description hidden;
  hidden.add_options()("args", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("args", -1);

  const po::variables_map vm = cli::parse(split, argv, all, &pos);
  if (cli::print_help_or_version(vm, kHelp, visible, std::cout)) {
    exit_code = 0;
    return;
  }
  if (vm.count("args")) {
    // A command given without "--": its own options would have been taken for ours.
    auto args = vm["args"].as<std::vector<std::string>>();
    if (!o.command.empty()) throw UsageError("unexpected argument '" + args[0] + "' before --");
    o.command = args;
  }
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
    for (const auto& [other, s] : seen)
      if (s.type == spec->type && s.config == spec->config)
        throw UsageError("-e names the same event twice: '" + other +
                         (other == name ? "'" : "' and '" + name + "' (" + spec->name + ")"));
    seen.emplace_back(name, *spec);
  }
  if (vm.count("period")) {
    if (period == 0) throw UsageError("-c PERIOD must be at least 1");
    o.period = period;
  }
  if (vm.count("freq")) {
    if (o.period) throw UsageError("-c and -F exclude each other");
    if (freq < 1) throw UsageError("-F HZ must be at least 1");
    const uint64_t max = max_sample_rate();
    if (max && freq > max)
      throw UsageError("-F " + std::to_string(freq) + ": above this machine's maximum of " +
                       std::to_string(max) + " (kernel.perf_event_max_sample_rate)");
    o.frequency = freq;
  }
  if (vm.count("pid") && !parse_pids(pids, o.pids)) throw UsageError("-p needs PID[,PID...]");
  if (vm.count("depth")) {
    o.depth_given = true;
    if (o.depth == 0) throw UsageError("--depth must be at least 1");
  }
  const pmclog::AbiHint hint = cli::abi_hint(abi);
  pmclog::Generation gen = pmclog::Generation::M10;  // what FreeBSD's kernel writes today
  if (hint.generation) gen = *hint.generation;
  if (gen == pmclog::Generation::L1)
    throw UsageError("--generation must be L2, L3, M9, M10 or M (L1 has no callchains)");
  const uint8_t width = hint.address_width.value_or(sizeof(void*));
  if (width < sizeof(void*))
    throw UsageError("--address-width 4 cannot hold this machine's 64-bit addresses; use 8");
  const auto order = hint.byte_order.value_or(
      std::endian::native == std::endian::little ? pmclog::ByteOrder::little
                                                 : pmclog::ByteOrder::big);
  o.abi = pmclog::Abi::make(gen, width, order);
  if (o.mmap_pages == 0 || (o.mmap_pages & (o.mmap_pages - 1)))
    throw UsageError("--mmap-pages must be a power of two");
  if (o.duration < 0) throw UsageError("--duration must be positive");
  if (o.user_callchain && o.abi.legacy())
    throw UsageError("--user-callchain needs a modern generation (M9, M10): " +
                     std::string(pmclog::generation_name(gen)) +
                     " kernels have no PMC_F_USERCALLCHAIN and write only the kernel stack of "
                     "a kernel-mode sample");
  if (o.user_callchain && o.counting)
    throw UsageError("--user-callchain is for sampling; --count takes no callchains");
  if (o.per_process && !o.counting) throw UsageError("--per-process needs --count");
  if (o.list_events) return;

  const int targets = (!o.command.empty()) + (!o.pids.empty());
  if (targets == 0 && !o.system_wide)
    throw UsageError("nothing to profile: give -- COMMAND, -p PID or -a");
  if (!o.command.empty() && !o.pids.empty())
    throw UsageError("give either a command or -p, not both");
  if (o.system_wide && !o.pids.empty()) throw UsageError("-a and -p exclude each other");
  if (o.counting && o.system_wide)
    throw UsageError("--count with -a is not supported (system-mode counting PMCs write no "
                     "PROCCSW/PROCEXIT); use --count with a command or -p");
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options o;
  // Everything after "--" is the command, untouched by option parsing.
  int split = argc;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      split = i;
      break;
    }
  for (int i = split + 1; i < argc; ++i) o.command.emplace_back(argv[i]);
  exit_code = -1;  // set to 0 by --help/--version
  const int code = cli::catch_usage_errors(kTool, [&] {
    parse_into(o, split, argv, exit_code);
    return 0;
  });
  if (code != 0) {
    exit_code = code;
    return std::nullopt;
  }
  if (exit_code == 0) return std::nullopt;
  return o;
}

}  // namespace record
