#include "stats.h"

#include <fmt/format.h>

#include "pmclog/layout.h"
#include "pmclog/names.h"

namespace dump {

using pmclog::Field;
using pmclog::Kind;

using stats::Command;
using stats::Cpu;
using stats::Event;

namespace {

// What pmcstat and perf show for a command: the last path component.
std::string basename_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == path.size()) return std::string(path);
  return std::string(path.substr(slash + 1));
}

}  // namespace

// Modern logs are not in time order (format.md §3.4): a fork or PROC_CREATE may come after the
// child's exec in the file, so those only name a pid that nothing named yet (`weak`).
void Stats::name_pid(int32_t pid, std::string_view name, std::string_view path, bool weak) {
  if (pid == -1 || name.empty()) return;
  Proc& p = procs_[pid];
  if (weak && !p.name.empty()) return;
  p.name = std::string(name);
  p.path = std::string(path);
  if (p.first_name.empty()) {
    p.first_name = p.name;
    p.first_path = p.path;
  }
  p.row = nullptr;
  row_cache_.fill({});
}

void Stats::observe_naming(const pmclog::Record& r, const LogState& st) {
  switch (r.kind) {
    case Kind::procexec:
    case Kind::pmcattach:
      name_pid(pid_of(r, Field::pid), basename_of(r.text), r.text, false);
      break;
    case Kind::proc_create:
      name_pid(pid_of(r, Field::pid), r.text, "", true);
      break;
    case Kind::procfork:
      if (auto parent = procs_.find(pid_of(r, Field::oldpid)); parent != procs_.end()) {
        const Proc from = parent->second;  // naming the child may rehash procs_
        name_pid(pid_of(r, Field::newpid), from.name, from.path, true);
      }
      break;
    case Kind::pmcallocate:
    case Kind::pmcallocatedyn: {
      auto& p = pmcs_[static_cast<uint32_t>(r[Field::pmcid])];
      p.event = static_cast<uint32_t>(r[Field::event]);
      p.flags = static_cast<uint32_t>(r[Field::flags]);
      p.allocated = true;
      // An all-zero evname means the kernel did not find the event (format.md §7).
      if (r.kind == Kind::pmcallocatedyn && !r.text.empty()) {
        p.name = std::string(r.text);
        p.named = true;
      } else if (const pmclog::AllocationEvent e = st.allocation(r); !e.name.empty()) {
        p.name = std::string(e.name);
        p.named = true;
      } else {
        p.label = e.label;
      }
      break;
    }
    default:
      break;
  }
}

stats::Split& Stats::row_miss(int32_t pid, CachedRow& c) {
  Proc& p = procs_[pid];
  if (!p.row) {
    Row& row = rows_[{pid, p.name}];
    if (row.path.empty()) row.path = p.path;
    p.row = &row.samples;
  }
  c = {pid, p.row};
  return *p.row;
}

stats::Pmc& Stats::pmc_miss(uint32_t id, PmcSlot& c) {
  c = {id, &pmcs_[id]};
  return *c.pmc;
}

// A PCSAMPLE's cpu: only through a system-mode pmc id.
void Stats::count_pcsample_cpu(uint32_t pmcid, bool user, const LogState& st) {
  const auto parts = pmclog::split_pmcid(pmcid, st.abi.generation);
  if (parts.any_cpu) no_cpu_.add(user);
  else count_cpu(parts.cpu, user);
}

void Stats::count(const SampleTally::Shape& s) {
  const bool user = pmclog::Record::cpuflags_user(s.cpuflags);
  note_pid(s.pid);
  count_sample(s.pid, s.pmcid, user, s.n);
  count_cpu(pmclog::Record::cpuflags_cpu(s.cpuflags), user, s.n);
}

void Stats::grow_cpus(uint32_t cpu) { cpus_.resize(size_t{cpu} + 1); }
void Stats::grow_depths(uint32_t depth) { depth_.resize(size_t{depth} + 1); }

uint8_t Stats::pid_fields_miss(const pmclog::Record& r, PidFields& c) {
  c.layout = r.layout;
  c.mask = 0;
  const Field fs[3] = {Field::pid, Field::oldpid, Field::newpid};
  for (int i = 0; i < 3; ++i)
    if (r.has(fs[i])) c.mask |= static_cast<uint8_t>(1u << i);
  return c.mask;
}

void Stats::insert_pid(int32_t pid, int32_t& seen) {
  pids_.insert(pid);
  seen = pid;
}

