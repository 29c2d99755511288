// The names FreeBSD's libpmc prints for PMCALLOCATE event codes (format.md §12.1), per era: a
// data table of event codes, and the lookup rule of each era's reader. libpmc stops parsing
// a log at the first PMCALLOCATE whose code it cannot name, so a code that is missing here
// either makes pmcstat give up on the log or is one our table lacks (event_names.cpp says
// which blocks are in).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pmclog/abi.h"

namespace pmclog {

struct PmuEvents;  // pmclog/pmu_events.h

// One block of consecutive event codes (enum pmc_event) and their names in order.
struct EventBlock {
  uint32_t first;
  const char* const* names;
  uint32_t count;
};

// A name of an Intel programmable (IAP) event code in one CPU type's alias table.
struct EventAlias {
  uint32_t code;
  uint32_t cputype;  // enum pmc_cputype of the era (format.md §9.4)
  const char* name;
};

std::span<const EventBlock> legacy_event_blocks();  // L2/L3 (event_names_legacy.cpp)
std::span<const EventAlias> legacy_iap_aliases();   // L2/L3, by cputype
std::span<const EventBlock> modern_event_blocks();  // M9/M10 static table (event_names_modern.cpp)

// Soft events (class SOFT, PMC_EV_SOFT_FIRST..LAST) are numbered by the kernel at run time
// and named by the log itself, in PMCALLOCATEDYN.
bool is_soft_event(uint32_t code);

// The name libpmc of generation `g` prints for `code` in a log whose INITIALIZE gave
// `cputype`, or nullopt when it has none (or our table lacks it):
//  - L2/L3: `_pmc_name_of_event(code, cputype)`: the IAP range is named only through the
//    cputype's alias table, every other block whatever the cputype;
//  - M9/M10: the static table (no pmu-events lookup; format.md §12.1); M10 names TSC "cycles";
//  - L1: TSC only (L1's own block layout is not in the table).
// Soft codes are named by `dynamic` (code -> the name a PMCALLOCATEDYN of the log gave it).
std::optional<std::string_view> event_name(uint32_t code, uint32_t cputype, Generation g,
                                           const std::map<uint32_t, std::string>* dynamic = nullptr);

inline constexpr uint32_t kFlagEvPmu = 0x200;  // PMC_F_EV_PMU (M10, format.md §9.2)

// A PMCALLOCATE's event field is a pmu-events index, not an event code (format.md §12.2).
bool is_pmu_index(uint32_t flags, Generation g);

// What names the events of one log. Every tool names a PMCALLOCATE through allocation_event(),
// so that all outputs agree.
struct EventNaming {
  Generation generation = Generation::M10;
  uint32_t cputype = 0;                                      // INITIALIZE's
  std::string_view cpuid;                                    // INITIALIZE's (modern)
  const std::map<uint32_t, std::string>* dynamic = nullptr;  // soft events, as event_name()
  const PmuEvents* pmu = nullptr;  // the recording system's libpmc (--sysroot, --libpmc)
  std::string_view missing;        // why pmu is null although asked for ("" if not asked)
};

struct AllocationEvent {
  std::string_view name;  // empty when unnamed
  bool pmu_index = false;  // the code is a pmu-events index
  // For an unnamed index: what outputs call it ("pmu-event-0x6a", never a made-up event
  // code) and the note that says what the number is, for stderr once per run.
  std::string label;
  std::string note;
};
AllocationEvent allocation_event(uint32_t code, uint32_t flags, const EventNaming& n);

}  // namespace pmclog
