#include "event_opening.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "diagnostics.h"
#include "dwarf_unwinder.h"
#include "perf_open.h"

namespace record {

namespace {

constexpr uint64_t kSampleType = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
                                 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                                 PERF_SAMPLE_CALLCHAIN;
constexpr uint64_t kCountSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
    PERF_SAMPLE_READ;
constexpr uint64_t kReadFormat = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                                 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

perf_event_attr base_attr(const OpenSettings& s, bool sideband) {
  perf_event_attr a{};
  a.size = sizeof(a);
  a.disabled = 1;
  a.inherit = s.system_wide ? 0 : 1;
  a.enable_on_exec = s.enable_on_exec ? 1 : 0;
  a.exclude_kernel = s.exclude_kernel ? 1 : 0;
  a.exclude_hv = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;  // so records can be compared with our own clock
  a.sample_id_all = 1;
  if (sideband) {
    a.mmap = 1;
    a.mmap2 = 1;
    a.comm = 1;
    a.comm_exec = 1;
    a.task = 1;
  }
  return a;
}

perf_event_attr sampling_attr(const EventSpec& ev, const OpenSettings& s, bool sideband) {
  perf_event_attr a = base_attr(s, sideband);
  a.type = ev.type;
  a.config = ev.config;
  a.sample_type = kSampleType;
  if (s.use_period) {
    a.sample_period = s.period;
  } else {
    a.freq = 1;
    a.sample_freq = s.frequency;
  }
  a.sample_max_stack = static_cast<uint16_t>(s.max_stack);
  if (s.dwarf) {
    a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    a.sample_regs_user = unwind_register_mask();
    a.sample_stack_user = s.stack_bytes;
    a.exclude_callchain_user = 1;  // the recorder unwinds the user part
  }
  a.watermark = 1;
  a.wakeup_watermark = static_cast<uint32_t>(s.mmap_pages * 4096 / 4);
  return a;
}

// Counting: a context-switch event samples the group at every switch-out of a thread
// (PERF_SAMPLE_READ with inherit gives that thread's own values); inherit_stat makes the
// kernel report each exiting thread's final values (PERF_RECORD_READ).
perf_event_attr leader_attr(const OpenSettings& s, bool sideband) {
  perf_event_attr a = base_attr(s, sideband);
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
  a.sample_period = 1;
  a.sample_type = kCountSampleType;
  a.read_format = kReadFormat;
  a.inherit_stat = 1;
  a.watermark = 1;
  a.wakeup_watermark = static_cast<uint32_t>(s.mmap_pages * 4096 / 4);
  return a;
}

perf_event_attr member_attr(const EventSpec& ev, const OpenSettings& s) {
  perf_event_attr a = base_attr(s, false);
  a.disabled = 0;  // follows the leader
  a.enable_on_exec = 0;
  a.type = ev.type;
  a.config = ev.config;
  a.read_format = kReadFormat;
  a.sample_type = kCountSampleType;  // never samples; gives its records the same trailer
  // Members report their own final values: by the time the leader reports at a thread's
  // exit, the members may have left its group already.
  a.inherit_stat = 1;
  return a;
}

struct Opener {
  std::vector<EventChoice>& events;
  OpenSettings& s;
  OpenedEvents& out;
  std::string& err;

