#include "sampling_loop.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "exit_status.h"
#include "pmclog/text.h"
#include "proc_info.h"
#include "signals.h"

namespace record {

using pmclog::tools::diag;
using pmclog::tools::Exit;

namespace {

constexpr uint64_t kGraceNs = 3000000000ull;  // from SIGTERM or the first signal to SIGKILL

// The longest the loop converts before it drains the ring buffers again. Each buffer wakes
// the loop a quarter full; at 20 kHz with 8 KiB stacks (--call-graph dwarf) the default
// 2 MiB buffer fills its other three quarters in about 9 ms.
constexpr uint64_t kConvertSliceNs = 2000000;

// The loop of sample_until_stop() with its state: what was handled of the signals and the
// deadline, when the command is to be killed.
class Sampler {
 public:
  Sampler(const Options& opt, pid_t child, uint64_t t0, OpenedEvents& opened, Merger& merger,
          const LogSink& sink)
      : opt_(opt),
        command_mode_(!opt.command.empty()),
        child_(child),
        deadline_(opt.duration > 0 ? t0 + static_cast<uint64_t>(opt.duration * 1e9)
                                   : UINT64_MAX),
        opened_(opened),
        merger_(merger),
        sink_(sink),
        child_done_(!command_mode_) {
    for (const auto& rb : opened.rings) pfds_.push_back(pollfd{rb.fd(), POLLIN, 0});
    // Test hook: a slow consumer, so that tests can make the ring buffers overflow for sure.
    const char* delay_env = std::getenv("PMCLOG_RECORD_DRAIN_DELAY_MS");
    drain_delay_ms_ = delay_env ? std::atoi(delay_env) : 0;
  }

  int run() {
    for (;;) {
      wait_for_records();
      drain(opened_, merger_, kConvertSliceNs);
      if (child_exited()) break;
      const uint64_t now = monotonic_ns();
      if (stop_signal_ends(now) || deadline_ends(now)) break;
      kill_when_due(now);
      if (reader_gone_ends() || attached_all_gone()) break;
    }
    return child_status_;
  }

 private:
  void wait_for_records() {
    // With samples left to convert, only a look: they are done between drains.
    poll(pfds_.data(), pfds_.size(), merger_.behind() ? 0 : 50);
    if (drain_delay_ms_ > 0) usleep(static_cast<useconds_t>(drain_delay_ms_) * 1000);
    // A buffer whose events all ended (the task exited) reports POLLHUP forever; stop
    // polling it so the loop sleeps instead of spinning. drain() still reads it.
    for (auto& p : pfds_)
      if (p.revents & (POLLHUP | POLLERR)) p.fd = -1;
  }

  bool child_exited() {
    if (!command_mode_ || child_done_) return false;
    int st;
    pid_t w = waitpid(child_, &st, WNOHANG);
    if (w != child_) return false;
    child_done_ = true;
    child_status_ = st;
    return true;
  }

  // The functions below return true when the recording ends here (only without a command:
  // a command's recording ends with the command).
  bool stop_signal_ends(uint64_t now) {
    if (stop_signal_count() <= handled_signals_) return false;
    handled_signals_ = stop_signal_count();
    if (!command_mode_) return true;
    // The command gets the signal as it would from the terminal; a second one kills it.
    if (handled_signals_ == 1) {
      if (!stop_signal_from_terminal()) kill(child_, pending_stop_signal());
      kill_at_ = now + kGraceNs;
    } else {
      kill(child_, SIGKILL);
    }
    return false;
  }

  bool deadline_ends(uint64_t now) {
    if (now < deadline_ || duration_hit_) return false;
    duration_hit_ = true;
    if (!command_mode_) return true;
    kill(child_, SIGTERM);
    kill_at_ = now + kGraceNs;
    return false;
  }

  void kill_when_due(uint64_t now) {
    if (now < kill_at_) return;
    kill(child_, SIGKILL);
    kill_at_ = UINT64_MAX;
  }

  // The reader of the log went away (`-o - | head`): nothing more can be delivered, so stop
  // sampling; a command runs on to its end, and its status stays the tool's.
  bool reader_gone_ends() {
    if (!sink_.closed() || reader_gone_) return false;
    reader_gone_ = true;
    set_enabled(opened_, false);
    return !command_mode_;
  }

  // -p processes or -t threads (kill(2) takes a thread id too).
  bool attached_all_gone() const {
    if (opt_.pids.empty() && opt_.tids.empty()) return false;
    bool any = false;
    for (pid_t p : opt_.pids) any = any || process_exists(p);
    for (pid_t t : opt_.tids) any = any || process_exists(t);
    return !any;
  }

  const Options& opt_;
  const bool command_mode_;
  const pid_t child_;
  const uint64_t deadline_;
  OpenedEvents& opened_;
  Merger& merger_;
  const LogSink& sink_;
  std::vector<pollfd> pfds_;
  int drain_delay_ms_ = 0;
  int handled_signals_ = 0;
  bool duration_hit_ = false;
  uint64_t kill_at_ = UINT64_MAX;
  bool child_done_;
  int child_status_ = 0;
  bool reader_gone_ = false;
};

}  // namespace

std::optional<int> start_sampling(const Options& opt, const RecordingPlan& plan,
                                  Launcher& launcher, const OpenedEvents& opened) {
  if (plan.command_mode) {
    std::string err;
    int exec_errno = 0;
    if (!launcher.go(err, exec_errno)) {
      diag().error(err + ": " + pmclog::display_path(plan.cmd_path) + "; nothing was recorded");
      int st;
      waitpid(launcher.pid(), &st, 0);
      // ENOENT after the program was found: its interpreter is missing, as env(1) says 127.
      return code(exec_errno == ENOENT ? Exit::not_found : Exit::cannot_run);
    }
  } else if (!opt.system_wide) {
    set_enabled(opened, true);
  }
  return std::nullopt;
}

void drain(OpenedEvents& opened, Merger& merger, uint64_t slice_ns) {
  const uint64_t before = monotonic_ns();
  for (auto& rb : opened.rings)
    rb.drain([&](std::span<const uint8_t> rec) {
      PerfEvent e;
      if (parse_perf_record(rec, opened.format, e)) merger.add(std::move(e));
    });
  // A margin for records stamped some time before being committed (a preempted vCPU).
  merger.flush_before(before > 20000000 ? before - 20000000 : 0,
                      slice_ns == UINT64_MAX ? UINT64_MAX : monotonic_ns() + slice_ns);
}

int sample_until_stop(const Options& opt, pid_t child, uint64_t t0, OpenedEvents& opened,
                      Merger& merger, const LogSink& sink) {
  return Sampler(opt, child, t0, opened, merger, sink).run();
}

}  // namespace record
