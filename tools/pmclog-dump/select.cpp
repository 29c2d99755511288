#include "select.h"

#include <algorithm>

#include "pmclog/names.h"

namespace dump {

namespace {

template <class T, class V>
bool contains(const std::vector<T>& v, V x) {
  return std::find(v.begin(), v.end(), static_cast<T>(x)) != v.end();
}

// Pids a record concerns: pid (and for PROCFORK both old and new).
bool pid_matches(const Selection& s, const pmclog::Record& r) {
  using pmclog::Field;
  for (Field f : {Field::pid, Field::oldpid, Field::newpid}) {
    if (r.has(f) && contains(s.pids, static_cast<int32_t>(static_cast<uint32_t>(r[f]))))
      return true;
  }
  return false;
}

// The cpu of a CALLCHAIN (cpuflags) or of a system-mode pmc id (format.md §9.1, §9.3).
bool cpu_matches(const Selection& s, const pmclog::Record& r, pmclog::Generation g) {
  using pmclog::Field;
  if (r.has(Field::cpuflags)) return contains(s.cpus, r.cpu());
  if (r.has(Field::pmcid)) {
    const auto p = pmclog::split_pmcid(static_cast<uint32_t>(r[Field::pmcid]), g);
    return !p.any_cpu && contains(s.cpus, p.cpu);
  }
  return false;
}

}  // namespace

bool selected(const Selection& s, const pmclog::Record& r, pmclog::Generation g) {
  using pmclog::Field;
  if (s.from_offset && r.offset < *s.from_offset) return false;
  if (s.to_offset && r.offset >= *s.to_offset) return false;
  if (!s.kinds.empty() && !contains(s.kinds, r.kind)) return false;
  if (!s.pids.empty() && !pid_matches(s, r)) return false;
  if (!s.pmcids.empty() &&
      !(r.has(Field::pmcid) && contains(s.pmcids, static_cast<uint32_t>(r[Field::pmcid]))))
    return false;
  if (!s.cpus.empty() && !cpu_matches(s, r, g)) return false;
  return true;
}

}  // namespace dump