  // Opens one fd, applying the fallbacks the first time an event is refused.
  int open_one(size_t ei, pid_t target, int cpu, bool sideband, int group, bool leader) {
    for (int attempt = 0; attempt < 4; ++attempt) {
      perf_event_attr a = leader ? leader_attr(s, sideband)
                          : s.counting ? member_attr(events[ei].spec, s)
                                       : sampling_attr(events[ei].spec, s, sideband);
      int fd = perf_open(a, target, cpu, group);
      if (fd >= 0) return fd;
      const int e = errno;
      if (e == ESRCH) return -ESRCH;  // the thread went away meanwhile
      const bool no_pmu = e == ENOENT || e == ENODEV || e == ENXIO || e == EOPNOTSUPP;
      if (!leader && no_pmu && events[ei].spec.hardware && s.fallback) {
        auto fb = find_event(events[ei].spec.fallback);
        // Two events falling back to one would record it twice, each sample counted twice
        // wherever the two are read as the one event they are.
        for (size_t j = 0; j < events.size(); ++j)
          if (j != ei && events[j].spec.type == fb->type && events[j].spec.config == fb->config) {
            err = "--fallback would record '" + events[ei].requested + "' as '" + fb->name +
                  "', which '" + events[j].requested + "' is already recorded as: the same "
                  "event twice; give one of them";
            return -e;
          }
        pmclog::tools::diag().note("event '" + events[ei].requested +
                                   "' is not available here (" + std::strerror(e) +
                                   ": no hardware counter); using software event '" + fb->name +
                                   "' instead (--fallback)");
        events[ei].spec = *fb;
        events[ei].fell_back = true;
        continue;
      }
      if ((e == EACCES || e == EPERM) && !s.exclude_kernel && !s.system_wide &&
          paranoid_level() > 1 && !has_perf_privilege()) {
        pmclog::tools::diag().warning(
            "kernel.perf_event_paranoid is " + std::to_string(paranoid_level()) +
            ": recording user-space callchains only (set it to 1 or run as root for kernel "
            "frames)");
        s.exclude_kernel = true;
        out.user_only_fallback = true;
        continue;
      }
      if (e == EINVAL && !s.use_period) {
        FILE* f = std::fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
        unsigned long maxrate = 0;
        if (f) {
          if (std::fscanf(f, "%lu", &maxrate) != 1) maxrate = 0;
          std::fclose(f);
        }
        if (maxrate && s.frequency > maxrate) {
          err = "cannot open event '" + events[ei].spec.name + "': -F " +
                std::to_string(s.frequency) + " is above kernel.perf_event_max_sample_rate (" +
                std::to_string(maxrate) + "); use a lower -F";
          return -e;
        }
      }
      const std::string name = leader ? "context-switches (counting-mode switch tracker)"
                                      : events[ei].requested;
      err = open_failure_message(name, e, s.system_wide,
                                 !leader && events[ei].spec.hardware);
      if (leader && e == EINVAL)
        err += "; this kernel may not allow inherited PERF_SAMPLE_READ (recent kernels "
               "do), which --count needs";
      return -e;
    }
    return -EINVAL;
  }
};

}  // namespace

void OpenedEvents::close_all() {
  rings.clear();
  for (int fd : fds) close(fd);
  fds.clear();
  leaders.clear();
}

bool open_events(std::vector<EventChoice>& events, OpenSettings& s,
                 const std::vector<pid_t>& targets, const std::vector<int>& cpus, OpenedEvents& out,
                 std::string& err) {
  out.format.sample_type = s.counting ? kCountSampleType : kSampleType;
  if (s.dwarf && !s.counting) {
    out.format.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    out.format.regs_user = unwind_register_mask();
  }
  out.format.read_format = kReadFormat;
  out.format.sample_id_all = true;
  Opener op{events, s, out, err};
  out.rings.reserve(cpus.size());
  for (int cpu : cpus) {
    int ring_fd = -1;
    bool any = false;
    // The CPU's first event gets the ring buffer; every later one writes into it.
    auto attach_ring = [&](int fd) {
      if (ring_fd < 0) {
        RingBuffer rb;
        if (!rb.map(fd, s.mmap_pages)) {
          err = std::string("cannot map the perf ring buffer: ") + std::strerror(errno) +
                " (try a smaller --mmap-pages, or raise kernel.perf_event_mlock_kb)";
          return false;
        }
        out.rings.push_back(std::move(rb));
        ring_fd = fd;
      } else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) != 0) {
        err = std::string("cannot share the ring buffer: ") + std::strerror(errno);
        return false;
      }
      return true;
    };
    for (pid_t target : targets) {
      int group = -1;
      if (s.counting) {
        int fd = op.open_one(0, target, cpu, true, -1, true);
        if (fd == -ESRCH) continue;
        if (fd < 0) return false;
        out.fds.push_back(fd);
        out.leaders.push_back(fd);
        group = fd;
        if (!attach_ring(fd)) return false;
      }
      for (size_t ei = 0; ei < events.size(); ++ei) {
        const bool sideband = !s.counting && ei == 0;
        int fd = op.open_one(ei, target, cpu, sideband, group, false);
        if (fd == -ESRCH) break;
        if (fd < 0) return false;
        out.fds.push_back(fd);
        any = true;
        uint64_t id = 0;
        if (ioctl(fd, PERF_EVENT_IOC_ID, &id) == 0) out.ids[id] = EventIdInfo{ei, cpu};
        // Counting members write only their PERF_RECORD_READ, into the same ring.
        if (!attach_ring(fd)) return false;
      }
    }
    (void)any;
  }
  if (out.rings.empty()) {
    err = "no event could be opened (the target processes are gone)";
    return false;
  }
  return true;
}

void set_enabled(const OpenedEvents& ev, bool on) {
  for (int fd : ev.fds) ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

}  // namespace record
