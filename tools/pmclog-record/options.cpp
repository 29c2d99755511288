#include "options.h"

#include <boost/program_options.hpp>

#include <bit>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "events_table.h"
#include "pmclog/text.h"

namespace po = boost::program_options;

namespace record {

namespace {

const char* kUsage =
    "Usage: pmclog-record [options] -- COMMAND [ARGS...]\n"
    "       pmclog-record [options] -p PID[,PID...]\n"
    "       pmclog-record [options] -a [--duration S | -- COMMAND...]\n"
    "Profiles with Linux perf_event_open and writes a FreeBSD hwpmc(4) log.\n";

bool parse_pids(const std::string& s, std::vector<pid_t>& out) {
  for (const auto& part : split_list(s)) {
    char* end = nullptr;
    long v = std::strtol(part.c_str(), &end, 10);
    if (!end || *end || v <= 0) return false;
    out.push_back(static_cast<pid_t>(v));
  }
  return !out.empty();
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

  std::string events, pids, generation = "L3", byte_order;
  unsigned width = sizeof(void*);
  double freq = 0;
  uint64_t period = 0;
  po::options_description desc("Options");
  desc.add_options()
      ("help,h", "show this help")
      ("version,V", "show the version")
      ("event,e", po::value(&events), "events, comma-separated (default cpu-clock); "
       "hardware: cycles instructions branches branch-misses cache-references cache-misses "
       "ref-cycles rXXXX; software: cpu-clock task-clock page-faults context-switches; "
       "FreeBSD pmc(3) aliases such as unhalted-cycles, branch-mispredicts, dc-misses")
      ("period,c", po::value(&period), "sample every PERIOD events")
      ("freq,F", po::value(&freq), "sample at HZ samples per second (default 1000)")
      ("output,o", po::value(&o.output), "output file (default pmclog.out; an existing "
       "default file is kept as pmclog.out.old)")
      ("pid,p", po::value(&pids), "attach to running processes PID[,PID...]")
      ("all-cpus,a", po::bool_switch(&o.system_wide), "profile the whole system (root, "
       "CAP_PERFMON or kernel.perf_event_paranoid <= 0)")
      ("duration", po::value(&o.duration), "stop after SECONDS (a command still running then "
       "gets SIGTERM, and its status is the tool's)")
      ("generation", po::value(&generation), "log generation: L2, L3 (default), M9, M10 "
       "(M = M10)")
      ("address-width", po::value(&width), "address width in bytes, 4 or 8 (default: this "
       "machine's)")
      ("byte-order", po::value(&byte_order), "little or big (default: this machine's)")
      ("depth", po::value(&o.depth), "callchain depth limit (default 32, capped at the "
       "generation's maximum and kernel.perf_event_max_stack)")
      ("count", po::bool_switch(&o.counting), "counting mode: PROCCSW at each context switch "
       "and PROCEXIT at exit, no samples; prints the totals of the command and all its "
       "descendants")
      ("per-process", po::bool_switch(&o.per_process), "with --count: also print each "
       "process's own counts")
      ("user-callchain", po::bool_switch(&o.user_callchain), "kernel-mode samples also keep "
       "the user-space frames, after the kernel ones (PMC_F_USERCALLCHAIN, pmcstat -U; M9, "
       "M10 only)")
      ("fallback", po::bool_switch(&o.fallback), "replace hardware events that this machine "
       "lacks by the nearest software event")
      ("user-only", po::bool_switch(&o.user_only), "record user-space frames only")
      ("mmap-pages", po::value(&o.mmap_pages), "ring buffer data pages per CPU, a power of "
       "two (default 64)")
      ("list-events", po::bool_switch(&o.list_events), "list the events and whether this "
       "machine supports them (each is opened to find out)")
      ("quiet,q", po::bool_switch(&o.quiet), "no summary on stderr");
  po::options_description hidden;
  hidden.add_options()("args", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("args", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(split, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    // option values are echoed: untrusted text like file names
    std::fprintf(stderr, "pmclog-record: %s\n%s(see --help)\n",
                 pmclog::terminal_safe(e.what()).c_str(), kUsage);
    exit_code = 2;
    return std::nullopt;
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << desc << "\n";
    exit_code = 0;
    return std::nullopt;
  }
  if (vm.count("version")) {
    std::cout << "pmclog-record " << PMCLOG_RECORD_VERSION << "\n";
    exit_code = 0;
    return std::nullopt;
  }
  auto fail = [&](const std::string& m) {
    std::fprintf(stderr, "pmclog-record: %s\n", pmclog::terminal_safe(m).c_str());
    exit_code = 2;
    return std::nullopt;
  };
  if (vm.count("args")) {
    // A command given without "--": its own options would have been taken for ours.
    auto args = vm["args"].as<std::vector<std::string>>();
    if (!o.command.empty()) return fail("unexpected argument '" + args[0] + "' before --");
    o.command = args;
  }
  if (vm.count("event")) {
    o.events = split_list(events);
    o.events_given = true;
    if (o.events.empty()) return fail("-e needs at least one event name");
  }
  if (vm.count("period")) {
    if (period == 0) return fail("-c PERIOD must be at least 1");
    o.period = period;
  }
  if (vm.count("freq")) {
    if (o.period) return fail("-c and -F exclude each other");
    if (freq < 1) return fail("-F HZ must be at least 1");
    o.frequency = static_cast<uint64_t>(freq);
  }
  if (vm.count("pid") && !parse_pids(pids, o.pids)) return fail("-p needs PID[,PID...]");
  if (vm.count("depth")) {
    o.depth_given = true;
    if (o.depth == 0) return fail("--depth must be at least 1");
  }
  std::string g = generation;
  if (g == "M" || g == "m") g = "M10";
  auto gen = pmclog::parse_generation(g);
  if (!gen || *gen == pmclog::Generation::L1)
    return fail("--generation must be L2, L3, M9, M10 or M (L1 has no callchains)");
  if (width != 4 && width != 8) return fail("--address-width must be 4 or 8");
  if (width < sizeof(void*))
    return fail("--address-width 4 cannot hold this machine's 64-bit addresses; use 8");
  auto order = std::endian::native == std::endian::little ? pmclog::ByteOrder::little
                                                           : pmclog::ByteOrder::big;
  if (!byte_order.empty()) {
    auto bo = pmclog::parse_byte_order(byte_order);
    if (!bo) return fail("--byte-order must be little or big");
    order = *bo;
  }
  o.abi = pmclog::Abi::make(*gen, static_cast<uint8_t>(width), order);
  if (o.mmap_pages == 0 || (o.mmap_pages & (o.mmap_pages - 1)))
    return fail("--mmap-pages must be a power of two");
  if (o.duration < 0) return fail("--duration must be positive");
  if (o.user_callchain && o.abi.legacy())
    return fail("--user-callchain needs a modern generation (M9, M10): " +
                std::string(pmclog::generation_name(*gen)) +
                " kernels have no PMC_F_USERCALLCHAIN and write only the kernel stack of a "
                "kernel-mode sample");
  if (o.user_callchain && o.counting)
    return fail("--user-callchain is for sampling; --count takes no callchains");
  if (o.per_process && !o.counting) return fail("--per-process needs --count");
  if (o.list_events) return o;

  const int targets = (!o.command.empty()) + (!o.pids.empty());
  if (targets == 0 && !o.system_wide)
    return fail(std::string("nothing to profile: give -- COMMAND, -p PID or -a\n") + kUsage);
  if (!o.command.empty() && !o.pids.empty()) return fail("give either a command or -p, not both");
  if (o.system_wide && !o.pids.empty()) return fail("-a and -p exclude each other");
  return o;
}

}  // namespace record
