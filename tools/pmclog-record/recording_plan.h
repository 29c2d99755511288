// What a recording is of, settled before anything is opened or written: the events, the
// command's program, the callchain depth; then the command forked to wait for its exec and
// the threads the events follow.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event_opening.h"
#include "launcher.h"
#include "options.h"

namespace record {

struct RecordingPlan {
  bool command_mode = false;
  std::vector<EventChoice> events;  // open_events() may switch one to its fallback
  std::string cmd_path;             // command mode: the program execvp(3) would run
  uint32_t depth = 0;               // frames per callchain
  std::vector<int> cpus;            // the CPUs events are opened on (-C, else all)
  std::vector<pid_t> tid_processes; // -t: the process of each thread, once each
};

// Fills `plan`, noting a capped depth. Returns an exit status, with the message printed,
// when there is nothing to record: a command that cannot run, a -p process that is gone.
std::optional<int> plan_recording(const Options& opt, RecordingPlan& plan);

// Forks the command, which waits for Launcher::go(), and lists the threads the events
// follow: the command's child, every thread of the -p processes, or {-1} for -a. Returns an
// exit status, with the message printed, when the command cannot be forked.
std::optional<int> prepare_targets(const Options& opt, const RecordingPlan& plan,
                                   Launcher& launcher, std::vector<pid_t>& targets);

}  // namespace record
