// Event-code lookup over the era tables. What the tables hold (facts from FreeBSD's
// sys/dev/hwpmc/pmc_events.h of 9.3 and 12.x; no FreeBSD code is copied):
//  - legacy L2/L3 (9.x-11.x block layout): TSC 0x1000, AMD K7 0x2000, AMD K8 0x2080, Intel
//    fixed-function IAF 0x10000, Pentium 4 0x11000, Pentium 0x11080, P6 0x11100; the
//    programmable IAP events (0x10080) are named through per-CPU alias tables in libpmc; here
//    only the seven architectural events for Atom and Core i7, and SB_DRAIN.ANY for Core i7;
//  - modern M9/M10 without a pmu-events match: TSC, K7, K8 and IAF at the same codes
//    (M10 names the TSC event "cycles", FORMAT.md §8).
// Missing: most IAP aliases, UCF/UCP, XScale, MIPS, PowerPC, ARM blocks, L1's block layout.
#include "event_names.h"

namespace dump {

namespace {

std::optional<std::string_view> in_blocks(std::span<const EventBlock> blocks, uint32_t code) {
  for (const auto& b : blocks) {
    if (code >= b.first && code < b.first + b.count) return b.names[code - b.first];
  }
  return std::nullopt;
}

constexpr uint32_t kSoftFirst = 0x20000;  // PMC_EV_SOFT_FIRST, all eras with soft events
constexpr uint32_t kSoftLast = 0x20FFF;
constexpr uint32_t kTsc = 0x1000;

}  // namespace

std::optional<std::string_view> event_name(uint32_t code, uint32_t cputype, pmclog::Generation g,
                                           const std::map<uint32_t, std::string>* dynamic) {
  if (code >= kSoftFirst && code <= kSoftLast) {
    if (dynamic) {
      auto it = dynamic->find(code);
      if (it != dynamic->end()) return std::string_view(it->second);
    }
    return std::nullopt;
  }
  if (g == pmclog::Generation::M10 && code == kTsc) return "cycles";
  if (g == pmclog::Generation::M9 || g == pmclog::Generation::M10)
    return in_blocks(modern_event_blocks(), code);
  if (g == pmclog::Generation::L1) return code == kTsc ? std::optional<std::string_view>("TSC")
                                                       : std::nullopt;
  for (const auto& a : legacy_iap_aliases()) {
    if (a.code == code && a.cputype == cputype) return a.name;
  }
  return in_blocks(legacy_event_blocks(), code);
}

}  // namespace dump
