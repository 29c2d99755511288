// Opening the perf events of a recording: one per (event, CPU, target thread), with the
// side-band records (mmap, comm, fork/exit) on the first event of each (target, CPU), one
// ring buffer per CPU that the others redirect into, and the fallbacks when perf refuses an
// event: the software event for a missing PMU (common on virtual machines), user-only
// frames under a strict kernel.perf_event_paranoid.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "events_table.h"
#include "perf_records.h"
#include "ring_buffer.h"

namespace record {

struct EventChoice {
  std::string requested;  // as given on the command line
  EventSpec spec;         // what is actually counted (after --fallback)
  bool fell_back = false;
};

struct OpenSettings {
  bool counting = false;
  bool system_wide = false;    // pid = -1, no inheritance
  bool enable_on_exec = false; // command mode
  bool exclude_kernel = false;
  bool fallback = false;
  bool use_period = false;
  uint64_t period = 0, frequency = 1000;
  uint32_t max_stack = 32;
  // --call-graph dwarf: the user registers and this many bytes of the user stack with each
  // sample, for the recorder to unwind; the kernel's callchain keeps only the kernel part.
  bool dwarf = false;
  uint32_t stack_bytes = 0;
  size_t mmap_pages = 64;
};

struct EventIdInfo {
  size_t event = 0;  // index into the events
  int cpu = -1;
};

struct OpenedEvents {
  std::vector<int> fds;           // all of them, closed by close_all()
  std::vector<int> leaders;       // counting: the context-switch leader of each group
  std::vector<RingBuffer> rings;  // one per CPU
  std::unordered_map<uint64_t, EventIdInfo> ids;  // perf id -> which event, which CPU
  PerfFormat format;
  bool user_only_fallback = false;  // kernel frames were refused
  void close_all();
  ~OpenedEvents() { close_all(); }
};

// Opens everything; `targets` are thread ids (or {-1} for -a), on each of `cpus`. On failure
// returns false
// with one clear message in `err` (event, reason, suggestion).
bool open_events(std::vector<EventChoice>& events, OpenSettings& s,
                 const std::vector<pid_t>& targets, const std::vector<int>& cpus, OpenedEvents& out,
                 std::string& err);

// Enables / disables every fd (for -p and -a; a command is enabled by its exec).
void set_enabled(const OpenedEvents& ev, bool on);

}  // namespace record
