// Event-code lookup over the era tables, by each era's rule (format.md §12.1). What the tables
// hold (facts from FreeBSD's sys/dev/hwpmc/pmc_events.h of 9.3 and 12.x; no FreeBSD code is
// copied):
//  - legacy L2/L3 (9.x-11.x block layout): TSC 0x1000, AMD K7 0x2000, AMD K8 0x2080, Intel
//    fixed-function IAF 0x10000, Pentium 4 0x11000, Pentium 0x11080, P6 0x11100; the
//    programmable IAP events (0x10080) are named through per-CPU alias tables in libpmc; here
//    only the seven architectural events for Atom and Core i7, and SB_DRAIN.ANY for Core i7;
//  - modern M9/M10 without a pmu-events match: TSC, K7 and K8 at the same codes (12.x and
//    main replaced the Intel tables by pmu-events, so IAF codes have no static name there;
//    M10 names the TSC event "cycles").
// Missing: most IAP aliases, UCF/UCP, XScale, MIPS, PowerPC, ARM blocks, L1's block layout.
#include "pmclog/event_names.h"

#include <cstdio>

#include "pmclog/pmu_events.h"

namespace pmclog {

namespace {

constexpr uint32_t kSoftFirst = 0x20000;  // PMC_EV_SOFT_FIRST, all eras with soft events
constexpr uint32_t kSoftLast = 0x20FFF;
constexpr uint32_t kTsc = 0x1000;
// The IAP block starts at 0x10080 and the next block (P4) at 0x11000 (9.3 block starts).
constexpr uint32_t kIapFirst = 0x10080;
constexpr uint32_t kIapEnd = 0x11000;

std::optional<std::string_view> in_blocks(std::span<const EventBlock> blocks, uint32_t code) {
  for (const auto& b : blocks) {
    if (code >= b.first && code - b.first < b.count) return b.names[code - b.first];
  }
  return std::nullopt;
}

std::optional<std::string_view> legacy_name(uint32_t code, uint32_t cputype) {
  if (code >= kIapFirst && code < kIapEnd) {
    for (const auto& a : legacy_iap_aliases()) {
      if (a.code == code && a.cputype == cputype) return a.name;
    }
    return std::nullopt;  // no alias table of this CPU names it
  }
  return in_blocks(legacy_event_blocks(), code);
}

}  // namespace

bool is_soft_event(uint32_t code) { return code >= kSoftFirst && code <= kSoftLast; }

std::optional<std::string_view> event_name(uint32_t code, uint32_t cputype, Generation g,
                                           const std::map<uint32_t, std::string>* dynamic) {
  if (is_soft_event(code)) {
    if (dynamic) {
      auto it = dynamic->find(code);
      if (it != dynamic->end()) return std::string_view(it->second);
    }
    return std::nullopt;
  }
  switch (g) {
    case Generation::L1:
      return code == kTsc ? std::optional<std::string_view>("TSC") : std::nullopt;
    case Generation::L2:
    case Generation::L3: return legacy_name(code, cputype);
    case Generation::M9: return in_blocks(modern_event_blocks(), code);
    case Generation::M10:
      if (code == kTsc) return "cycles";  // main's TSC table holds only this alias
      return in_blocks(modern_event_blocks(), code);
  }
  return std::nullopt;
}

bool is_pmu_index(uint32_t flags, Generation g) {
  return g == Generation::M10 && (flags & kFlagEvPmu) != 0;
}

AllocationEvent allocation_event(uint32_t code, uint32_t flags, const EventNaming& n) {
  AllocationEvent e;
  if (!is_pmu_index(flags, n.generation)) {
    if (auto name = event_name(code, n.cputype, n.generation, n.dynamic)) e.name = *name;
    return e;
  }
  e.pmu_index = true;
  char idx[16];
  std::snprintf(idx, sizeof idx, "0x%x", code);
  std::string what = std::string("pmu-events index ") + idx;
  if (n.cpuid.empty()) {
    e.note = what + ", but the log's INITIALIZE gives no cpuid to choose a table by";
  } else if (!n.pmu) {
    e.note = what + " for " + std::string(n.cpuid) + "; the recording system's libpmc names it" +
             (n.missing.empty() ? std::string(": --sysroot or --libpmc") : ", but " + std::string(n.missing));
  } else {
    PmuEventName p = pmu_event_name(*n.pmu, n.cpuid, code);
    e.name = p.name;
    if (e.name.empty()) e.note = what + " for " + std::string(n.cpuid) + " is unnamed: " + p.why;
  }
  if (e.name.empty()) e.label = std::string("pmu-event-") + idx;
  return e;
}

}  // namespace pmclog
