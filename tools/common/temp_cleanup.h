// Temporary output files that a fatal signal must not leave behind. The paths live in fixed
// buffers so that the handler only calls unlink(2), which is async-signal-safe.
#pragma once

#include <signal.h>

#include <string>

namespace pmclog::tools {

// Remembers `path` for removal on a fatal signal; returns a slot for forget_temp(), or -1
// when every slot is taken or the path is too long (the file is then only removed normally).
int remember_temp(const std::string& path);
void forget_temp(int slot);

// SIGINT, SIGTERM and SIGHUP remove every remembered temporary and then end the process by
// the same signal (exit status 130, 143, 129 in a shell). SIGPIPE is ignored: a closed pipe
// becomes an EPIPE write error, which the tools end quietly on. For tools that die on these
// signals (pmclog-write, pmclog-validate); pmclog-record turns them into a clean stop.
void install_cleanup_signal_handlers();

// Blocks the signals above while a temporary is created and remembered, or renamed and
// forgotten, so that no signal lands in between. Restores the mask when destroyed.
class FatalSignalsBlocked {
 public:
  FatalSignalsBlocked();
  ~FatalSignalsBlocked();
  FatalSignalsBlocked(const FatalSignalsBlocked&) = delete;
  FatalSignalsBlocked& operator=(const FatalSignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

}  // namespace pmclog::tools
