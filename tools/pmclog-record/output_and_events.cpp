#include "output_and_events.h"

#include <sys/stat.h>

#include <cstdio>

#include "diagnostics.h"
#include "pmclog/text.h"

namespace record {

using pmclog::tools::diag;

OpenSettings open_settings(const Options& opt, const RecordingPlan& plan) {
  OpenSettings s;
  s.counting = opt.counting;
  s.system_wide = opt.system_wide;
  s.enable_on_exec = plan.command_mode && !opt.system_wide;
  s.exclude_kernel = opt.user_only;
  s.fallback = opt.fallback;
  s.use_period = opt.period.has_value();
  s.period = opt.period.value_or(0);
  s.frequency = opt.frequency;
  s.max_stack = plan.depth;  // frames only: the kernel counts the context markers apart
  s.dwarf = opt.call_graph == Options::CallGraph::dwarf;
  s.stack_bytes = opt.stack_bytes;
  s.mmap_pages = opt.mmap_pages;
  return s;
}

std::string output_path(const Options& opt) {
  std::string out_path = opt.output;
  if (out_path.empty()) {
    out_path = kDefaultOutput;
    struct stat st;
    if (stat(out_path.c_str(), &st) == 0) {
      std::string old = out_path + ".old";
      if (std::rename(out_path.c_str(), old.c_str()) == 0 && !opt.quiet)
        diag().note("kept the previous " + pmclog::display_path(out_path) + " as " +
                    pmclog::display_path(old));
    }
  }
  return out_path;
}

bool open_output(LogSink& sink) {
  std::string err;
  if (!sink.open(err)) {
    // the sink's messages name the output path
    diag().error(err);
    return false;
  }
  return true;
}

bool open_recorded_events(std::vector<EventChoice>& events, OpenSettings& s,
                          const std::vector<pid_t>& targets, const std::vector<int>& cpus,
                          OpenedEvents& opened) {
  std::string err;
  if (!open_events(events, s, targets, cpus, opened, err)) {
    diag().error(err + "; nothing was recorded");
    return false;
  }
  return true;
}

}  // namespace record
