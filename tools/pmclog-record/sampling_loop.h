// The recording proper: the recorded work is let run, and the per-CPU ring buffers are
// polled, drained and merged by time until the recording ends.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

#include "event_opening.h"
#include "launcher.h"
#include "log_sink.h"
#include "merger.h"
#include "options.h"
#include "recording_plan.h"

namespace record {

// Lets the command exec (its events are enabled by the exec), or enables the events of -p;
// -a's are enabled already. Returns an exit status, with the message printed, when the
// command could not be started.
std::optional<int> start_sampling(const Options& opt, const RecordingPlan& plan,
                                  Launcher& launcher, const OpenedEvents& opened);

// Reads every ring buffer into `merger`, and writes what is old enough to be in time order,
// for at most `slice_ns` (what is left waits in the merger for the next drain).
void drain(OpenedEvents& opened, Merger& merger, uint64_t slice_ns = UINT64_MAX);

// Polls and drains until the recording ends: the command exited; without a command, a stop
// signal, --duration, the log's reader gone or every -p process gone. A command gets the
// stop signal, or SIGTERM at --duration, and SIGKILL 3 s later or at a second signal.
// Returns the command's wait status (0 without a command; `child` is then -1).
int sample_until_stop(const Options& opt, pid_t child, uint64_t t0, OpenedEvents& opened,
                      Merger& merger, const LogSink& sink);

}  // namespace record
