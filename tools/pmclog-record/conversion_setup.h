// The pmc ids a recording's events get, and the converter's settings that follow from the
// options and from the events as they were opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "event_opening.h"
#include "options.h"
#include "record_conversion.h"

namespace record {

// Process mode has one pmc id per event; system mode one per (event, CPU).
class PmcNumbering {
 public:
  // `events` are read at each call: open_events() may have switched one to its fallback.
  PmcNumbering(const Options& opt, const std::vector<EventChoice>& events);
  // `cpu` -1: any CPU (process mode).
  uint32_t operator()(size_t event, int cpu) const;

 private:
  const std::vector<EventChoice>& events_;
  pmclog::Generation generation_;
  bool system_wide_;
  uint32_t mode_;
};

// The converter's settings: depth, mode, where code can be, and the pmc ids of the opened
// events' perf ids.
ConversionConfig conversion_config(const Options& opt, uint32_t depth, size_t nevents,
                                   const OpenedEvents& opened, const PmcNumbering& pmcid_of);

}  // namespace record
