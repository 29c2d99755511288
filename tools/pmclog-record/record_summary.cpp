#include "record_summary.h"

#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "pmclog/text.h"

namespace record {

using pmclog::tools::diag;

namespace {

// "wrote FILE (ABI): N records, M bytes, S samples of EVENTS, ..."
std::string summary_line(const Options& opt, const RecordingPlan& plan,
                         const std::string& out_path, const LogSink& sink,
                         const ConversionStats& st) {
  std::string evnames;
  for (const auto& e : plan.events) {
    if (!evnames.empty()) evnames += ',';
    evnames += e.spec.name;
  }
  const std::string shown = out_path == "-" ? "standard output" : pmclog::display_path(out_path);
  std::string summary = "wrote " + shown + " (" + std::string(pmclog::describe(opt.abi)) +
                        "): " + std::to_string(sink.records()) + " records, " +
                        std::to_string(sink.bytes()) + " bytes, " +
                        std::to_string(st.samples) + " samples of " + evnames;
  if (opt.counting)
    summary += ", " + std::to_string(st.switches) + " context-switch records";
  else
    summary += ", " + std::to_string(st.cut_chains) + " callchains cut";
  summary += ", " + std::to_string(st.lost) + " lost";
  return summary;
}

void print_count_report(const Options& opt, const RecordingPlan& plan, const Converter& conv,
                        const CountTotals& count_totals) {
  std::vector<EventSpec> specs;
  for (const auto& e : plan.events) specs.push_back(e.spec);
  std::vector<ProcessCounts> procs;
  for (const auto& [pid, values] : conv.totals())
    procs.push_back(ProcessCounts{pid, conv.name_of(pid), values});
  const std::string who = plan.command_mode ? "the command and all its descendants"
                                            : "the attached processes and their descendants";
  const std::string report = count_report(specs, count_totals, procs, opt.per_process, who);
  // Its lines carry the tool's name where they should, and escaped process names.
  for (size_t at = 0, nl; (nl = report.find('\n', at)) != std::string::npos; at = nl + 1)
    diag().line(std::string_view(report).substr(at, nl - at));
}

// --call-graph dwarf: how many user stacks stopped before their outermost frame, and why.
std::string unwind_line(const ConversionStats& st) {
  uint64_t early = 0;
  std::string why;
  for (size_t i = 0; i < kUnwindStops; ++i) {
    const auto stop = static_cast<UnwindStop>(i);
    if (stop == UnwindStop::complete || st.unwind_stops[i] == 0) continue;
    early += st.unwind_stops[i];
    why += (why.empty() ? "" : ", ") + std::to_string(st.unwind_stops[i]) + " " +
           unwind_stop_name(stop);
  }
  std::string line = "dwarf unwinding: " + std::to_string(st.unwound) + " user stacks, " +
                     std::to_string(early) + " stopped early";
  if (!why.empty()) line += " (" + why + ")";
  const uint64_t short_copy = st.unwind_stops[static_cast<size_t>(UnwindStop::stack_too_small)];
  if (short_copy != 0) line += "; --call-graph dwarf,BYTES copies more of each stack";
  return line;
}

void print_warnings(const ConversionStats& st, const LogSink& sink) {
  if (st.lost)
    diag().warning(std::to_string(st.lost) + " samples lost in " +
                   std::to_string(st.lost_records) +
                   " ring-buffer overflows (DROPNOTIFY records); use a larger --mmap-pages or "
                   "a lower -F");
  if (st.throttled)
    diag().warning("the kernel throttled sampling " + std::to_string(st.throttled) +
                   " times (kernel.perf_event_max_sample_rate); use a lower -F");
  if (sink.encode_failures())
    diag().warning(std::to_string(sink.encode_failures()) +
                   " records could not be encoded and were left out");
}

}  // namespace

void print_summary(const Options& opt, const RecordingPlan& plan, const std::string& out_path,
                   const LogSink& sink, const Converter& conv, const CountTotals& count_totals) {
  const auto& st = conv.stats();
  if (!opt.quiet) {
    diag().info(summary_line(opt, plan, out_path, sink, st));
    if (st.cut_chains)
      diag().info(std::to_string(st.cut_chains) + " of " + std::to_string(st.samples) +
                  " callchains stop early: frame-pointer unwinding reached an address that "
                  "cannot be code (code built without frame pointers; --call-graph dwarf "
                  "unwinds such code)");
    if (st.at_depth && !opt.counting)
      diag().info(std::to_string(st.at_depth) + " of " + std::to_string(st.samples) +
                  " callchains reach the depth limit of " + std::to_string(plan.depth) +
                  " frames: any deeper ones are missing, and flame graphs root such a stack at "
                  "an inner function (--depth raises the limit)");
    if (st.unwound) diag().info(unwind_line(st));
    if (opt.counting) print_count_report(opt, plan, conv, count_totals);
  }
  print_warnings(st, sink);
}

}  // namespace record
