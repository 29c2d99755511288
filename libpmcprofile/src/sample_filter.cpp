#include "sample_filter.h"

#include <strings.h>

#include <algorithm>

namespace pmcprofile {
namespace {

void mark(const std::vector<uint32_t>& want, std::vector<bool>& met, uint32_t x) {
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] == x) met[i] = true;
}

}  // namespace

SampleFilter::SampleFilter(const Filter& f, FilterMatches& matched, EventNames& events,
                           ProcessNames& names, const Tables& t, const ReplayClock& clock)
    : f_(f), matched_(matched), events_(events), names_(names), t_(t), clock_(clock),
      pids_(f.pids) {
  track_ = !f.pids.empty() || !f.tids.empty() || !f.cpus.empty() || !f.comms.empty() ||
           f.mode != Filter::Mode::all || f.from || f.to;
}

bool SampleFilter::in(const std::vector<uint32_t>& v, uint32_t x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

EventPick SampleFilter::pick_event(uint32_t pmcid) {
  EventPick p{events_.event_of(pmcid), f_.events.empty()};
  if (p.selected) return p;
  const std::string& name = t_.events[p.event];
  const std::string id = hex32(pmcid);
  for (size_t i = 0; i < f_.events.size(); ++i)
    if (f_.events[i] == name || strcasecmp(f_.events[i].c_str(), id.c_str()) == 0) {
      matched_.events[i] = true;
      p.selected = true;
      break;
    }
  return p;
}

CommandPick SampleFilter::pick_command(uint32_t pid) {
  CommandPick p{names_.comm_id(pid), f_.comms.empty()};
  for (size_t i = 0; i < f_.comms.size(); ++i)
    if (f_.comms[i] == t_.comms[p.comm]) p.selected = matched_.comms[i] = true;
  return p;
}

void SampleFilter::see_parts(const RawSample& s) {
  mark(f_.pids, matched_.pids, s.pid);
  mark(f_.tids, matched_.tids, s.tid);
  mark(f_.cpus, matched_.cpus, s.cpu);
  (s.user ? matched_.user : matched_.kernel) = true;
  if (f_.from || f_.to) {
    const double t = clock_.seconds(s.key);
    if (f_.from && t >= *f_.from) matched_.from = true;
    if (f_.to && t < *f_.to) matched_.to = true;
  }
  if (!f_.comms.empty()) command(s.pid);
}

}  // namespace pmcprofile
