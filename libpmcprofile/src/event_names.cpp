#include "event_names.h"

#include <cstdio>

namespace pmcprofile {

std::string hex32(uint64_t v, const char* prefix) {
  char b[48];
  std::snprintf(b, sizeof b, "%s0x%llx", prefix, static_cast<unsigned long long>(v));
  return b;
}

uint32_t EventNames::event_of(uint32_t pmcid) {
  auto it = pmc_event_.find(pmcid);
  if (it != pmc_event_.end()) return it->second;
  unnamed_.insert(pmcid);
  return pmc_event_[pmcid] = t_.event(hex32(pmcid, "pmc-"));
}

void EventNames::allocate(uint32_t pmcid, const std::string& name, uint64_t rate) {
  if (unnamed_.erase(pmcid) != 0) t_.rename_event(pmc_event_[pmcid], name, rate);
  else pmc_event_[pmcid] = t_.event(name, rate);
}

}  // namespace pmcprofile
