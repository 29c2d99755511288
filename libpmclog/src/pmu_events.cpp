// Choosing a pmu-events table by cpuid and naming an index in it, as the libpmc that holds
// the tables does (format.md §12.2).
#include "pmclog/pmu_events.h"

#include <regex.h>

#include <cstdio>

namespace pmclog {

namespace {

// POSIX regcomp/regexec, as FreeBSD's libc gives libpmc: the leftmost match must start at the
// cpuid's first character and end at its end or just before a '-' (the stepping).
bool regex_chooses(const std::string& expr, const std::string& cpuid) {
  regex_t re;
  if (regcomp(&re, expr.c_str(), REG_EXTENDED) != 0) return false;  // libpmc skips it too
  regmatch_t m[1];
  const bool hit = regexec(&re, cpuid.c_str(), 1, m, 0) == 0 && m[0].rm_so == 0 &&
                   (cpuid[static_cast<size_t>(m[0].rm_eo)] == '\0' ||
                    cpuid[static_cast<size_t>(m[0].rm_eo)] == '-');
  regfree(&re);
  return hit;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

const PmuEventTable* find_pmu_table(const PmuEvents& events, std::string_view cpuid) {
  const std::string id(cpuid);
  for (const PmuEventTable& t : events.tables) {
    if (events.match == CpuidMatch::exact ? t.cpuid == id : regex_chooses(t.cpuid, id)) return &t;
  }
  return nullptr;
}

PmuEventName pmu_event_name(const PmuEvents& events, std::string_view cpuid, uint32_t index) {
  const PmuEventTable* t = find_pmu_table(events, cpuid);
  if (!t)
    return {{}, "no table of " + events.source + " is for cpuid \"" + std::string(cpuid) + "\" (" +
                    std::to_string(events.tables.size()) + " tables, their cpuids " +
                    (events.match == CpuidMatch::exact ? "compared as strings"
                                                       : "matched as regular expressions") +
                    ")"};
  const std::string which = events.source + "'s table for cpuid \"" + t->cpuid + "\"";
  if (index >= t->names.size())
    return {{}, which + " has " + std::to_string(t->names.size()) + " entries"};
  if (t->names[index].empty())
    return {{}, "entry " + hex(index) + " of " + which + " has no name (a metric)"};
  return {t->names[index], {}};
}

}  // namespace pmclog
