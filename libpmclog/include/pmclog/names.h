// Names and bit layouts of values inside records: pmc ids (format.md §9.3), allocation flags
// (format.md §9.2), cpu types (format.md §9.4), callchain flags (format.md §9.1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pmclog/abi.h"
#include "pmclog/layout.h"  // the callchain flags

namespace pmclog {

enum class PmcIdLayout : uint8_t { legacy, ii, iii };  // I, II, III of format.md §9.3
PmcIdLayout pmcid_layout(Generation g);  // L*: legacy, M9: II, M10: III

struct PmcIdParts {
  uint32_t cpu;    // 0xFF / 0xFFF = PMC_CPU_ANY (process mode)
  uint32_t mode;   // 0 SS, 1 SC, 2 TS, 3 TC
  uint32_t klass;
  uint32_t row;
  bool any_cpu;
};
PmcIdParts split_pmcid(uint32_t id, Generation g);
// The inverse: packs the parts in the era's layout (cpu is taken as PMC_CPU_ANY when any_cpu
// is set; each part is masked to its field's width).
uint32_t make_pmcid(const PmcIdParts& parts, Generation g);

// The PMC_VERSION that FreeBSD wrote in INITIALIZE for the generation (format.md §2): L1
// 0x01020003, L2/L3 0x03010000, M9 0x09030000, M10 0x0A000000.
uint32_t typical_pmc_version(Generation g);
std::string_view pmc_mode_name(uint32_t mode);  // "SS" "SC" "TS" "TC" or "?"

// "CALLCHAIN|NEEDS_LOGFILE" etc. for the generation's flag bits; unknown bits as hex.
std::string pmc_flags_names(uint32_t flags, Generation g);

// The enum name without PMC_CPU_ (e.g. "INTEL_HASWELL"), or empty when unknown for the era.
std::string_view cputype_name(uint32_t cputype, Generation g);


}  // namespace pmclog
