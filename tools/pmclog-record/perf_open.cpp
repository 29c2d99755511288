#include "perf_open.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace record {

int perf_open(perf_event_attr& attr, pid_t pid, int cpu, int group_fd) {
  attr.size = sizeof(attr);
  return static_cast<int>(
      syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC));
}

int paranoid_level() {
  std::ifstream f("/proc/sys/kernel/perf_event_paranoid");
  int v = 2;
  if (!(f >> v)) return 2;
  return v;
}

bool has_perf_privilege() {
  if (geteuid() == 0) return true;
  // CapEff bit 38 is CAP_PERFMON, bit 21 CAP_SYS_ADMIN.
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("CapEff:", 0) == 0) {
      unsigned long long caps = std::stoull(line.substr(7), nullptr, 16);
      return (caps >> 38 & 1) || (caps >> 21 & 1);
    }
  }
  return false;
}

std::string open_failure_message(const std::string& event, int err, bool system_wide,
                                 bool hardware) {
  std::ostringstream m;
  m << "cannot open event '" << event << "': " << std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
    case EOPNOTSUPP:
      if (hardware)
        m << " (this machine has no hardware performance counters for it, as in most "
             "virtual machines); use -e cpu-clock, or --fallback to switch automatically";
      else
        m << " (the kernel does not support this event here)";
      break;
    case EACCES:
    case EPERM: {
      int p = paranoid_level();
      m << " (kernel.perf_event_paranoid is " << p << "; ";
      if (system_wide)
        m << "-a needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0)";
      else
        m << "profiling needs kernel.perf_event_paranoid <= 2 for user space only, <= 1 with "
             "kernel frames, or root/CAP_PERFMON); try: sysctl kernel.perf_event_paranoid=1";
      break;
    }
    case EINVAL:
      m << " (the kernel rejected the settings; try a lower -F or another event)";
      break;
    case EMFILE:
      m << " (too many open files; raise ulimit -n)";
      break;
    case ESRCH:
      m << " (no such process)";
      break;
    default:
      break;
  }
  return m.str();
}

int online_cpu_count() {
  long n = sysconf(_SC_NPROCESSORS_CONF);
  return n > 0 ? static_cast<int>(n) : 1;
}

}  // namespace record
