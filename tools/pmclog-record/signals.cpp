#include "signals.h"

namespace record {

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
volatile std::sig_atomic_t g_stop_count = 0;
volatile std::sig_atomic_t g_child = 0;
volatile std::sig_atomic_t g_from_tty = 0;

void on_stop(int sig, siginfo_t* info, void*) {
  g_stop_signal = sig;
  g_stop_count = g_stop_count + 1;
  // Ctrl-C from a terminal reaches the whole foreground group, the command included;
  // only a signal sent to us alone (kill) needs forwarding.
  g_from_tty = info && info->si_code == SI_KERNEL;
}
void on_child(int) { g_child = 1; }
}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = on_stop;  // no SA_RESTART: poll() must wake up
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = on_child;
  sa.sa_flags = SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, nullptr);
  // SIGPIPE is ignored by run_main: a closed -o - is an EPIPE value (log_sink.h).
}

int pending_stop_signal() { return g_stop_signal; }
int stop_signal_count() { return g_stop_count; }
bool stop_signal_from_terminal() { return g_from_tty != 0; }
bool child_signalled() { return g_child != 0; }
void clear_child_signalled() { g_child = 0; }

}  // namespace record
