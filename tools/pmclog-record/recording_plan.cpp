#include "recording_plan.h"

#include <algorithm>

#include "callchain_depth.h"
#include "perf_open.h"
#include "diagnostics.h"
#include "exit_status.h"
#include "pmclog/names.h"
#include "pmclog/text.h"
#include "proc_info.h"

namespace record {

using pmclog::tools::diag;
using pmclog::tools::Exit;

namespace {

// The program of a command, or the exit status a shell would give (127 when there is no
// such program, 126 when it cannot be run), with the message printed.
std::optional<int> resolve_program(const std::string& command, std::string& path) {
  std::string why;
  bool found = false;
  auto p = resolve_command(command, why, found);
  if (!p) {
    diag().error("cannot run '" + pmclog::display_path(command) + "': " + why +
                 "; nothing was recorded");
    return code(found ? Exit::cannot_run : Exit::not_found);
  }
  path = *p;
  return std::nullopt;
}

// The frames a callchain keeps, with a note when a limit lowered the user's --depth.
uint32_t callchain_depth(const Options& opt) {
  const pmclog::Abi abi = opt.abi;
  const DepthChoice dc =
      choose_depth(opt.depth, abi.callchain_depth_max(),
                   std::string(pmclog::generation_name(abi.generation)).c_str(),
                   read_kernel_stack_limits(), opt.user_callchain ? 2 : 1);
  const uint32_t depth = dc.depth;
  if (opt.depth_given && !dc.capped_by.empty() && !opt.quiet)
    diag().note("callchain depth capped at " + std::to_string(depth) + " (" + dc.capped_by +
                 ")");
  if (!dc.note.empty() && !opt.counting && !opt.quiet) diag().note(dc.note);
  return depth;
}

}  // namespace

std::optional<int> plan_recording(const Options& opt, RecordingPlan& plan) {
  plan.command_mode = !opt.command.empty();
  // parse_options() has refused unknown events and --count with -a (usage errors).
  for (const auto& name : opt.events) {
    auto spec = find_event(name);
    if (!spec) return code(Exit::tool_failed);  // unreachable after parse_options()
    plan.events.push_back(EventChoice{name, *spec, false});
  }
  // A command that cannot run fails before anything is opened or written.
  if (plan.command_mode)
    if (auto refused = resolve_program(opt.command[0], plan.cmd_path)) return refused;
  for (pid_t pid : opt.pids)
    if (!process_exists(pid)) {
      diag().error("no process " + std::to_string(pid) + "; nothing was recorded");
      return code(Exit::tool_failed);
    }
  for (pid_t tid : opt.tids) {
    const std::optional<pid_t> pid = thread_process(tid);
    if (!pid) {
      diag().error("no thread " + std::to_string(tid) + "; nothing was recorded");
      return code(Exit::tool_failed);
    }
    if (std::find(plan.tid_processes.begin(), plan.tid_processes.end(), *pid) ==
        plan.tid_processes.end())
      plan.tid_processes.push_back(*pid);
  }
  plan.cpus = opt.cpus;
  if (plan.cpus.empty())
    for (int c = 0; c < online_cpu_count(); ++c) plan.cpus.push_back(c);
  plan.depth = callchain_depth(opt);
  return std::nullopt;
}

std::optional<int> prepare_targets(const Options& opt, const RecordingPlan& plan,
                                   Launcher& launcher, std::vector<pid_t>& targets) {
  if (plan.command_mode) {
    std::string err;
    if (!launcher.prepare(plan.cmd_path, opt.command, err)) {
      diag().error(err);
      return code(Exit::tool_failed);
    }
    if (!opt.system_wide) targets.push_back(launcher.pid());
  }
  if (opt.system_wide) targets = {-1};
  for (pid_t pid : opt.pids)
    for (pid_t tid : proc_threads(pid)) targets.push_back(tid);
  for (pid_t tid : opt.tids) targets.push_back(tid);  // that thread (and what it starts) only
  return std::nullopt;
}

}  // namespace record
