// perf_event_open(2) and the messages for its failures: kernel.perf_event_paranoid levels,
// and no hardware PMU on virtual machines.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <string>

namespace record {

// Thin syscall wrapper; returns the fd or -1 with errno set. Always close-on-exec.
int perf_open(perf_event_attr& attr, pid_t pid, int cpu, int group_fd);

// kernel.perf_event_paranoid, or 2 (the default) when it cannot be read.
int paranoid_level();
// True for root, or with CAP_PERFMON / CAP_SYS_ADMIN in the effective set.
bool has_perf_privilege();

// One line naming the event, the reason and what to do, for an open that failed with `err`.
// `system_wide` says whether a CPU-wide event was asked for (-a).
std::string open_failure_message(const std::string& event, int err, bool system_wide,
                                 bool hardware);

// Number of possible CPUs (perf wants one event per CPU to follow children with buffers).
int online_cpu_count();

}  // namespace record
