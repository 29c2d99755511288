// One recording: opens the events, starts or attaches to the target, drains the per-CPU
// ring buffers, merges them by time, converts, and writes the log. run_record.cpp runs the
// steps, each from a file of its own.
#pragma once

#include "options.h"

namespace record {

// Returns the process exit status: the command's status (128+N for signal N), 0 for -p/-a,
// or Exit::tool_failed, cannot_run, not_found (exit_status.h) with the message printed.
int run_record(const Options& opt);
// --list-events: prints the table with each event opened to test support.
int list_events();

}  // namespace record
