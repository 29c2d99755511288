#include "cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <iostream>
#include <ostream>

#include "diagnostics.h"
#include "pmclog/abi.h"
#include "pmclog/text.h"

namespace pmclog::tools::cli {

const char* version() { return PMCLOG_PROJECT_VERSION; }

std::string version_text(std::string_view tool) {
  std::string out = std::string(tool) + ' ' + version() + "\nlog generations:";
  for (int g = 0; g < kGenerationCount; ++g)
    out += ' ' + std::string(generation_name(static_cast<Generation>(g)));
  out += " (4- or 8-byte addresses, or 4 in 8-byte slots; little- or big-endian)\n"
         "log forms: plain stream, PMCL container (pmc record), multipart callchains (AMD IBS)\n";
  return out;
}

po::options_description general_options() {
  po::options_description g("General");
  g.add_options()
      ("help,h", "show this help")
      ("version,V", "show the version");
  return g;
}

po::options_description libpmc_options(std::string& libpmc, std::string* sysroot) {
  po::options_description g("Event names");
  if (sysroot)
    g.add_options()("sysroot", po::value(sysroot)->value_name("DIR"),
                    "the recording system's files: its DIR/usr/lib/libpmc.so.5 (or libpmc.a) "
                    "names EV_PMU events");
  g.add_options()("libpmc", po::value(&libpmc)->value_name("FILE"),
                  "the recording system's libpmc (libpmc.so.5 or libpmc.a), whose pmu-events "
                  "tables name EV_PMU events (default: DIR/usr/lib/libpmc.so.5 or .a of --sysroot)");
  return g;
}

namespace {

// "--libpmc: 'x': No such file or directory"; empty when `path` is of the kind wanted.
std::string path_problem(std::string_view option, const std::string& path, bool want_dir) {
  struct stat st {};
  const std::string named = std::string(option) + ": '" + path + "'";
  if (::stat(path.c_str(), &st) != 0) return named + ": " + std::strerror(errno);
  const bool dir = S_ISDIR(st.st_mode);
  if (want_dir && !dir) return named + " is not a directory";
  if (!want_dir && dir) return named + " is a directory, not a file";
  return "";
}

}  // namespace

void check_libpmc_paths(const std::string& libpmc, const std::string* sysroot) {
  if (sysroot && !sysroot->empty())
    if (std::string p = path_problem("--sysroot", *sysroot, true); !p.empty()) throw UsageError(p);
  if (!libpmc.empty())
    if (std::string p = path_problem("--libpmc", libpmc, false); !p.empty()) throw UsageError(p);
}

po::options_description abi_options(AbiValues& v, const AbiOptionSet& set) {
  // program_options copies the description, so a temporary string will do.
  auto with_default = [](std::string_view what, std::string_view dflt) {
    return std::string(what) + " (default: " + std::string(dflt) + ")";
  };
  po::options_description g("ABI of the log");
  if (set.generation)
    g.add_options()("generation", po::value(&v.generation)->value_name("GEN"),
                    with_default(set.generation_values, set.generation_default).c_str());
  if (set.address_width)
    g.add_options()("address-width", po::value(&v.address_width)->value_name("4|8"),
                    with_default("bytes per address", set.address_width_default).c_str());
  if (set.address_slot)
    g.add_options()("address-slot", po::value(&v.address_slot)->value_name("4|8"),
                    with_default("bytes each address takes in record lengths; 8 with "
                                 "--address-width 4 reads powerpc64 logs from before FreeBSD "
                                 "13 and mips n64 ones from 9.x, which write 4-byte addresses "
                                 "in 8-byte slots",
                                 set.address_slot_default).c_str());
  if (set.byte_order)
    g.add_options()("byte-order", po::value(&v.byte_order)->value_name("little|big"),
                    with_default("byte order", set.byte_order_default).c_str());
  if (set.time_width)
    g.add_options()("time-width", po::value(&v.time_width)->value_name("4|8"),
                    with_default("bytes of time_t in the modern INITIALIZE",
                                 set.time_width_default).c_str());
  return g;
}

AbiHint abi_hint(const AbiValues& v) {
  AbiHint hint;
  if (!v.generation.empty()) {
    if (v.generation == "M" || v.generation == "m") {
      hint.modern = true;
    } else if (auto g = parse_generation(v.generation)) {
      hint.generation = *g;
    } else {
      throw UsageError("--generation: '" + v.generation + "' is not one of L1 L2 L3 M M9 M10");
    }
  }
  if (v.address_width) {
    // Bits were accepted by some tools once; a silent guess would hide a wrong script.
    if (v.address_width == 32 || v.address_width == 64)
      throw UsageError("--address-width is in bytes: give " +
                       std::to_string(v.address_width / 8) + ", not " +
                       std::to_string(v.address_width));
    if (v.address_width != 4 && v.address_width != 8)
      throw UsageError("--address-width: '" + std::to_string(v.address_width) +
                       "' is not 4 or 8 (bytes)");
    hint.address_width = static_cast<uint8_t>(v.address_width);
  }
  if (v.address_slot) {
    if (v.address_slot != 4 && v.address_slot != 8)
      throw UsageError("--address-slot: '" + std::to_string(v.address_slot) +
                       "' is not 4 or 8 (bytes)");
    if (v.address_width && v.address_slot < v.address_width)
      throw UsageError("--address-slot " + std::to_string(v.address_slot) +
                       " is narrower than --address-width " + std::to_string(v.address_width));
    hint.address_slot = static_cast<uint8_t>(v.address_slot);
  }
  if (!v.byte_order.empty()) {
    auto b = parse_byte_order(v.byte_order);
    if (!b) throw UsageError("--byte-order: '" + v.byte_order + "' is not little or big");
    hint.byte_order = *b;
  }
  if (v.time_width) {
    if (v.time_width != 4 && v.time_width != 8)
      throw UsageError("--time-width: '" + std::to_string(v.time_width) +
                       "' is not 4 or 8 (bytes)");
    hint.time_width = static_cast<uint8_t>(v.time_width);
  }
  return hint;
}

po::variables_map parse(int argc, char** argv, const po::options_description& all,
                        const po::positional_options_description* positional) {
  po::variables_map vm;
  try {
    po::command_line_parser p(argc, argv);
    p.options(all);
    if (positional) p.positional(*positional);
    po::store(p.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

void print_help(const HelpText& help, const po::options_description& visible, std::ostream& out) {
  out << help.synopsis << '\n';
  // program_options starts each group with a blank line.
  out << help.description << visible << '\n';
  if (!help.examples.empty()) out << "Examples:\n" << help.examples << '\n';
  out << "Exit status:\n" << help.exit_status;
}

bool print_help_or_version(const po::variables_map& vm, const HelpText& help,
                           const po::options_description& visible, std::ostream& out) {
  if (vm.count("help")) {
    print_help(help, visible, out);
    return true;
  }
  if (vm.count("version")) {
    out << version_text(help.tool);
    return true;
  }
  return false;
}

int usage_error(std::string_view tool, std::string_view message) {
  diag().set_tool(tool);
  return diag().usage(message);  // option values are echoed: escaped there
}

void default_to_stdin(std::vector<std::string>& inputs, std::string_view what) {
  if (!inputs.empty()) return;
  if (isatty(STDIN_FILENO) == 1)
    throw UsageError("no " + std::string(what) +
                     " given and standard input is a terminal (name a file, or pipe one in)");
  inputs.push_back("-");
}

}  // namespace pmclog::tools::cli
