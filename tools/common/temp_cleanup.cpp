#include "temp_cleanup.h"

#include <unistd.h>

#include <cstring>

namespace pmclog::tools {

namespace {

// A few at once: pmclog-write has its log and --inject-log, written one after the other.
constexpr int kSlots = 4;
char g_path[kSlots][4096];
volatile sig_atomic_t g_used[kSlots];

constexpr int kFatal[] = {SIGINT, SIGTERM, SIGHUP};

void on_fatal_signal(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i]) unlink(g_path[i]);
  signal(sig, SIG_DFL);
  raise(sig);  // delivered when the handler returns: the status says which signal
}

}  // namespace

int remember_temp(const std::string& path) {
  if (path.size() >= sizeof g_path[0]) return -1;
  for (int i = 0; i < kSlots; ++i) {
    if (g_used[i]) continue;
    std::memcpy(g_path[i], path.c_str(), path.size() + 1);
    g_used[i] = 1;
    return i;
  }
  return -1;
}

void forget_temp(int slot) {
  if (slot >= 0 && slot < kSlots) g_used[slot] = 0;
}

void install_cleanup_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : kFatal) sigaddset(&sa.sa_mask, s);  // one cleanup at a time
  for (int s : kFatal) sigaction(s, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

FatalSignalsBlocked::FatalSignalsBlocked() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kFatal) sigaddset(&set, s);
  sigprocmask(SIG_BLOCK, &set, &old_);
}

FatalSignalsBlocked::~FatalSignalsBlocked() { sigprocmask(SIG_SETMASK, &old_, nullptr); }

}  // namespace pmclog::tools
