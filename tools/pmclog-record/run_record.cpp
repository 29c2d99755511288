#include "session.h"

#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <unordered_map>

#include "callchain_depth.h"
#include "count_report.h"
#include "diagnostics.h"
#include "event_opening.h"
#include "exit_status.h"
#include "launcher.h"
#include "log_sink.h"
#include "conversion_setup.h"
#include "merger.h"
#include "opening_records.h"
#include "output_and_events.h"
#include "recording_plan.h"
#include "pmclog/container.h"
#include "pmclog/layout.h"
#include "pmcprofile/kallsyms.h"
#include "perf_open.h"
#include "pmc_ids.h"
#include "pmclog/names.h"
#include "pmclog/text.h"
#include "proc_info.h"
#include "record_conversion.h"
#include "signals.h"
#include "stdout_sink.h"

namespace record {

using pmclog::tools::diag;
using pmclog::tools::Exit;

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;

namespace {

int status_to_exit(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);  // as shells report it
  return code(Exit::tool_failed);
}

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

}  // namespace

int run_record(const Options& opt) {
  RecordingPlan plan;
  if (auto refused = plan_recording(opt, plan)) return *refused;
  const bool command_mode = plan.command_mode;
  const pmclog::Abi abi = opt.abi;
  const uint32_t depth = plan.depth;
  auto& events = plan.events;
  const std::string& cmd_path = plan.cmd_path;

  install_signal_handlers();
  Launcher launcher;
  std::vector<pid_t> targets;
  if (auto failed = prepare_targets(opt, plan, launcher, targets)) return *failed;

  OpenSettings s = open_settings(opt, plan);
  // The output opens before the events, so an output that is refused is the only message.
  const std::string out_path = output_path(opt);
  LogSink sink(abi, out_path);
  if (!open_output(sink)) {
    launcher.abort();
    return code(Exit::tool_failed);
  }
  const int ncpu = online_cpu_count();
  OpenedEvents opened;
  if (!open_recorded_events(events, s, targets, ncpu, opened)) {
    launcher.abort();
    return code(Exit::tool_failed);
  }

  const PmcNumbering pmcid_of(opt, events);
  ConversionConfig cc = conversion_config(opt, depth, events.size(), opened, pmcid_of);
  Converter conv(sink, cc);
  Merger merger(conv);

  write_container(opt, sink);
  const uint64_t t0 = monotonic_ns();
  write_initialize(sink, t0);
  write_pmc_allocations(opt, events, pmcid_of, ncpu, sink, t0);
  if (!s.exclude_kernel) write_kernel_map(sink, t0);
  announce_targets(opt, command_mode, launcher.pid(), cc.process_pmcids, opened, conv, sink, t0);

  // Go.
  int exit_code = 0;
  pid_t child = command_mode ? launcher.pid() : -1;
  if (command_mode) {
    std::string err;
    int exec_errno = 0;
    if (!launcher.go(err, exec_errno)) {
      diag().error(err + ": " + pmclog::display_path(cmd_path) + "; nothing was recorded");
      int st;
      waitpid(child, &st, 0);
      // ENOENT after the program was found: its interpreter is missing, as env(1) says 127.
      return code(exec_errno == ENOENT ? Exit::not_found : Exit::cannot_run);
    }
  } else if (!opt.system_wide) {
    set_enabled(opened, true);
  }
  const uint64_t deadline =
      opt.duration > 0 ? t0 + static_cast<uint64_t>(opt.duration * 1e9) : UINT64_MAX;

  std::vector<pollfd> pfds;
  for (const auto& rb : opened.rings) pfds.push_back(pollfd{rb.fd(), POLLIN, 0});
  auto drain = [&] {
    const uint64_t before = monotonic_ns();
    for (auto& rb : opened.rings)
      rb.drain([&](std::span<const uint8_t> rec) {
        PerfEvent e;
        if (parse_perf_record(rec, opened.format, e)) merger.add(std::move(e));
      });
    // A margin for records stamped some time before being committed (a preempted vCPU).
    merger.flush_before(before > 20000000 ? before - 20000000 : 0);
  };

  int handled_signals = 0;
  bool duration_hit = false;
  uint64_t kill_at = UINT64_MAX;
  bool child_done = !command_mode;
  int child_status = 0;
  bool reader_gone = false;
  // Test hook: a slow consumer, so that tests can make the ring buffers overflow for sure.
  const char* delay_env = std::getenv("PMCLOG_RECORD_DRAIN_DELAY_MS");
  const int drain_delay_ms = delay_env ? std::atoi(delay_env) : 0;
  for (;;) {
    poll(pfds.data(), pfds.size(), 50);
    if (drain_delay_ms > 0) usleep(static_cast<useconds_t>(drain_delay_ms) * 1000);
    // A buffer whose events all ended (the task exited) reports POLLHUP forever; stop
    // polling it so the loop sleeps instead of spinning. drain() still reads it.
    for (auto& p : pfds)
      if (p.revents & (POLLHUP | POLLERR)) p.fd = -1;
    drain();
    if (command_mode && !child_done) {
      int st;
      pid_t w = waitpid(child, &st, WNOHANG);
      if (w == child) {
        child_done = true;
        child_status = st;
        break;
      }
    }
    const uint64_t now = monotonic_ns();
    if (stop_signal_count() > handled_signals) {
      handled_signals = stop_signal_count();
      if (!command_mode) break;
      // The command gets the signal as it would from the terminal; a second one kills it.
      if (handled_signals == 1) {
        if (!stop_signal_from_terminal()) kill(child, pending_stop_signal());
        kill_at = now + 3000000000ull;
      } else {
        kill(child, SIGKILL);
      }
    }
    if (now >= deadline && !duration_hit) {
      duration_hit = true;
      if (!command_mode) break;
      kill(child, SIGTERM);
      kill_at = now + 3000000000ull;
    }
    if (now >= kill_at) {
      kill(child, SIGKILL);
      kill_at = UINT64_MAX;
    }
    // The reader of the log went away (`-o - | head`): nothing more can be delivered, so stop
    // sampling; a command runs on to its end, and its status stays the tool's.
    if (sink.closed() && !reader_gone) {
      reader_gone = true;
      set_enabled(opened, false);
      if (!command_mode) break;
    }
    if (!opt.pids.empty()) {
      bool any = false;
      for (pid_t p : opt.pids) any = any || process_exists(p);
      if (!any) break;
    }
  }

  // Stop counting, take what is left, then the final values and CLOSELOG.
  set_enabled(opened, false);
  drain();
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
    count_totals = sum_final_reads(finals, event_of_id, events.size());
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
  if (command_mode) exit_code = status_to_exit(child_status);
  // Not all of the log reached its reader, which chose to stop: no summary claims what was
  // not delivered, and the totals of --count stopped with the sampling.
  if (sink.closed()) return exit_code;

  const auto& st = conv.stats();
  if (!opt.quiet) {
    std::string evnames;
    for (const auto& e : events) {
      if (!evnames.empty()) evnames += ',';
      evnames += e.spec.name;
    }
    const std::string shown =
        out_path == "-" ? "standard output" : pmclog::display_path(out_path);
    std::string summary = "wrote " + shown + " (" +
                          std::string(pmclog::describe(abi)) + "): " +
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
      for (const auto& e : events) specs.push_back(e.spec);
      std::vector<ProcessCounts> procs;
      for (const auto& [pid, values] : conv.totals())
        procs.push_back(ProcessCounts{pid, conv.name_of(pid), values});
      const std::string who = command_mode ? "the command and all its descendants"
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
