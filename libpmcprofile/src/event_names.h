// The event of each pmc: named by its allocation, or "pmc-0x..." until then (and renamed
// when it comes, so that samples before it keep their event id).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "pmcprofile/profile.h"

namespace pmcprofile {

// "0x1f", or with a prefix "pmc-0x1f".
std::string hex32(uint64_t v, const char* prefix = "");

class EventNames {
 public:
  explicit EventNames(Tables& t) : t_(t) {}
  // Tables::events id of the pmc's event.
  uint32_t event_of(uint32_t pmcid);
  // PMCALLOCATE(DYN): the pmc's event (one that samples already used keeps its id) and its
  // rate (0: not said) in Tables::event_rates.
  void allocate(uint32_t pmcid, const std::string& name, uint64_t rate);
  // PMCALLOCATEDYN's names by event code, for allocation_event().
  void name_dyn(uint32_t code, const std::string& name) { dyn_[code] = name; }
  const std::map<uint32_t, std::string>& dyn() const { return dyn_; }

 private:
  Tables& t_;
  std::map<uint32_t, std::string> dyn_;
  std::unordered_map<uint32_t, uint32_t> pmc_event_;
  std::unordered_set<uint32_t> unnamed_;  // pmcs sampled before their allocation
};

}  // namespace pmcprofile
