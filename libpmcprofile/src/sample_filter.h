// Options::filter applied to samples, noting in FilterMatches what each of its parts meets.
#pragma once

#include <cstdint>
#include <vector>

#include "event_names.h"
#include "pmcprofile/session.h"
#include "process_names.h"
#include "replay_clock.h"
#include "run_cache.h"

namespace pmcprofile {

// A sample as its record gives it, before the filter and the stack cache.
struct RawSample {
  uint32_t pid = 0, tid = 0, pmcid = 0, cpu = 0;
  bool user = false;
  const uint64_t* pcs = nullptr;
  size_t n = 0;
  uint64_t key = 0;  // its time, as ReplayClock::seconds() takes it
  uint64_t hash = 0;  // StackCache::hash(), or StackCache::kNoHash when not computed yet
};

struct EventPick {
  uint32_t event = 0;  // Tables::events
  bool selected = false;
};
struct CommandPick {
  uint32_t comm = 0;  // Tables::comms
  bool selected = false;
};

class SampleFilter {
 public:
  SampleFilter(const Filter& f, FilterMatches& matched, EventNames& events, ProcessNames& names,
               const Tables& t, const ReplayClock& clock);

  // The pmc's event and whether the filter selects it; kept for a run of samples of one pmc.
  const EventPick& event(uint32_t pmcid) {
    if (const EventPick* p = event_run_.find(pmcid)) return *p;
    return event_run_.set(pmcid, pick_event(pmcid));
  }
  // The process's command and whether the filter selects it; kept for a run of one process.
  const CommandPick& command(uint32_t pid) {
    if (const CommandPick* p = command_run_.find(pid)) return *p;
    return command_run_.set(pid, pick_command(pid));
  }
  // Counts the sample and notes what it meets of each part of the filter, whatever the
  // other parts (event() notes the events).
  void see(const RawSample& s) {
    ++matched_.samples;
    if (track_) see_parts(s);
  }
  // The parts but events, comms and time.
  bool selects_place(const RawSample& s) const {
    return in(pids_, s.pid) && in(f_.tids, s.tid) && in(f_.cpus, s.cpu) &&
           !(f_.mode == Filter::Mode::user && !s.user) && !(f_.mode == Filter::Mode::kernel && s.user);
  }
  bool selects_time(double t) const { return !(f_.from && t < *f_.from) && !(f_.to && t >= *f_.to); }
  // Events or names changed: what the run caches hold may be stale.
  void forget() {
    event_run_.clear();
    command_run_.clear();
  }

 private:
  EventPick pick_event(uint32_t pmcid);
  CommandPick pick_command(uint32_t pid);
  void see_parts(const RawSample& s);
  static bool in(const std::vector<uint32_t>& v, uint32_t x);

  const Filter& f_;
  FilterMatches& matched_;
  EventNames& events_;
  ProcessNames& names_;
  const Tables& t_;
  const ReplayClock& clock_;
  std::vector<uint32_t> pids_;
  bool track_ = false;  // a filter other than events is set: note what each part meets
  RunCache<EventPick> event_run_;
  RunCache<CommandPick> command_run_;
};

}  // namespace pmcprofile
