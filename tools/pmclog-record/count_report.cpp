#include "count_report.h"

#include <linux/perf_event.h>

#include <algorithm>
#include <cstdio>

#include "diagnostics.h"
#include "pmclog/text.h"

namespace record {

namespace {

bool is_clock(const EventSpec& ev) {
  return ev.type == PERF_TYPE_SOFTWARE &&
         (ev.config == PERF_COUNT_SW_CPU_CLOCK || ev.config == PERF_COUNT_SW_TASK_CLOCK);
}

std::string number(const EventSpec& ev, uint64_t value) {
  char buf[64];
  if (is_clock(ev))
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(value) / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(value));
  return buf;
}

}  // namespace

CountTotals sum_final_reads(const std::vector<PerfEvent>& reads,
                            const std::unordered_map<uint64_t, size_t>& event_of_id,
                            size_t nevents) {
  CountTotals t;
  t.values.assign(nevents, 0);
  for (const PerfEvent& e : reads) {
    t.enabled = std::max(t.enabled, e.time_enabled);
    t.running += e.time_running;
    for (const ReadValue& v : e.values) {
      auto it = event_of_id.find(v.id);
      if (it != event_of_id.end() && it->second < nevents) t.values[it->second] += v.value;
    }
  }
  return t;
}

std::string format_count(const EventSpec& ev, uint64_t value) {
  return number(ev, value) + (is_clock(ev) ? " msec" : "");
}

std::string count_report(const std::vector<EventSpec>& events, const CountTotals& total,
                         const std::vector<ProcessCounts>& procs, bool per_process,
                         const std::string& who) {
  std::string out;
  char line[512];
  // Headed by the tool's name, as its other messages are: the report is on standard error.
  const std::string tool(pmclog::tools::diag().tool());
  std::snprintf(line, sizeof line, "%s: totals of %s (%zu process%s):\n", tool.c_str(),
                who.c_str(), procs.size(), procs.size() == 1 ? "" : "es");
  out += line;
  for (size_t i = 0; i < events.size() && i < total.values.size(); ++i) {
    std::snprintf(line, sizeof line, "%16s %-4s  %s\n", number(events[i], total.values[i]).c_str(),
                  is_clock(events[i]) ? "msec" : "", events[i].name.c_str());
    out += line;
  }
  // perf stat would scale by enabled/running; the log keeps what was counted, as hwpmc does.
  if (total.running > 0 && total.running < total.enabled - total.enabled / 1000) {
    std::snprintf(line, sizeof line, "%s: note: the counters ran for %.1f%% of the "
                  "time the tasks ran (shared with other perf users); these counts are what "
                  "was counted, not scaled\n", tool.c_str(),
                  100.0 * static_cast<double>(total.running) / static_cast<double>(total.enabled));
    out += line;
  }
  if (!per_process) return out;
  out += tool + ": each process's own counts (--per-process):\n";
  std::vector<std::string> heads;
  std::string head = "     PID  COMMAND        ";
  for (const auto& ev : events) {
    heads.push_back(ev.name + (is_clock(ev) ? " (msec)" : ""));
    head += "  " + heads.back();
  }
  out += head + "\n";
  for (const auto& p : procs) {
    // a command name is whatever the process chose (prctl PR_SET_NAME): escaped
    std::snprintf(line, sizeof line, "%8u  %-15.15s", p.pid, pmclog::escaped(p.name).c_str());
    out += line;
    for (size_t i = 0; i < events.size(); ++i) {
      const std::string n = number(events[i], i < p.values.size() ? p.values[i] : 0);
      out += "  " + std::string(heads[i].size() > n.size() ? heads[i].size() - n.size() : 0, ' ') + n;
    }
    out += "\n";
  }
  return out;
}

}  // namespace record
