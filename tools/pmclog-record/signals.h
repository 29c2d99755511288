// SIGINT/SIGTERM/SIGCHLD are turned into flags the main loop polls; the loop forwards
// stop signals to the command, as perf record's user would expect from Ctrl-C.
#pragma once

#include <csignal>

namespace record {

void install_signal_handlers();
// The last SIGINT/SIGTERM received (0 when none), and how many arrived.
int pending_stop_signal();
int stop_signal_count();
// True when the last stop signal came from the terminal (the command got it as well).
bool stop_signal_from_terminal();
// Cleared by the caller once it has reaped children.
bool child_signalled();
void clear_child_signalled();

}  // namespace record
