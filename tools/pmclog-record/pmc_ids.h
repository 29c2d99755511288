// pmc modes, classes and PMCALLOCATE flag bits as FreeBSD's hwpmc uses them (format.md §9.2, §9.3).
#pragma once

#include <cstdint>

#include "pmclog/abi.h"

namespace record {

inline constexpr uint32_t kModeSystemSampling = 0;   // SS
inline constexpr uint32_t kModeSystemCounting = 1;   // SC
inline constexpr uint32_t kModeProcessSampling = 2;  // TS
inline constexpr uint32_t kModeProcessCounting = 3;  // TC
inline constexpr uint32_t kClassSoft = 0x0F;  // PMC_CLASS_SOFT (R104/R110 and M numbering)
inline constexpr uint32_t kClassIap = 0x07;   // PMC_CLASS_IAP, used for hardware events

inline constexpr uint32_t kFlagDescendants = 0x2;
inline constexpr uint32_t kFlagLogProccsw = 0x4;
inline constexpr uint32_t kFlagLogProcexit = 0x8;
inline constexpr uint32_t kFlagCallchain = 0x80;
inline constexpr uint32_t kFlagUserCallchain = 0x100;  // modern only (pmcstat -U)

inline constexpr uint32_t kPmcIdInvalid = 0xFFFFFFFFu;
// Packing ids and the PMC_VERSION per generation: pmclog::make_pmcid, typical_pmc_version.

}  // namespace record
