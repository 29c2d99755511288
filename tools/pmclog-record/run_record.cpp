// run_record(): the steps of a recording in their order. Each step's file says what it does;
// the objects live here, so they are made, and destroyed, in the order of the steps.
#include "session.h"

#include <sys/wait.h>

#include <string>
#include <vector>

#include "closing_records.h"
#include "conversion_setup.h"
#include "exit_status.h"
#include "kallsyms_copy.h"
#include "launcher.h"
#include "log_sink.h"
#include "merger.h"
#include "opening_records.h"
#include "output_and_events.h"
#include "perf_open.h"
#include "record_conversion.h"
#include "record_summary.h"
#include "recording_plan.h"
#include "sampling_loop.h"
#include "signals.h"

namespace record {

using pmclog::tools::Exit;

namespace {

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
  KallsymsCopy kallsyms(opt.kallsyms);
  if (!open_output(sink) || !kallsyms.open()) {
    launcher.abort();
    return code(Exit::tool_failed);
  }
  OpenedEvents opened;
  if (!open_recorded_events(plan.events, s, targets, plan.cpus, opened)) {
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
  write_pmc_allocations(opt, plan.events, pmcid_of, plan.cpus, sink, t0);
  if (!s.exclude_kernel) write_kernel_map(sink, t0);  // kernel frames may have been refused
  const pid_t child = plan.command_mode ? launcher.pid() : -1;
  // -p processes, and the processes of -t threads: their images, mappings and names.
  std::vector<pid_t> attached = opt.pids;
  attached.insert(attached.end(), plan.tid_processes.begin(), plan.tid_processes.end());
  announce_targets(opt, plan.command_mode, child, attached, cc.process_pmcids, opened, conv,
                   sink, t0);

  if (auto failed = start_sampling(opt, plan, launcher, opened)) return *failed;
  const int child_status = sample_until_stop(opt, child, t0, opened, merger, sink);

  const CountTotals count_totals =
      write_closing_records(opt, plan.events.size(), opened, merger, conv, sink);
  // The copy's failure leaves the log whole: the log is committed all the same.
  const bool kallsyms_saved = kallsyms.save(!s.exclude_kernel);
  if (!commit_log(sink)) return code(Exit::tool_failed);
  const int exit_code = !kallsyms_saved ? code(Exit::tool_failed)
                        : plan.command_mode ? status_to_exit(child_status)
                                            : 0;
  // Not all of the log reached its reader, which chose to stop: no summary claims what was
  // not delivered, and the totals of --count stopped with the sampling.
  if (sink.closed()) return exit_code;
  print_summary(opt, plan, out_path, sink, conv, count_totals);
  return exit_code;
}

}  // namespace record
