// pmclog-write: JSON Lines back to exact log bytes, and synthetic logs of any ABI.
//   pmclog-write [options] [IN.jsonl|-] -o OUT|-
//   pmclog-write synth [options] -o OUT|-
// Exit status: 0 ok, 1 bad input data, 2 usage or I/O error (usage: tools/common/cli.h).
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

#include "cli.h"
#include "fault_injection.h"
#include "json_input.h"
#include "output_file.h"
#include "pmclog/open.h"
#include "pmclog/text.h"
#include "progress.h"
#include "record_stream.h"
#include "same_file.h"
#include "size_parse.h"
#include "synth_container.h"
#include "synth_model.h"
#include "temp_cleanup.h"
#include "tool_error.h"

namespace po = boost::program_options;
using namespace pmclog;
using namespace pmclog::write;
using pmclog::tools::cli::UsageError;

namespace {

constexpr const char* kTool = "pmclog-write";

constexpr tools::cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-write [options] [IN.jsonl|-] -o OUT|-\n"
    "       pmclog-write synth [options] -o OUT|-\n",
    "The first form reads JSON Lines (pmclog-dump --format=jsonl, docs/jsonl.md) and writes\n"
    "the log bytes; a dump of a log that decodes cleanly comes back byte for byte. Fields\n"
    "that can be derived may be left out. The second form writes a realistic synthetic log.\n"
    "A regular output file is written under a temporary name and renamed when complete\n"
    "(a symlink's target is replaced); a device, FIFO or standard output is written\n"
    "through. An output that is the input is refused.\n",
    "  pmclog-write --generation M10 --address-width 4 --byte-order big in.jsonl -o out.pmclog\n"
    "  pmclog-dump --format=jsonl pmc.log | pmclog-write - -o copy.pmclog\n"
    "                                        JSON Lines back to the same bytes\n"
    "  pmclog-write synth -n 100000 --generation L3 -o synth.pmclog\n"
    "  pmclog-write synth --size 1GiB --processes 40 --events 2 -o big.pmclog\n"
    "  pmclog-write synth -n 5000 --inject bad-length:0.01 --inject-log faults.json -o bad.pmclog\n",
    "  0  the log was written\n"
    "  1  bad input data (the line number, field and reason on stderr; nothing is written)\n"
    "  2  usage or I/O error\n"};

// The ABI options as JsonOptions (which synth uses too); "M" sets `modern`.
void apply_abi(const tools::cli::AbiValues& v, JsonOptions& j) {
  const AbiHint h = tools::cli::abi_hint(v);
  j.generation = h.generation;
  j.modern = h.modern;
  j.address_width = h.address_width;
  j.address_slot = h.address_slot;
  j.byte_order = h.byte_order;
}

