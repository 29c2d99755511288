// The events pmclog-record knows: perf names, FreeBSD pmc(3) aliases, raw codes, and the
// software event each hardware event falls back to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace record {

struct EventSpec {
  std::string name;      // canonical perf name ("cycles", "cpu-clock", "r00c0")
  uint32_t type = 0;     // PERF_TYPE_*
  uint64_t config = 0;
  bool hardware = false;
  std::string fallback;  // software event to use under --fallback (empty for software)
};

struct EventAlias {
  std::string_view alias;
  std::string_view name;
};

// All events of the table, canonical names only (for --list-events).
const std::vector<EventSpec>& known_events();
// The alias table (FreeBSD pmc(3) common names and perf spellings).
const std::vector<EventAlias>& event_aliases();

// Resolves a name, an alias or a raw code rXXXX (case-insensitive); nullopt when unknown.
std::optional<EventSpec> find_event(std::string_view name);

// Splits "a,b,c" into names, dropping empty parts.
std::vector<std::string> split_list(std::string_view s);

}  // namespace record
