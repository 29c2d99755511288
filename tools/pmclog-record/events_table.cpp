#include "events_table.h"

#include <linux/perf_event.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace record {

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

EventSpec hw(const char* name, uint64_t config, const char* fallback = "cpu-clock") {
  return EventSpec{name, PERF_TYPE_HARDWARE, config, true, fallback};
}
EventSpec sw(const char* name, uint64_t config) {
  return EventSpec{name, PERF_TYPE_SOFTWARE, config, false, ""};
}

}  // namespace

const std::vector<EventSpec>& known_events() {
  // Hardware events fall back to cpu-clock (what perf does for cycles on a PMU-less
  // machine); cache events fall back to page-faults, the nearest memory-ish software count.
  static const std::vector<EventSpec> table = {
      hw("cycles", PERF_COUNT_HW_CPU_CYCLES),
      hw("instructions", PERF_COUNT_HW_INSTRUCTIONS),
      hw("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
      hw("branch-misses", PERF_COUNT_HW_BRANCH_MISSES),
      hw("cache-references", PERF_COUNT_HW_CACHE_REFERENCES, "page-faults"),
      hw("cache-misses", PERF_COUNT_HW_CACHE_MISSES, "page-faults"),
      hw("ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES),
      sw("cpu-clock", PERF_COUNT_SW_CPU_CLOCK),
      sw("task-clock", PERF_COUNT_SW_TASK_CLOCK),
      sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
      sw("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
  };
  return table;
}

const std::vector<EventAlias>& event_aliases() {
  // FreeBSD pmc(3) "common" event names (pmc.soft(3), pmc(3) EVENT SPECIFIERS) and the
  // usual perf spellings.
  static const std::vector<EventAlias> table = {
      {"unhalted-cycles", "cycles"},
      {"cpu-cycles", "cycles"},
      {"instructions", "instructions"},
      {"instructions-retired", "instructions"},
      {"branch-instructions", "branches"},
      {"branches", "branches"},
      {"branch-mispredicts", "branch-misses"},
      {"dc-misses", "cache-misses"},
      {"ic-misses", "cache-misses"},
      {"llc-misses", "cache-misses"},
      {"unhalted-reference-cycles", "ref-cycles"},
      {"cpu-clock", "cpu-clock"},
      {"soft-clock.hard", "cpu-clock"},
      {"soft-clock.stat", "cpu-clock"},
      {"task-clock", "task-clock"},
      {"page-faults", "page-faults"},
      {"faults", "page-faults"},
      {"page-fault.all", "page-faults"},
      {"context-switches", "context-switches"},
      {"cs", "context-switches"},
  };
  return table;
}

std::optional<EventSpec> find_event(std::string_view name) {
  const std::string n = lower(name);
  std::string canonical = n;
  for (const auto& a : event_aliases())
    if (a.alias == n) canonical = std::string(a.name);
  for (const auto& e : known_events())
    if (e.name == canonical) return e;
  // Raw PMU code: rXXXX, hexadecimal.
  if (n.size() >= 2 && n.size() <= 17 && n[0] == 'r') {
    uint64_t code = 0;
    auto [p, ec] = std::from_chars(n.data() + 1, n.data() + n.size(), code, 16);
    if (ec == std::errc() && p == n.data() + n.size())
      return EventSpec{n, PERF_TYPE_RAW, code, true, "cpu-clock"};
  }
  return std::nullopt;
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    if (comma == std::string_view::npos) comma = s.size();
    if (comma > pos) out.emplace_back(s.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

}  // namespace record
