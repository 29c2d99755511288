// pmclog-write: JSON Lines back to exact log bytes, and synthetic logs of any ABI.
//   pmclog-write [options] [IN.jsonl|-] -o OUT|-
//   pmclog-write synth [options] -o OUT|-
// Exit status: 0 ok, 1 bad input data, 2 usage or I/O error (tools/common/exit_status.h).
#include <unistd.h>

#include <charconv>
#include <memory>
#include <optional>
#include <set>
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
#include "run_main.h"
#include "same_file.h"
#include "size_parse.h"
#include "synth_container.h"
#include "synth_model.h"
#include "tool_error.h"

namespace po = boost::program_options;
using namespace pmclog;
using namespace pmclog::write;
using pmclog::tools::Exit;
using pmclog::tools::Failure;
using pmclog::tools::UsageError;
using pmclog::tools::throw_if_failed;

namespace {

constexpr const char* kTool = "pmclog-write";

constexpr tools::cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-write [options] [IN.jsonl|-] -o OUT|-\n"
    "       pmclog-write synth [options] -o OUT|-\n",
    "The first form reads JSON Lines (pmclog-dump --format=jsonl, docs/jsonl.md) and writes\n"
    "the log bytes; a dump of a log that decodes cleanly comes back byte for byte. Fields\n"
    "that can be derived may be left out. Without IN, standard input is read (not a\n"
    "terminal). The second form writes a realistic synthetic log; 'synth' comes first.\n"
    "A regular output file is written under a temporary name and renamed when complete\n"
    "(a symlink's target is replaced); a device, FIFO or standard output is written\n"
    "through (never a terminal: the log is binary). An output that is the input is refused.\n"
    "A fault given at an offset (KIND@OFFSET) that finds no record to damage is an error,\n"
    "and nothing is written. On a terminal, a run longer than a second shows its progress.\n",
    "  pmclog-write --generation M10 --address-width 4 --byte-order big in.jsonl -o out.pmclog\n"
    "  pmclog-dump --format=jsonl pmc.log | pmclog-write - -o copy.pmclog\n"
    "                                        JSON Lines back to the same bytes\n"
    "  pmclog-write synth -n 100000 --generation L3 -o synth.pmclog\n"
    "  pmclog-write synth --size 1GiB --processes 40 --events 2 -o big.pmclog\n"
    "  pmclog-write synth -n 5000 --inject bad-length:0.01 --inject-log faults.json -o bad.pmclog\n",
    "  0  the log was written\n"
    "  1  bad input data (the line number, field and reason on stderr; nothing is written)\n"
    "  2  usage or I/O error, or a fault at an offset that found no record (nothing is\n"
    "     written)\n"};

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

// A decimal number from `lo` to `hi`; "-1" is refused, not wrapped as program_options would.
uint64_t parse_number(const char* option, const std::string& text, uint64_t lo, uint64_t hi) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < lo || v > hi) {
    throw UsageError(hi == UINT64_MAX
                         ? fmt::format("{}: '{}' is not a number of {} or more", option, text, lo)
                         : fmt::format("{}: '{}' is not {} to {}", option, text, lo, hi));
  }
  return v;
}

// `inputs` are refused as outputs; `spool` holds back a written-through output until commit.
void open_output(OutputFile& f, const std::string& path, const std::vector<std::string>& inputs,
                 bool spool) {
  tools::OutputOptions o;
  o.inputs = inputs;
  o.spool_write_through = spool;
  throw_if_failed(f.open(path, o));
}

// An argument as a shell would need it quoted, for a command line in a message.
std::string shell_word(const std::string& a) {
  const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                                       "QRSTUVWXYZ0123456789_-./:=@%+,") ==
                                       std::string::npos;
  if (plain) return a;
  std::string s = "'";
  for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return s + "'";
}

