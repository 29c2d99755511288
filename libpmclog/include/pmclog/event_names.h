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

}  // namespace pmclog
