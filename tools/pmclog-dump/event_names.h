// Names FreeBSD's libpmc prints for PMCALLOCATE event codes (FORMAT.md §8): a data table of
// event codes per era. Incomplete by nature: see event_names.cpp for what it holds.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <optional>
#include <string>
#include <string_view>

#include "pmclog/abi.h"

namespace dump {

// One block of consecutive event codes (enum pmc_event) and their names in order.
struct EventBlock {
  uint32_t first;
  const char* const* names;
  uint32_t count;
};

struct EventAlias {
  uint32_t code;
  uint32_t cputype;  // the alias table's cpu type (enum pmc_cputype of the era)
  const char* name;
};

std::span<const EventBlock> legacy_event_blocks();  // event_names_legacy.cpp (L2/L3)
std::span<const EventAlias> legacy_iap_aliases();
std::span<const EventBlock> modern_event_blocks();  // event_names_modern.cpp (M9/M10)

// The name libpmc of the era prints for `code`, or nullopt when our table lacks it. Soft
// events (class SOFT) are named by the kernel at run time; `dynamic` holds the names the log
// itself gave them in PMCALLOCATEDYN records.
std::optional<std::string_view> event_name(uint32_t code, uint32_t cputype, pmclog::Generation g,
                                           const std::map<uint32_t, std::string>* dynamic = nullptr);

}  // namespace dump
