// The pmu-events tables of a FreeBSD libpmc (12 and later), and how that libpmc names a
// pmu-events index (format.md §12.2). A modern PMCALLOCATE flagged EV_PMU logs no event code
// but an index into the table that the recording system's libpmc chose for the CPU; only that
// libpmc can name it. pmcprofile::read_pmu_events() reads the tables out of the library file;
// this header holds them and the lookup, so that the codec's tools need no ELF reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pmclog {

// How a libpmc compares the log's cpuid string with a table's: the same string (later trees),
// or the table's cpuid as a POSIX extended regular expression (12-era trees).
enum class CpuidMatch : uint8_t { exact, regex };

struct PmuEventTable {
  std::string cpuid;  // as the library holds it: a string, or a regular expression
  // Every entry in order, "" for an entry without a name (a metric): an index counts them all.
  std::vector<std::string> names;
};

struct PmuEvents {
  std::string source;  // the file read (for messages): "ROOT/usr/lib/libpmc.so.5"
  CpuidMatch match = CpuidMatch::exact;
  unsigned pointers_per_event = 11;  // the struct pmu_event found: 11 or 12 pointers
  std::vector<PmuEventTable> tables;  // in the library's order, which decides between matches
};

// The table the library chooses for `cpuid`: the first whose cpuid equals it (exact), or
// whose expression matches it from its first character up to its end or up to a '-' (regex,
// so that "GenuineIntel-6-4D" chooses a table for "GenuineIntel-6-4D-8"). nullptr: none.
const PmuEventTable* find_pmu_table(const PmuEvents& events, std::string_view cpuid);

// "cpu_clk_unhalted.core_p", or why the index has no name, as a clause for a note:
// "no table of LIB is for cpuid X (N tables, compared as exact strings)", "LIB's table for
// cpuid X has N entries", "entry 0x6a of LIB's table for X has no name (a metric)".
struct PmuEventName {
  std::string_view name;  // empty when unnamed
  std::string why;        // set when unnamed
};
PmuEventName pmu_event_name(const PmuEvents& events, std::string_view cpuid, uint32_t index);

}  // namespace pmclog
