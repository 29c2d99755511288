// Opening what a recording writes to and reads from: the log's output, then the perf events.
// The output comes first, so that an output that is refused (a file the user may not write,
// a terminal) is the only message.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "event_opening.h"
#include "log_sink.h"
#include "options.h"
#include "recording_plan.h"

namespace record {

// How the events are to be opened, from the options and the plan.
OpenSettings open_settings(const Options& opt, const RecordingPlan& plan);

// -o's path, or the default name; an existing default-named log is kept as .old (as perf
// keeps perf.data.old), with a note.
std::string output_path(const Options& opt);

// Opens the log's output. False with the message printed.
bool open_output(LogSink& sink);

// Opens the events for `targets` on `cpus` (open_events()). False with the message
// printed; `s` and `events` then say what was actually opened (the fallbacks).
bool open_recorded_events(std::vector<EventChoice>& events, OpenSettings& s,
                          const std::vector<pid_t>& targets, const std::vector<int>& cpus,
                          OpenedEvents& opened);

}  // namespace record