// "pmclog-write -q synth -n 5 ...": the options before "synth" were parsed as the JSON mode's
// and "synth" as its input file. The message gives the command as it should be.
[[noreturn]] void subcommand_not_first(int argc, char** argv, const po::options_description& all) {
  std::set<std::string> with_value;  // "-o", "--output": their next word is a value
  for (const auto& od : all.options()) {
    if (od->semantic()->max_tokens() == 0) continue;
    with_value.insert("--" + od->long_name());
    const std::string shown = od->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (shown.size() == 2 && shown[0] == '-') with_value.insert(shown);
  }
  std::string cmd = std::string(kTool) + " synth";
  bool moved = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (!moved && a == "synth" && !(i > 1 && with_value.count(argv[i - 1]))) {
      moved = true;
      continue;
    }
    cmd += ' ' + shell_word(a);
  }
  throw UsageError("the subcommand comes first: " + cmd +
                   " (a JSON Lines file named 'synth' is ./synth)");
}

int run(int argc, char** argv) {
  const bool synth = argc > 1 && std::string(argv[1]) == "synth";
  std::string output, inject_log, records_s, size_s, depth_s = "2..16", cpubuf_s = "256KiB";
  std::string seed_s = "1", processes_s = "8", events_s = "1", cpus_s = "4";
  std::vector<std::string> positionals;
  tools::cli::AbiValues abis;
  std::vector<std::string> injects;

  po::options_description common("Output and faults");
  common.add_options()
      ("output,o", po::value(&output)->value_name("FILE"),
       "output log file, or - for standard output (a pipe or a file, not a terminal; "
       "required)")
      ("inject", po::value(&injects)->composing()->value_name("FAULT"),
       "damage the log: KIND, KIND:RATE (a share of the records, 0 to 1) or KIND@OFFSET (the "
       "first record at or after that byte; an error if there is none); KIND one of truncate "
       "bad-magic bad-length unknown-type unterminated-string overlong-callchain "
       "time-backwards; KIND alone: a rate of 0.001, truncate cuts the last record "
       "(repeatable)")
      ("inject-log", po::value(&inject_log)->value_name("FILE"),
       "write the list of injected faults (JSON) here")
      ("seed", po::value(&seed_s)->value_name("N"),
       "random seed for synth and fault injection (default 1)")
      ("file", po::value<std::string>()->value_name("NAME"),
       "multi-file JSON Lines: write the records of this \"file\"")
      ("quiet,q", "no notes and no progress line");
  tools::cli::AbiOptionSet abi_set;
  abi_set.generation_default = "JSON: from the input, else L3; synth: M10";
  abi_set.address_width_default = "JSON: from the input, else 8; synth: 8";
  // What AbiResolver::abi() and the synth branch below do when --address-slot is left out.
  abi_set.address_slot_default =
      "JSON: from the input, else the address width; synth: the address width";
  abi_set.byte_order_default = "JSON: from the input, else little; synth: little";
  abi_set.time_width_default =
      "synth only; 4 for 4-byte little-endian addresses in 4-byte slots (i386), else 8";
  // Short names (-p -e -d) are left out: in perf and pmclog-record they mean pid, event, data.
  po::options_description synth_opts("synth options");
  synth_opts.add_options()
      ("records,n", po::value(&records_s)->value_name("N"),
       "exact number of records (default 10000 when -s/--size is not given)")
      ("size,s", po::value(&size_s)->value_name("SIZE"),
       "size budget, e.g. 4GiB (the log is at most this long; not with -n/--records)")
      ("processes", po::value(&processes_s)->value_name("N"),
       "live processes, the shell included, 1 to 99999 (default 8)")
      ("depth", po::value(&depth_s)->value_name("MIN..MAX"),
       "callchain depth, 1 to the generation's limit (default 2..16)")
      ("events", po::value(&events_s)->value_name("N"), "sampled events, 1 to 8 (default 1)")
      ("cpus", po::value(&cpus_s)->value_name("N"), "CPUs, 1 to 256 (default 4)")
      ("ibs", "multipart (AMD IBS) callchains for a share of the samples: IBS_OP or "
              "IBS_FETCH, then the CALLCHAIN (modern generations)")
      ("cpu-buffer-size", po::value(&cpubuf_s)->value_name("SIZE"),
       "modern per-CPU log buffer size, 8KiB to 1GiB (default 256KiB)")
      ("container", "a PMCL container in front of the log, as pmc record writes (format.md "
       "§18): arch from the ABI, plausible SYSINFO and (x86) CPUID facts");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&positionals));
  po::positional_options_description pos;
  pos.add("input", -1);  // every word, so that a stray one is refused, not dropped

  po::options_description visible;
  visible.add(tools::cli::general_options()).add(common).add(tools::cli::abi_options(abis, abi_set))
      .add(synth_opts);
  po::options_description all;
  all.add(visible).add(hidden);
  // "synth" is the mode, not an input file: the options after it are parsed.
  const po::variables_map vm =
      tools::cli::parse(synth ? argc - 1 : argc, synth ? argv + 1 : argv, all, &pos);
  if (tools::cli::print_help_or_version(vm, kHelp, visible, tools::standard_output().stream()))
    return 0;
  if (!synth) {
    for (const std::string& p : positionals)
      if (p == "synth") subcommand_not_first(argc, argv, all);
  }
  if (positionals.size() > (synth ? 0u : 1u))
    throw UsageError("unexpected argument '" + positionals[synth ? 0 : 1] + "'");
  if (output.empty()) throw UsageError("-o OUT is required (a file, or - for standard output)");
  const bool quiet = vm.count("quiet") > 0;
  if (!synth) {
    for (const char* o : {"records", "size", "processes", "depth", "events", "cpus",
                          "cpu-buffer-size", "time-width", "ibs", "container"})
      if (vm.count(o))
        throw UsageError(std::string("--") + o + " is a synth option: pmclog-write synth --" + o +
                         " ...");
  }
  if (synth && vm.count("file"))
    throw UsageError("--file chooses one file of a JSON Lines input; synth reads no input");
  if (!inject_log.empty() && injects.empty()) throw UsageError("--inject-log needs --inject");
  // A log is binary: on a terminal it is noise and may leave the terminal in a strange state.
  if (output == "-" && isatty(STDOUT_FILENO) == 1)
    throw UsageError("refusing to write binary data to a terminal; use -o FILE or a pipe");
  if (output == "-" && inject_log == "-")
    throw UsageError("-o/--output - and --inject-log - cannot both be standard output");
  const uint64_t seed = parse_number("--seed", seed_s, 0, UINT64_MAX);

  JsonOptions jopt;
  jopt.quiet = quiet;
  if (vm.count("file")) jopt.file = vm["file"].as<std::string>();
  apply_abi(abis, jopt);
  const auto faults = parse_faults(injects);
  std::vector<std::string> inputs = positionals;
  if (!synth) {
    tools::cli::default_to_stdin(inputs, "JSON Lines input");
    // Named "-" on a terminal: waiting for typed JSON would only look hung.
    if (inputs[0] == "-" && isatty(STDIN_FILENO) == 1)
      throw UsageError("standard input is a terminal: pipe JSON Lines in (pmclog-dump "
                       "--format=jsonl LOG | pmclog-write - -o OUT) or name a file");
  }
  // Refused before anything is written: "-o same.jsonl same.jsonl" would destroy the input.
  throw_if_failed(tools::refuse_same_file(output, inputs));
  if (!inject_log.empty()) throw_if_failed(tools::refuse_same_file(inject_log, inputs));
  // A fault at an offset may find no record: the run then fails, and must leave nothing, so a
  // written-through output (a pipe) is held back until the end.
  bool at_offset = false;
  for (const FaultSpec& f : faults) at_offset |= f.offset.has_value();

  // Declared before the stream: the stream's writer thread writes to `out` and uses the
  // injector and progress line until the stream is gone (a throw during setup included).
  OutputFile out;
  std::unique_ptr<FaultInjector> injector;
  tools::Progress progress(!quiet);
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
      if (!n || *n == 0) throw UsageError("--records: '" + records_s + "' is not a count (1 or more)");
      s.records = *n;
    }
    if (!size_s.empty()) {
      auto n = parse_size(size_s);
      if (!n || *n == 0) throw UsageError("--size: '" + size_s + "' is not a size");
      s.size = *n;
    }
    const auto d = parse_range(depth_s);
    if (!d) throw UsageError("--depth: '" + depth_s + "' is not MIN..MAX");
    s.depth_min = d->first;
    s.depth_max = d->second;
    const auto cb = parse_size(cpubuf_s);
    if (!cb || *cb < 8192 || *cb > (1u << 30))
      throw UsageError("--cpu-buffer-size: '" + cpubuf_s + "' is not 8KiB to 1GiB");
    s.cpu_buffer_size = *cb;
    s.processes = static_cast<uint32_t>(parse_number("--processes", processes_s, 1, kMaxSynthProcesses));
    s.events = static_cast<uint32_t>(parse_number("--events", events_s, 1, kMaxSynthEvents));
    s.cpus = static_cast<uint32_t>(parse_number("--cpus", cpus_s, 1, kMaxSynthCpus));
    s.seed = seed;
    s.ibs = vm.count("ibs") > 0;
    check_synth_options(s);  // the combinations (-n with -s, --depth for the generation)
    if (!s.records && !s.size) s.records = 10000;
    open_output(out, output, inputs, /*spool=*/at_offset);
    if (!faults.empty()) injector = std::make_unique<FaultInjector>(s.abi, faults, seed);
    progress.set_label("writing " + out.name());
    // A size budget is followed in bytes, a record count in records.
    const ProgressGoal goal{&progress, s.size == 0, s.size ? s.size : s.records};
    stream = std::make_unique<RecordStream>(out, injector.get(), goal);
    if (vm.count("container")) {
      std::vector<uint8_t> bytes;
      encode_container(synth_container(s.abi, seed), bytes);
      stream->write_raw(bytes);
    }
    run_synth(s, *stream);
    stream->finish();
  } else {
    // The library's opening path, as every tool: "(stdin)", gzip/zstd/xz/bzip2 JSON Lines.
    auto opened = pmclog::open_input_bytes(inputs[0], "JSON Lines");
    if (!opened)
      throw Failure(opened.error().code == pmclog::Errc::io ? Exit::io : Exit::bad_data,
                    opened.error().message);
    const std::string& name = opened->display_name;  // escaped: a name is untrusted text
    jopt.compressed = opened->compression != Compression::none;
    // A rejected line must leave nothing behind, standard output included: spool it.
    open_output(out, output, inputs, /*spool=*/true);
    progress.set_label("reading " + name);
    convert_jsonl(*opened->source, name, jopt, [&](const Abi& abi) -> RecordStream& {
      if (!faults.empty()) injector = std::make_unique<FaultInjector>(abi, faults, seed);
      stream = std::make_unique<RecordStream>(out, injector.get(),
                                              ProgressGoal{&progress, /*records=*/true, 0});
      return *stream;
    });
    if (!stream) {  // empty input: an empty log
      stream = std::make_unique<RecordStream>(out, nullptr);
    }
    stream->finish();
  }
  if (injector) {
    if (const auto i = injector->unmet_offset()) {
      // Not bad data (1): the log is sound. The option asked for what this log cannot give,
      // as a size below the setup's does: a usage status, and no output (the temporary or
      // the spool is dropped when `out` goes).
      const uint64_t at = *faults[*i].offset, size = stream->bytes_written();
      throw Failure(Exit::usage,
                    at >= size
                        ? fmt::format("--inject {}: nothing was injected: the log is only {} bytes "
                                      "long (nothing was written)", injects[*i], size)
                        : fmt::format("--inject {}: nothing was injected: no record at or after "
                                      "offset {} of the {}-byte log can take this fault (nothing "
                                      "was written)", injects[*i], at, size));
    }
  }
  throw_if_failed(out.commit());
  if (!inject_log.empty() && injector) {
    tools::OutputOptions o;
    o.inputs = inputs;
    throw_if_failed(tools::write_whole_file(inject_log, injector->listing_json(), o));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return pmclog::tools::run_main({kTool, Exit::io, /*cleanup_on_signals=*/true}, argc, argv, run);
}
