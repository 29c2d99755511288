// What earlier records of a log tell about later ones: the INITIALIZE values (cputype for
// event names, TSC frequency for seconds). Updated from every record, selected or not.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/container.h"
#include "pmclog/event_names.h"
#include "pmclog/pmu_events.h"
#include "pmclog/record.h"

namespace dump {

struct LogState {
  std::string file;  // name as given, "(stdin)" for "-"; untrusted: display_path() for text
  pmclog::Abi abi;
  const pmclog::Container* container = nullptr;  // a PMCL container in front of the stream
  bool have_init = false;
  uint32_t version = 0;
  uint32_t cputype = 0;
  uint64_t tsc_freq = 0;  // Hz; 0 when unknown (legacy, or non-x86)
  std::string cpuid;
  // Names the log gave soft events in PMCALLOCATEDYN, for PMCALLOCATE lines of the same code.
  std::map<uint32_t, std::string> soft_events;
  // The recording system's pmu-events tables (--libpmc, --sysroot), or why there are none.
  const pmclog::PmuEvents* pmu = nullptr;
  std::string pmu_missing;
  // The notes already printed in this run (one per distinct note, whatever the files).
  std::set<std::string>* noted = nullptr;
  // Notes found while a record's line was being built, printed by the driver once the line
  // is whole (printing flushes standard output first).
  mutable std::vector<std::string> pending_notes;
  uint64_t records_read = 0;  // decoded so far, selected or not (pmcstat's record count)
  uint64_t end_of_last = 0;   // offset just past the last good record

  // Inline: only INITIALIZE and PMCALLOCATEDYN say more than the counts.
  void observe(const pmclog::Record& r) {
    ++records_read;
    end_of_last = r.offset + r.raw.size();
    observe_values(r);
  }
  // Only what later records are named by, without the two counts (which only the pmcstat
  // format prints): --stats, whose loop the two stores per record slowed.
  void observe_values(const pmclog::Record& r) {
    if (r.kind == pmclog::Kind::initialize || r.kind == pmclog::Kind::pmcallocatedyn)
      observe_header(r);
  }

  // The event of a PMCALLOCATE(DYN) as every output names it (pmclog::allocation_event).
  // An unnamed pmu-events index gets its note, once per run, in pending_notes.
  pmclog::AllocationEvent allocation(const pmclog::Record& r) const;

 private:
  void observe_header(const pmclog::Record& r);
};

// "1700000000.000000001" for a legacy header, "" for modern.
std::string legacy_time(const pmclog::Record& r);
// TSC ticks as seconds "S.NNNNNNNNN" given the frequency (must be non-zero).
std::string tsc_seconds(uint64_t tsc, uint64_t freq);

}  // namespace dump
