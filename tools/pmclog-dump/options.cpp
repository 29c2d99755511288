#include "options.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <sstream>

#include "cli.h"
#include "stdout_sink.h"
#include "pmclog/abi.h"

namespace po = boost::program_options;
using pmclog::tools::cli::UsageError;
namespace tools = pmclog::tools;

namespace dump {

namespace {

constexpr const char* kTool = "pmclog-dump";

constexpr tools::cli::HelpText kHelp{
    kTool,
    "Usage: pmclog-dump [options] [FILE...]\n",
    R"txt(Prints hwpmc(4) logs of any generation (legacy L1/L2/L3, modern M9/M10), 32- or 64-bit,
little- or big-endian, plain or gzip/zstd/xz/bzip2-compressed. No FILE or "-" reads standard
input (not a terminal), named "(stdin)" in messages.
)txt",
    R"txt(  pmclog-dump pmc.log                       one line per record, every field named
  pmclog-dump --format=pmcstat pmc.log      what FreeBSD's `pmcstat -R pmc.log` prints
  pmclog-dump --format=jsonl pmc.log | jq . lossless JSON Lines (docs/jsonl.md)
  pmclog-dump --explain --head 3 pmc.log    the 32-bit words of each record, labelled
  pmclog-dump --stats pmc.log.zst           summary: samples by process, command, event, cpu
  pmclog-dump --stats --top all pmc.log     every row of each table, not the top 10
  pmclog-dump --stats --format=json pmc.log the summary as one JSON object
  pmclog-dump --type callchain --pid 1234 --cpu 2 pmc.log
  pmclog-dump --show-abi pmc.log            the detected ABI and the evidence for it
  gzip -dc pmc.log.gz | pmclog-dump -       from a pipe
  pmclog-dump --generation L3 --address-width 4 --byte-order big old.log
)txt",
    R"txt(  0  all records good
  1  damaged data: the good records before the damage are printed, then one line on
     stderr names the file, the byte offset and the reason (--keep-going resynchronizes
     and reports every skipped byte range)
  2  usage error, or an input or output that cannot be read or written (a missing
     file, a folder, a full disk)
)txt"};

// Decimal, or hexadecimal with 0x; a leading '-' for negative numbers where allowed.
bool parse_number(const std::string& s, int64_t& out) {
  if (s.empty()) return false;
  size_t pos = 0;
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    pos = 1;
  }
  int base = 10;
  if (s.size() > pos + 2 && s[pos] == '0' && (s[pos + 1] == 'x' || s[pos + 1] == 'X')) {
    base = 16;
    pos += 2;
  }
  if (pos >= s.size()) return false;
  uint64_t v = 0;
  for (; pos < s.size(); ++pos) {
    const char c = s[pos];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return false;
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  if (neg) {
    if (v > static_cast<uint64_t>(INT64_MAX)) return false;
    out = -static_cast<int64_t>(v);
  } else {
    out = static_cast<int64_t>(v);
  }
  return true;
}

// Values may be repeated options or comma-separated lists.
std::vector<std::string> split_list(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (!item.empty()) out.push_back(item);
    }
  }
  return out;
}

