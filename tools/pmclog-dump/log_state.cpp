#include "log_state.h"

#include <fmt/format.h>

#include "pmclog/text.h"

namespace dump {

void LogState::observe_header(const pmclog::Record& r) {
  if (r.kind == pmclog::Kind::pmcallocatedyn && !r.text.empty()) {
    soft_events[static_cast<uint32_t>(r[pmclog::Field::event])] = std::string(r.text);
  }
  if (r.kind != pmclog::Kind::initialize) return;
  have_init = true;
  version = static_cast<uint32_t>(r[pmclog::Field::version]);
  cputype = static_cast<uint32_t>(r[pmclog::Field::arch]);
  if (r.has(pmclog::Field::tsc_freq)) tsc_freq = r[pmclog::Field::tsc_freq];
  if (r.has(pmclog::Field::cpuid)) cpuid = std::string(r.text);
}

pmclog::AllocationEvent LogState::allocation(const pmclog::Record& r) const {
  pmclog::AllocationEvent e = pmclog::allocation_event(
      static_cast<uint32_t>(r[pmclog::Field::event]), static_cast<uint32_t>(r[pmclog::Field::flags]),
      {abi.generation, cputype, cpuid, &soft_events, pmu, pmu_missing});
  if (!e.note.empty() && (!noted || noted->insert(e.note).second)) {
    pending_notes.push_back(pmclog::display_path(file) + ": " + e.note);
  }
  return e;
}

std::string legacy_time(const pmclog::Record& r) {
  return fmt::format("{}.{:09}", r.header.ts_sec, r.header.ts_nsec);
}

std::string tsc_seconds(uint64_t tsc, uint64_t freq) {
  // 128-bit arithmetic so that large TSC values do not overflow the nanosecond product.
  const uint64_t sec = tsc / freq;
  const unsigned __int128 rem = tsc % freq;
  const uint64_t nsec = static_cast<uint64_t>(rem * 1000000000u / freq);
  return fmt::format("{}.{:09}", sec, nsec);
}

}  // namespace dump
