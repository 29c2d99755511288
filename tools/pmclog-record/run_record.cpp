// run_record(): the steps of a recording in their order. Each step's file says what it does;
// the objects live here, so they are made, and destroyed, in the order of the steps.
#include "session.h"

#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "conversion_setup.h"
#include "count_report.h"
#include "diagnostics.h"
#include "exit_status.h"
#include "launcher.h"
#include "log_sink.h"
#include "merger.h"
#include "opening_records.h"
#include "output_and_events.h"
#include "perf_open.h"
#include "pmclog/text.h"
#include "record_conversion.h"
#include "recording_plan.h"
#include "sampling_loop.h"
#include "signals.h"

namespace record {

using pmclog::tools::diag;
using pmclog::tools::Exit;

using pmclog::Kind;
using pmclog::RecordValue;

namespace {

bool read_group(int fd, PerfEvent& e) {
  uint64_t buf[2 + 3 + 2 * 64];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 24) return false;
  const uint64_t nr = buf[0];
  e.time_enabled = buf[1];
  e.time_running = buf[2];
  for (uint64_t i = 0; i < nr && 3 + 2 * i + 1 < static_cast<uint64_t>(n) / 8; ++i)
    e.values.push_back(ReadValue{buf[3 + 2 * i], buf[4 + 2 * i]});
  return true;
}

int status_to_exit(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);  // as shells report it
  return code(Exit::tool_failed);
}

}  // namespace

int run_record(const Options& opt) {
  RecordingPlan plan;
  if (auto refused = plan_recording(opt, plan)) return *refused;

  install_signal_handlers();
  Launcher launcher;
  std::vector<pid_t> targets;
  if (auto failed = prepare_targets(opt, plan, launcher, targets)) return *failed;

  OpenSettings s = open_settings(opt, plan);
  // The output opens before the events, so an output that is refused is the only message.
  const std::string out_path = output_path(opt);
  LogSink sink(opt.abi, out_path);
  if (!open_output(sink)) {
    launcher.abort();
    return code(Exit::tool_failed);
  }
  const int ncpu = online_cpu_count();
  OpenedEvents opened;
  if (!open_recorded_events(plan.events, s, targets, ncpu, opened)) {
    launcher.abort();
    return code(Exit::tool_failed);
  }

  const PmcNumbering pmcid_of(opt, plan.events);
  const ConversionConfig cc =
      conversion_config(opt, plan.depth, plan.events.size(), opened, pmcid_of);
  Converter conv(sink, cc);
  Merger merger(conv);

  write_container(opt, sink);
  const uint64_t t0 = monotonic_ns();
  write_initialize(sink, t0);
  write_pmc_allocations(opt, plan.events, pmcid_of, ncpu, sink, t0);
  if (!s.exclude_kernel) write_kernel_map(sink, t0);  // kernel frames may have been refused
  const pid_t child = plan.command_mode ? launcher.pid() : -1;
  announce_targets(opt, plan.command_mode, child, cc.process_pmcids, opened, conv, sink, t0);

  if (auto failed = start_sampling(opt, plan, launcher, opened)) return *failed;
  const int child_status = sample_until_stop(opt, child, t0, opened, merger, sink);

  // Stop counting, take what is left, then the final values and CLOSELOG.
  set_enabled(opened, false);
  drain(opened, merger);
  merger.flush_all();
  const uint64_t t_end = monotonic_ns();
  conv.finish(t_end);
  CountTotals count_totals;
  if (opt.counting) {
    std::vector<PerfEvent> finals;
    for (int fd : opened.leaders) {
      PerfEvent e;
      if (read_group(fd, e)) finals.push_back(std::move(e));
    }
    conv.finish_deferred(finals, t_end);
    std::unordered_map<uint64_t, size_t> event_of_id;
    for (const auto& [id, info] : opened.ids) event_of_id[id] = info.event;
    count_totals = sum_final_reads(finals, event_of_id, plan.events.size());
  }
  {
    RecordValue r;
    r.kind = Kind::closelog;
    sink.emit(r, t_end);
  }
  std::string err;
  if (!sink.commit(err)) {
    diag().error(err + "; no log was written");
    return code(Exit::tool_failed);
  }
  const int exit_code = plan.command_mode ? status_to_exit(child_status) : 0;
  // Not all of the log reached its reader, which chose to stop: no summary claims what was
  // not delivered, and the totals of --count stopped with the sampling.
  if (sink.closed()) return exit_code;

  const auto& st = conv.stats();
  if (!opt.quiet) {
    std::string evnames;
    for (const auto& e : plan.events) {
      if (!evnames.empty()) evnames += ',';
      evnames += e.spec.name;
    }
    const std::string shown =
        out_path == "-" ? "standard output" : pmclog::display_path(out_path);
    std::string summary = "wrote " + shown + " (" +
                          std::string(pmclog::describe(opt.abi)) + "): " +
                          std::to_string(sink.records()) + " records, " +
                          std::to_string(sink.bytes()) + " bytes, " +
                          std::to_string(st.samples) + " samples of " + evnames;
    if (opt.counting)
      summary += ", " + std::to_string(st.switches) + " context-switch records";
    else
      summary += ", " + std::to_string(st.cut_chains) + " callchains cut";
    summary += ", " + std::to_string(st.lost) + " lost";
    diag().info(summary);
    if (st.cut_chains)
      diag().info(std::to_string(st.cut_chains) + " of " + std::to_string(st.samples) +
                  " callchains stop early: frame-pointer unwinding reached an address that "
                  "cannot be code (code built without frame pointers)");
    if (opt.counting) {
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
  }
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
  return exit_code;
}

}  // namespace record