int64_t number_or_throw(const std::string& opt, const std::string& s, int64_t lo, int64_t hi) {
  int64_t v = 0;
  if (!parse_number(s, v) || v < lo || v > hi)
    throw UsageError("--" + opt + ": '" + s + "' is not a valid value");
  return v;
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv) {
  std::string format = "text";
  tools::cli::AbiValues abi;
  std::vector<std::string> types, pids, pmcids, cpus;
  std::string from_offset, to_offset, head, top;
  po::options_description output("Output");
  // clang-format off
  output.add_options()
    ("format,f", po::value(&format), "text (default), pmcstat, jsonl, explain; with --stats: text or json")
    ("explain", "same as --format=explain: each record's 32-bit words, labelled")
    ("stats", "print a summary instead of the records")
    ("top", po::value(&top), "with --stats: rows per table, most samples first (default 10; 0 or 'all': every row; JSON: every row unless given)")
    ("show-abi", "print the detected ABI and the evidence for it, then stop (no other output or selection option)")
    ("keep-going,k", "after damage, resynchronize and go on (the exit status is still 1)");
  po::options_description selection("Selection");
  selection.add_options()
    ("type,t", po::value(&types), "only these record types (kind ids, record names such as MAP_IN, or pmcstat keywords; repeatable, comma-separated)")
    ("pid,p", po::value(&pids), "only records about these pids (pid, oldpid or newpid)")
    ("pmcid", po::value(&pmcids), "only records with these pmc ids (hex with 0x or decimal)")
    ("cpu", po::value(&cpus), "only CALLCHAIN records from these cpus, and records of system-mode pmcs on them")
    ("from-offset", po::value(&from_offset), "only records starting at or after this byte offset")
    ("to-offset", po::value(&to_offset), "only records starting before this byte offset (above --from-offset)")
    ("head,n", po::value(&head), "stop after N selected records");
  // clang-format on
  po::options_description visible;
  std::string sysroot, libpmc;
  visible.add(tools::cli::general_options()).add(output).add(selection)
      .add(tools::cli::libpmc_options(libpmc, &sysroot)).add(tools::cli::abi_options(abi));
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "input");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);

  const po::variables_map vm = tools::cli::parse(argc, argv, all, &pos);
  if (tools::cli::print_help_or_version(vm, kHelp, visible, tools::standard_output().stream()))
    return std::nullopt;
  Options o;
  if (vm.count("file")) o.files = vm["file"].as<std::vector<std::string>>();
  tools::cli::check_libpmc_paths(libpmc, &sysroot);
  o.sysroot = sysroot;
  o.libpmc = libpmc;
  o.stats = vm.count("stats") > 0;
  o.show_abi = vm.count("show-abi") > 0;
  o.keep_going = vm.count("keep-going") > 0;
  const bool format_given = vm.count("format") > 0;
  // --explain is a format too: with another --format one of the two would be ignored.
  if (vm.count("explain")) {
    if (format_given && format != "explain")
      throw UsageError("--explain and --format=" + format +
                       " cannot be used together: --explain is --format=explain");
    if (o.stats)
      throw UsageError("--explain and --stats cannot be used together: --explain prints the "
                       "records' words, --stats a summary");
    format = "explain";
  }
  // --show-abi reads no record: every option about the records would be ignored.
  if (o.show_abi) {
    const char* other = o.stats                 ? "--stats"
                        : vm.count("explain")   ? "--explain"
                        : format_given          ? "--format"
                        : o.keep_going          ? "-k/--keep-going"
                        : !top.empty()          ? "--top"
                        : !types.empty()        ? "-t/--type"
                        : !pids.empty()         ? "-p/--pid"
                        : !pmcids.empty()       ? "--pmcid"
                        : !cpus.empty()         ? "--cpu"
                        : !from_offset.empty()  ? "--from-offset"
                        : !to_offset.empty()    ? "--to-offset"
                        : !head.empty()         ? "-n/--head"
                                                : nullptr;
    if (other)
      throw UsageError(std::string("--show-abi and ") + other +
                       " cannot be used together: --show-abi prints the detected ABI and "
                       "reads no record");
  }
  tools::cli::default_to_stdin(o.files, "log");
  if (format == "text") o.format = Format::text;
  else if (format == "pmcstat") o.format = Format::pmcstat;
  else if (format == "jsonl" || format == "json") o.format = Format::jsonl;
  else if (format == "explain") o.format = Format::explain;
  else throw UsageError("--format: '" + format + "' is not one of text, pmcstat, jsonl, explain");
  if (o.stats) {
    if (o.format == Format::jsonl) o.stats_json = true;
    else if (o.format != Format::text)
      throw UsageError("--stats and --format=" + format +
                       " cannot be used together: --stats takes --format=text or --format=json");
  } else if (format == "json") {
    throw UsageError("--format=json is for --stats; records are printed with --format=jsonl");
  }
  if (!top.empty()) {
    if (!o.stats) throw UsageError("--top is for --stats");
    o.top = top == "all" ? 0 : static_cast<uint64_t>(number_or_throw("top", top, 0, INT64_MAX));
  }
  o.hint = tools::cli::abi_hint(abi);

  // What the selection options said, as typed, for the warning when they match nothing.
  auto given = [&](const char* name, const std::vector<std::string>& values) {
    for (const auto& v : values) o.select.text += std::string(o.select.text.empty() ? "" : " ") + name + ' ' + v;
  };
  given("--type", types);
  given("--pid", pids);
  given("--pmcid", pmcids);
  given("--cpu", cpus);
  if (!from_offset.empty()) given("--from-offset", {from_offset});
  if (!to_offset.empty()) given("--to-offset", {to_offset});

  for (const auto& t : split_list(types)) {
    auto k = pmclog::parse_kind(t);
    if (!k) throw UsageError("--type: '" + t + "' is not a record type");
    o.select.kinds.push_back(*k);
  }
  for (const auto& p : split_list(pids))
    o.select.pids.push_back(number_or_throw("pid", p, INT32_MIN, UINT32_MAX));
  for (const auto& p : split_list(pmcids))
    o.select.pmcids.push_back(static_cast<uint32_t>(number_or_throw("pmcid", p, 0, UINT32_MAX)));
  for (const auto& c : split_list(cpus))
    o.select.cpus.push_back(static_cast<uint32_t>(number_or_throw("cpu", c, 0, UINT32_MAX)));
  if (!from_offset.empty())
    o.select.from_offset = static_cast<uint64_t>(number_or_throw("from-offset", from_offset, 0, INT64_MAX));
  if (!to_offset.empty())
    o.select.to_offset = static_cast<uint64_t>(number_or_throw("to-offset", to_offset, 0, INT64_MAX));
  if (o.select.from_offset && o.select.to_offset && *o.select.to_offset <= *o.select.from_offset)
    throw UsageError("--from-offset " + from_offset + " and --to-offset " + to_offset +
                     " select nothing: --to-offset must be above --from-offset");
  if (!head.empty())
    o.select.head = static_cast<uint64_t>(number_or_throw("head", head, 0, INT64_MAX));
  // pids are compared as the 32-bit signed values the records hold
  for (auto& p : o.select.pids) p = static_cast<int32_t>(static_cast<uint32_t>(p));
  return o;
}

}  // namespace dump
