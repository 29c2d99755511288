// `pmclog-write synth`: a realistic, deterministic workload rendered as a log of any ABI.
// INITIALIZE; allocations (system-mode sampling PMCs, one per CPU and event); the kernel's
// mappings; a shell that forks and execs programs, each mapping its executable and shared
// libraries; threads that come and go (modern); samples (CALLCHAIN, or PCSAMPLE in L1) whose
// frames lie in mapped objects and follow consistent caller chains; context switches with
// growing counter values; process exits with their unmappings; rare DROPNOTIFY; CLOSELOG.
#pragma once

#include <cstdint>

#include "pmclog/abi.h"

namespace pmclog::write {

class RecordStream;

struct SynthOptions {
  Abi abi;
  uint64_t records = 0;  // exact record count, or 0
  uint64_t size = 0;     // byte budget (the log is at most this long), or 0
  uint32_t processes = 8;  // live processes in steady state, the shell included
  uint32_t depth_min = 2, depth_max = 16;
  uint32_t events = 1;
  uint32_t cpus = 4;
  size_t cpu_buffer_size = 256 * 1024;  // kern.hwpmc.logbuffersize default
  uint64_t seed = 1;
  // A share of the CALLCHAIN records multipart (AMD IBS, format.md §17): IBS_OP + CALLCHAIN,
  // some IBS_FETCH + CALLCHAIN. Modern generations only.
  bool ibs = false;
};

inline constexpr uint32_t kMaxSynthEvents = 8;
inline constexpr uint32_t kMaxSynthCpus = 256;
// FreeBSD's PID_MAX: no system has more live processes.
inline constexpr uint32_t kMaxSynthProcesses = 99999;

// Throws tools::UsageError naming the option whose value is out of range, or two that
// cannot go together; called before the output is opened.
void check_synth_options(const SynthOptions& opt);

// Writes the whole log to the stream. Throws tools::UsageError when the options cannot be
// met (a record budget below what the setup needs; nothing is written then).
void run_synth(const SynthOptions& opt, RecordStream& stream);

}  // namespace pmclog::write
