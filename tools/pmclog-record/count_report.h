// What --count prints at the end: the totals of the command and all its descendants (what
// `perf stat` reports for the same command), per event with units, and with --per-process
// each process's own counts.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "events_table.h"
#include "perf_records.h"

namespace record {

struct CountTotals {
  std::vector<uint64_t> values;  // by event index
  uint64_t enabled = 0;          // the longest time_enabled of a CPU's group
  uint64_t running = 0;          // time_running summed over the CPUs' groups
};

// Sums the final group reads of the per-CPU leaders. Inherited events hold every
// descendant's counts, and a task counts on one CPU at a time, so the sum is exact; the
// times say whether the counters were multiplexed (running < enabled).
CountTotals sum_final_reads(const std::vector<PerfEvent>& reads,
                            const std::unordered_map<uint64_t, size_t>& event_of_id,
                            size_t nevents);

struct ProcessCounts {
  uint32_t pid = 0;
  std::string name;
  std::vector<uint64_t> values;  // by event index, the process's own
};

// "1435.116 msec" for the clocks (which count nanoseconds), "427" for counts.
std::string format_count(const EventSpec& ev, uint64_t value);

// The report's lines; `who` names what was counted ("the command and all its descendants").
std::string count_report(const std::vector<EventSpec>& events, const CountTotals& total,
                         const std::vector<ProcessCounts>& procs, bool per_process,
                         const std::string& who);

}  // namespace record
