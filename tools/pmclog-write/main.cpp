// pmclog-write: JSON Lines back to exact log bytes, and synthetic logs of any ABI.
//   pmclog-write [options] [IN.jsonl|-] -o OUT|-
//   pmclog-write synth [options] -o OUT|-
// Exit status: 0 ok, 1 bad input data, 2 usage or I/O error.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "fault_injection.h"
#include "json_input.h"
#include "output_file.h"
#include "pmclog/text.h"
#include "progress.h"
#include "record_stream.h"
#include "same_file.h"
#include "size_parse.h"
#include "synth_model.h"
#include "temp_cleanup.h"
#include "tool_error.h"

namespace po = boost::program_options;
using namespace pmclog;
using namespace pmclog::write;

namespace {

constexpr const char* kUsage =
    "Usage: pmclog-write [options] [IN.jsonl|-] -o OUT|-\n"
    "       pmclog-write synth [options] -o OUT|-\n"
    "\n"
    "The first form reads JSON Lines (pmclog-dump --format=jsonl, docs/jsonl.md) and writes\n"
    "the log bytes; a dump of a log that decodes cleanly comes back byte for byte. Fields\n"
    "that can be derived may be left out. The second form writes a realistic synthetic log.\n"
    "A regular output file is written under a temporary name and renamed when complete\n"
    "(a symlink's target is replaced); a device, FIFO or standard output is written\n"
    "through. An output that is the input is refused.\n";

struct Abis {
  std::string generation, byte_order;
  unsigned address_width = 0;
};

// Applies --generation/--address-width/--byte-order; `modern` is set for "M".
void parse_abi_options(const Abis& a, JsonOptions& j) {
  if (!a.generation.empty()) {
    if (a.generation == "M" || a.generation == "m") {
      j.modern = true;
    } else if (auto g = parse_generation(a.generation)) {
      j.generation = g;
    } else {
      throw ToolError(kExitUsageOrIo, "--generation: '" + a.generation +
                                          "' is not one of L1 L2 L3 M9 M10 M");
    }
  }
  if (a.address_width) {
    if (a.address_width != 32 && a.address_width != 64 && a.address_width != 4 &&
        a.address_width != 8)
      throw ToolError(kExitUsageOrIo, "--address-width must be 32 or 64");
    j.address_width = static_cast<uint8_t>(a.address_width >= 32 ? a.address_width / 8 : a.address_width);
  }
  if (!a.byte_order.empty()) {
    j.byte_order = parse_byte_order(a.byte_order);
    if (!j.byte_order) throw ToolError(kExitUsageOrIo, "--byte-order must be little or big");
  }
}

std::vector<FaultSpec> parse_faults(const std::vector<std::string>& specs) {
  std::vector<FaultSpec> out;
  for (const std::string& s : specs) {
    std::string why;
    auto f = parse_fault(s, why);
    if (!f) throw ToolError(kExitUsageOrIo, "--inject " + s + ": " + why);
    out.push_back(*f);
  }
  return out;
}

// `inputs` are refused as outputs; `spool` holds back a written-through output until commit.
void open_output(OutputFile& f, const std::string& path, const std::vector<std::string>& inputs,
                 bool spool) {
  tools::OutputOptions o;
  o.inputs = inputs;
  o.spool_write_through = spool;
  throw_if_failed(f.open(path, o));
}

int run(int argc, char** argv) {
  const bool synth = argc > 1 && std::string(argv[1]) == "synth";
  std::string output, input = "-", inject_log, records_s, size_s, depth_s = "2..16", cpubuf_s = "256KiB";
  Abis abis;
  std::vector<std::string> injects;
  uint64_t seed = 1;
  unsigned processes = 8, events = 1, cpus = 4;

  po::options_description common("Options");
  common.add_options()
      ("help,h", "show this help")
      ("version", "show the version")
      ("output,o", po::value(&output), "output log file, or - for standard output (required)")
      ("generation,g", po::value(&abis.generation),
       "L1 L2 L3 M9 M10, or M (M9/M10 by the INITIALIZE version); JSON: default from the "
       "input, synth: M10")
      ("address-width,w", po::value(&abis.address_width), "32 or 64 (default: from the input, else 64)")
      ("byte-order,b", po::value(&abis.byte_order), "little or big (default little)")
      ("inject", po::value(&injects)->composing(),
       "damage the log: KIND[:RATE|@OFFSET], KIND one of truncate bad-magic bad-length "
       "unknown-type unterminated-string overlong-callchain time-backwards (repeatable)")
      ("inject-log", po::value(&inject_log), "write the list of injected faults (JSON) here")
      ("seed", po::value(&seed), "random seed for synth and fault injection (default 1)")
      ("quiet,q", "no notes and no progress bar");
  po::options_description synth_opts("synth options");
  synth_opts.add_options()
      ("records,n", po::value(&records_s), "exact number of records (default 10000 without --size)")
      ("size,s", po::value(&size_s), "size budget, e.g. 4GiB (the log is at most this long)")
      ("processes,p", po::value(&processes), "live processes, the shell included (default 8)")
      ("depth,d", po::value(&depth_s), "callchain depth MIN..MAX (default 2..16)")
      ("events,e", po::value(&events), "sampled events, 1 to 8 (default 1)")
      ("cpus", po::value(&cpus), "CPUs (default 4)")
      ("cpu-buffer-size", po::value(&cpubuf_s),
       "modern per-CPU log buffer size (default 256KiB, at least 8KiB)");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&input));
  po::positional_options_description pos;
  pos.add("input", 1);

  po::options_description all;
  all.add(common).add(synth_opts).add(hidden);
  po::variables_map vm;
  try {
    auto parser = po::command_line_parser(synth ? argc - 1 : argc, synth ? argv + 1 : argv)
                      .options(all);
    if (!synth) parser.positional(pos);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw ToolError(kExitUsageOrIo, std::string(e.what()) + " (see --help)");
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << common << "\n" << synth_opts;
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "pmclog-write " << PMCLOG_WRITE_VERSION << "\n";
    return 0;
  }
  if (output.empty()) throw ToolError(kExitUsageOrIo, "-o OUT is required (see --help)");
  const bool quiet = vm.count("quiet") > 0;
  if (!synth) {
    for (const char* o : {"records", "size", "processes", "depth", "events", "cpus", "cpu-buffer-size"})
      if (vm.count(o)) throw ToolError(kExitUsageOrIo, std::string("--") + o + " is a synth option");
  }
  if (!inject_log.empty() && injects.empty())
    throw ToolError(kExitUsageOrIo, "--inject-log needs --inject");

  JsonOptions jopt;
  jopt.quiet = quiet;
  parse_abi_options(abis, jopt);
  const auto faults = parse_faults(injects);
  // Refused before anything is written: "-o same.jsonl same.jsonl" would destroy the input.
  const std::vector<std::string> inputs = synth ? std::vector<std::string>{}
                                                : std::vector<std::string>{input};
  throw_if_failed(tools::refuse_same_file(output, inputs));
  if (!inject_log.empty()) throw_if_failed(tools::refuse_same_file(inject_log, inputs));

  std::unique_ptr<FaultInjector> injector;
  std::unique_ptr<Progress> progress;
  std::unique_ptr<RecordStream> stream;
  // Output only after the options are known good: a usage error creates no file.
  if (synth) {
    SynthOptions s;
    const Generation g = jopt.generation.value_or(Generation::M10);
    const uint8_t w = jopt.address_width.value_or(8);
    const ByteOrder o = jopt.byte_order.value_or(ByteOrder::little);
    s.abi = Abi{g, w, o, default_time_width(w, o)};
    if (!records_s.empty()) {
      auto n = parse_size(records_s);
      if (!n || *n == 0) throw ToolError(kExitUsageOrIo, "--records: '" + records_s + "' is not a count");
      s.records = *n;
    }
    if (!size_s.empty()) {
      auto n = parse_size(size_s);
      if (!n || *n == 0) throw ToolError(kExitUsageOrIo, "--size: '" + size_s + "' is not a size");
      s.size = *n;
    }
    if (!s.records && !s.size) s.records = 10000;
    const auto d = parse_range(depth_s);
    if (!d) throw ToolError(kExitUsageOrIo, "--depth: '" + depth_s + "' is not MIN..MAX");
    s.depth_min = d->first;
    s.depth_max = d->second;
    const auto cb = parse_size(cpubuf_s);
    if (!cb || *cb < 8192 || *cb > (1u << 30))
      throw ToolError(kExitUsageOrIo, "--cpu-buffer-size: '" + cpubuf_s + "' is not 8KiB to 1GiB");
    s.cpu_buffer_size = *cb;
    s.processes = processes;
    s.events = events;
    s.cpus = cpus;
    s.seed = seed;
    OutputFile out;
    open_output(out, output, inputs, /*spool=*/false);
    if (!faults.empty()) injector = std::make_unique<FaultInjector>(s.abi, faults, seed);
    progress = std::make_unique<Progress>(!quiet && Progress::stderr_is_terminal(), s.size,
                                          s.records);
    stream = std::make_unique<RecordStream>(out, injector.get(), progress.get());
    run_synth(s, *stream);
    stream->finish();
    throw_if_failed(out.commit());
  } else {
    int fd = STDIN_FILENO;
    if (input != "-") {
      fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        throw ToolError(kExitUsageOrIo,
                        "cannot open " + display_path(input) + ": " + std::strerror(errno));
    }
    // as messages show it: a name is untrusted text
    const std::string name = input == "-" ? "<stdin>" : display_path(input);
    // A rejected line must leave nothing behind, standard output included: spool it.
    OutputFile out;
    open_output(out, output, inputs, /*spool=*/true);
    convert_jsonl(fd, name, jopt, [&](const Abi& abi) -> RecordStream& {
      if (!faults.empty()) injector = std::make_unique<FaultInjector>(abi, faults, seed);
      progress = std::make_unique<Progress>(!quiet && Progress::stderr_is_terminal(), 0, 0);
      stream = std::make_unique<RecordStream>(out, injector.get(), progress.get());
      return *stream;
    });
    if (fd != STDIN_FILENO) close(fd);
    if (!stream) {  // empty input: an empty log
      stream = std::make_unique<RecordStream>(out, nullptr, nullptr);
    }
    stream->finish();
    throw_if_failed(out.commit());
  }
  if (!inject_log.empty() && injector) {
    tools::OutputOptions o;
    o.inputs = inputs;
    throw_if_failed(tools::write_whole_file(inject_log, injector->listing_json(), o));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  tools::install_cleanup_signal_handlers();
  try {
    return run(argc, argv);
  } catch (const ClosedPipe&) {
    return 0;  // the reader stopped reading: quiet, as pmclog-dump (tools/common/README.md)
  } catch (const ToolError& e) {
    std::cerr << "pmclog-write: " << terminal_safe(e.what()) << "\n";
    return e.exit_code;
  } catch (const std::bad_alloc&) {
    std::cerr << "pmclog-write: out of memory\n";
    return kExitUsageOrIo;
  } catch (const std::exception& e) {
    std::cerr << "pmclog-write: " << terminal_safe(e.what()) << "\n";
    return kExitUsageOrIo;
  }
}