std::vector<FaultSpec> parse_faults(const std::vector<std::string>& specs) {
  std::vector<FaultSpec> out;
  for (const std::string& s : specs) {
    std::string why;
    auto f = parse_fault(s, why);
    if (!f) throw UsageError("--inject " + s + ": " + why);
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
  tools::cli::AbiValues abis;
  std::vector<std::string> injects;
  uint64_t seed = 1;
  unsigned processes = 8, events = 1, cpus = 4;

  po::options_description common("Output and faults");
  common.add_options()
      ("output,o", po::value(&output), "output log file, or - for standard output (required)")
      ("inject", po::value(&injects)->composing(),
       "damage the log: KIND[:RATE|@OFFSET], KIND one of truncate bad-magic bad-length "
       "unknown-type unterminated-string overlong-callchain time-backwards (repeatable)")
      ("inject-log", po::value(&inject_log), "write the list of injected faults (JSON) here")
      ("seed", po::value(&seed), "random seed for synth and fault injection (default 1)")
      ("file", po::value<std::string>(), "multi-file JSON Lines: write the records of this \"file\"")
      ("quiet,q", "no notes and no progress bar");
  tools::cli::AbiOptionSet abi_set;
  abi_set.generation_default = "JSON: from the input, else L3; synth: M10";
  abi_set.address_width_default = "JSON: from the input; else 8";
  abi_set.byte_order_default = "little";
  abi_set.time_width_default = "synth only; 4 for 32-bit little-endian (i386), else 8";
  // Short names (-p -e -d) are left out: in perf and pmclog-record they mean pid, event, data.
  po::options_description synth_opts("synth options");
  synth_opts.add_options()
      ("records,n", po::value(&records_s), "exact number of records (default 10000 without --size)")
      ("size,s", po::value(&size_s), "size budget, e.g. 4GiB (the log is at most this long)")
      ("processes", po::value(&processes), "live processes, the shell included (default 8)")
      ("depth", po::value(&depth_s), "callchain depth MIN..MAX (default 2..16)")
      ("events", po::value(&events), "sampled events, 1 to 8 (default 1)")
      ("cpus", po::value(&cpus), "CPUs (default 4)")
      ("ibs", "multipart (AMD IBS) callchains for a share of the samples: IBS_OP or "
              "IBS_FETCH, then the CALLCHAIN (modern generations)")
      ("cpu-buffer-size", po::value(&cpubuf_s),
       "modern per-CPU log buffer size (default 256KiB, at least 8KiB)")
      ("container", "a PMCL container in front of the log, as pmc record writes (format.md "
       "§18): arch from the ABI, plausible SYSINFO and (x86) CPUID facts");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&input));
  po::positional_options_description pos;
  pos.add("input", 1);

  po::options_description visible;
  visible.add(tools::cli::general_options()).add(common).add(tools::cli::abi_options(abis, abi_set))
      .add(synth_opts);
  po::options_description all;
  all.add(visible).add(hidden);
  // "synth" is the mode, not an input file: the options after it are parsed.
  const po::variables_map vm = tools::cli::parse(synth ? argc - 1 : argc, synth ? argv + 1 : argv,
                                                 all, synth ? nullptr : &pos);
  if (tools::cli::print_help_or_version(vm, kHelp, visible, std::cout)) return 0;
  if (output.empty()) throw UsageError("-o OUT is required");
  const bool quiet = vm.count("quiet") > 0;
  if (!synth) {
    for (const char* o : {"records", "size", "processes", "depth", "events", "cpus",
                          "cpu-buffer-size", "time-width", "ibs", "container"})
      if (vm.count(o)) throw UsageError(std::string("--") + o + " is a synth option");
  }
  if (!inject_log.empty() && injects.empty()) throw UsageError("--inject-log needs --inject");

  JsonOptions jopt;
  jopt.quiet = quiet;
  if (vm.count("file")) jopt.file = vm["file"].as<std::string>();
  apply_abi(abis, jopt);
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
    const uint8_t slot = jopt.address_slot.value_or(w);
    const ByteOrder o = jopt.byte_order.value_or(ByteOrder::little);
    s.abi = Abi{g, w, o, abis.time_width ? static_cast<uint8_t>(abis.time_width) : default_time_width(slot, o)};
    if (slot != w) s.abi.address_slot = slot;
    if (!valid_address_form(s.abi))
      throw UsageError("--address-slot " + std::to_string(slot) + " with --address-width " +
                       std::to_string(w) + ": only 4-byte addresses in 8-byte slots differ");
    if (!records_s.empty()) {
      auto n = parse_size(records_s);
      if (!n || *n == 0) throw UsageError("--records: '" + records_s + "' is not a count");
      s.records = *n;
    }
    if (!size_s.empty()) {
      auto n = parse_size(size_s);
      if (!n || *n == 0) throw UsageError("--size: '" + size_s + "' is not a size");
      s.size = *n;
    }
    if (!s.records && !s.size) s.records = 10000;
    const auto d = parse_range(depth_s);
    if (!d) throw UsageError("--depth: '" + depth_s + "' is not MIN..MAX");
    s.depth_min = d->first;
    s.depth_max = d->second;
    const auto cb = parse_size(cpubuf_s);
    if (!cb || *cb < 8192 || *cb > (1u << 30))
      throw UsageError("--cpu-buffer-size: '" + cpubuf_s + "' is not 8KiB to 1GiB");
    s.cpu_buffer_size = *cb;
    s.processes = processes;
    s.events = events;
    s.cpus = cpus;
    s.seed = seed;
    s.ibs = vm.count("ibs") > 0;
    OutputFile out;
    open_output(out, output, inputs, /*spool=*/false);
    if (!faults.empty()) injector = std::make_unique<FaultInjector>(s.abi, faults, seed);
    progress = std::make_unique<Progress>(!quiet && Progress::stderr_is_terminal(), s.size,
                                          s.records);
    stream = std::make_unique<RecordStream>(out, injector.get(), progress.get());
    if (vm.count("container")) {
      std::vector<uint8_t> bytes;
      encode_container(synth_container(s.abi, seed), bytes);
      stream->write_raw(bytes);
    }
    run_synth(s, *stream);
    stream->finish();
    throw_if_failed(out.commit());
  } else {
    // The library's opening path, as every tool: "(stdin)", gzip/zstd/xz/bzip2 JSON Lines.
    auto opened = pmclog::open_input_bytes(input, "JSON Lines");
    if (!opened)
      throw ToolError(opened.error().code == pmclog::Errc::io ? kExitUsageOrIo : kExitBadData,
                      opened.error().message);
    const std::string& name = opened->display_name;  // escaped: a name is untrusted text
    // A rejected line must leave nothing behind, standard output included: spool it.
    OutputFile out;
    open_output(out, output, inputs, /*spool=*/true);
    convert_jsonl(*opened->source, name, jopt, [&](const Abi& abi) -> RecordStream& {
      if (!faults.empty()) injector = std::make_unique<FaultInjector>(abi, faults, seed);
      progress = std::make_unique<Progress>(!quiet && Progress::stderr_is_terminal(), 0, 0);
      stream = std::make_unique<RecordStream>(out, injector.get(), progress.get());
      return *stream;
    });
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
    return tools::cli::catch_usage_errors(kTool, [&] { return run(argc, argv); });
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