void Stats::add_rare(const pmclog::Record& r) {
  switch (r.kind) {
    case Kind::procexec: {
      // Another pmc's record of the same exec: same pid, image and addresses, a pmc not
      // named yet (the same pmc again is the program exec'ing itself anew).
      LastExec& last = last_exec_[pid_of(r, Field::pid)];
      const auto pmcid = static_cast<uint32_t>(r[Field::pmcid]);
      const uint64_t dyn = r.has(Field::dynaddr) ? r[Field::dynaddr] : 0;
      if (last.path == r.text && last.entry == r[Field::entryaddr] && last.dyn == dyn &&
          last.pmcids.insert(pmcid).second)
        break;
      last = LastExec{std::string(r.text), r[Field::entryaddr], dyn, {pmcid}};
      ++execs_[std::string(r.text)];
      break;
    }
    case Kind::pmcallocate:
    case Kind::pmcallocatedyn:
      pmcs_[static_cast<uint32_t>(r[Field::pmcid])].listed = true;
      break;
    case Kind::dropnotify:
      ++drops_;
      break;
    default:
      break;
  }
}

stats::KindCount Stats::totals() const {
  KindCount t;
  for (const KindCount& k : kinds_) {
    t.records += k.records;
    t.bytes += k.bytes;
  }
  return t;
}

stats::Split Stats::samples() const {
  Split s = no_cpu_;
  for (const Split& c : cpus_) s.add(c);
  return s;
}

std::vector<std::pair<Kind, stats::KindCount>> Stats::kind_rows() const {
  std::vector<std::pair<Kind, KindCount>> v;
  for (size_t k = 0; k < kinds_.size(); ++k)
    if (kinds_[k].records) v.emplace_back(static_cast<Kind>(k), kinds_[k]);
  return v;
}

std::vector<std::pair<uint32_t, uint64_t>> Stats::depth_rows() const {
  std::vector<std::pair<uint32_t, uint64_t>> v;
  for (size_t d = 0; d < depth_.size(); ++d)
    if (depth_[d]) v.emplace_back(static_cast<uint32_t>(d), depth_[d]);
  return v;
}

void Stats::error(const pmclog::Error& e) { errors_.push_back(e); }
void Stats::skipped(const pmclog::SkippedRange& s) { skipped_.push_back(s); }

// Samples a pid had before any record named it go to the first name it got (a modern log's
// per-CPU buffers put some samples before the exec in the file).
void Stats::process_rows(StatsView& v) const {
  v.rows = rows_;
  for (auto i = v.rows.begin(); i != v.rows.end();) {
    auto p = procs_.find(i->first.first);
    if (!i->first.second.empty() || p == procs_.end() || p->second.first_name.empty()) {
      ++i;
      continue;
    }
    Row& named = v.rows[{i->first.first, p->second.first_name}];
    if (named.path.empty()) named.path = p->second.first_path;
    named.samples.add(i->second.samples);
    i = v.rows.erase(i);
  }
  std::map<std::string_view, stats::Entry<Command>> commands;
  for (const auto& [key, row] : v.rows) {
    v.procs.push_back({row.samples, {&key, &row}});
    auto& c = commands[key.second];
    c.s.add(row.samples);
    c.what.name = key.second;
    ++c.what.processes;
  }
  if (kernel_pid_.total()) v.procs.push_back({kernel_pid_, {nullptr, nullptr}});
  for (auto& [name, c] : commands) v.commands.push_back(std::move(c));
}

// Events by name, or by code when unnamed; pmcs with no PMCALLOCATE in one row.
void Stats::event_rows(StatsView& v) const {
  std::map<std::pair<int, std::string>, stats::Entry<Event>> events;
  for (const auto& [id, p] : pmcs_) {
    if (!p.listed) continue;
    v.pmcs.push_back({p.samples, {id, &p}});
    if (!p.samples.total()) continue;
    const int group = p.named ? 0 : p.allocated ? 1 : 2;
    auto& e = events[{group, group == 0 ? p.name : group == 1 ? fmt::format("{:x}", p.event) : ""}];
    e.s.add(p.samples);
    e.what.name = p.named ? p.name : "";
    e.what.named = p.named;
    e.what.label = p.label;
    if (p.allocated) e.what.codes.insert(p.event);
    ++e.what.pmcs;
  }
  for (auto& [key, e] : events) v.events.push_back(std::move(e));
}

StatsView Stats::view(const LogState& st) {
  drain_tally();
  StatsView v;
  v.top = top_;
  v.all = totals();
  v.kinds = kind_rows();
  if (v.all.records) {
    v.first = st.abi.legacy() ? legacy_ns(t_min_) : t_min_;
    v.last = st.abi.legacy() ? legacy_ns(t_max_) : t_max_;
  }
  v.processes = pids_.size();
  v.samples = samples();
  v.kernel_pid = kernel_pid_;
  process_rows(v);
  event_rows(v);
  for (uint32_t c = 0; c < cpus_.size(); ++c)
    if (cpus_[c].total()) v.cpus.push_back({cpus_[c], {true, c}});
  if (no_cpu_.total()) v.cpus.push_back({no_cpu_, {false, 0}});
  for (const auto& [path, n] : execs_) v.execs.push_back({{n, 0}, path});
  v.depths = depth_rows();
  v.drops = drops_;
  v.errors = errors_;
  v.skipped = skipped_;
  return v;
}

}  // namespace dump
