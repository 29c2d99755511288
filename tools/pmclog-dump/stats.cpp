#include "stats.h"

#include <fmt/format.h>

#include <algorithm>

#include "pmclog/event_names.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "pmclog/text.h"

namespace dump {

using pmclog::Field;
using pmclog::Kind;

namespace stats_rows {

// A row of a summary table: its samples and what the row is about.
template <class T>
struct Entry {
  Stats::Split s;
  T what;
};

// One entry per command (name), over its (pid, name) rows.
struct Command {
  std::string name;
  uint64_t processes = 0;
};

// One entry per event (name; code when unnamed; no PMCALLOCATE), over its pmcs.
struct Event {
  std::string name;  // empty for pmcs with no PMCALLOCATE
  bool named = false;
  std::string label;  // an unnamed pmu-events index: "pmu-event-0x6a"
  std::set<uint32_t> codes;
  uint64_t pmcs = 0;
};

struct Cpu {
  bool known = false;
  uint32_t cpu = 0;
};

}  // namespace stats_rows

using namespace stats_rows;

namespace {

// What pmcstat and perf show for a command: the last path component.
std::string basename_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == path.size()) return std::string(path);
  return std::string(path.substr(slash + 1));
}

std::string escaped_or(std::string_view s, const char* empty) {
  return s.empty() ? std::string(empty) : pmclog::escaped(s);
}

// The rows with the most samples first (ties keep the given order), at most `top` (0: all).
template <class T>
std::vector<Entry<T>> ranked(std::vector<Entry<T>> v, uint64_t top) {
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.s.total() > b.s.total(); });
  if (top && v.size() > top) v.resize(top);
  return v;
}

// "samples by process (top 10 of 31):" with the column heads, the rows, and how many more.
template <class T, class F>
void text_table(std::string& b, std::string_view title, std::string_view heads,
                const std::vector<Entry<T>>& all, uint64_t top, uint64_t total, F&& tail) {
  auto it = std::back_inserter(b);
  const auto rows = ranked(all, top);
  fmt::format_to(it, "{}", title);
  if (rows.size() < all.size()) fmt::format_to(it, " (top {} of {})", rows.size(), all.size());
  fmt::format_to(it, ":\n  {:>10} {:>7} {:>10} {:>10}  {}\n", "samples", "%", "user", "kernel", heads);
  for (const auto& e : rows) {
    fmt::format_to(it, "  {:>10} {:>6.1f}% {:>10} {:>10}  ", e.s.total(),
                   100.0 * static_cast<double>(e.s.total()) / static_cast<double>(total),
                   e.s.user, e.s.kernel);
    tail(e.what);
    b += '\n';
  }
  if (rows.size() < all.size())
    fmt::format_to(it, "  ({} more; --top all shows every row)\n", all.size() - rows.size());
}

// {"count":31,"rows":[{...,"samples":N,"user":U,"kernel":K},...]}
template <class T, class F>
void json_table(std::string& b, const std::vector<Entry<T>>& all, uint64_t top, F&& fields) {
  auto it = std::back_inserter(b);
  fmt::format_to(it, "{{\"count\":{},\"rows\":[", all.size());
  bool first = true;
  for (const auto& e : ranked(all, top)) {
    b += first ? "{" : ",{";
    first = false;
    fields(e.what);
    fmt::format_to(it, ",\"samples\":{},\"user\":{},\"kernel\":{}}}", e.s.total(), e.s.user,
                   e.s.kernel);
  }
  b += "]}";
}

void json_split(std::string& b, const Stats::Split& s) {
  fmt::format_to(std::back_inserter(b), "{{\"samples\":{},\"user\":{},\"kernel\":{}}}", s.total(),
                 s.user, s.kernel);
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

Stats::Split& Stats::row_miss(int32_t pid, CachedRow& c) {
  Proc& p = procs_[pid];
  if (!p.row) {
    Row& row = rows_[{pid, p.name}];
    if (row.path.empty()) row.path = p.path;
    p.row = &row.samples;
  }
  c = {pid, p.row};
  return *p.row;
}

Stats::Pmc& Stats::pmc_miss(uint32_t id, PmcSlot& c) {
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

Stats::KindCount Stats::totals() const {
  KindCount t;
  for (const KindCount& k : kinds_) {
    t.records += k.records;
    t.bytes += k.bytes;
  }
  return t;
}

Stats::Split Stats::samples() const {
  Split s = no_cpu_;
  for (const Split& c : cpus_) s.add(c);
  return s;
}

std::vector<std::pair<Kind, Stats::KindCount>> Stats::kind_rows() const {
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

// The tables, built once per print from the counters.
struct Stats::Tables {
  std::map<RowKey, Row> rows;  // rows_ with the unnamed rows of later-named pids merged
  std::vector<Entry<std::pair<const RowKey*, const Row*>>> procs;  // nullptr: the kernel
  std::vector<Entry<Command>> commands;
  std::vector<Entry<Event>> events;
  std::vector<Entry<Cpu>> cpus;
  std::vector<Entry<std::string_view>> execs;  // execs counted in s.user
  std::vector<Entry<std::pair<uint32_t, const Pmc*>>> pmcs;
};

Stats::Tables Stats::tables() const {
  Tables t;
  // Samples a pid had before any record named it go to the first name it got (a modern
  // log's per-CPU buffers put some samples before the exec in the file).
  t.rows = rows_;
  for (auto i = t.rows.begin(); i != t.rows.end();) {
    auto p = procs_.find(i->first.first);
    if (!i->first.second.empty() || p == procs_.end() || p->second.first_name.empty()) {
      ++i;
      continue;
    }
    Row& named = t.rows[{i->first.first, p->second.first_name}];
    if (named.path.empty()) named.path = p->second.first_path;
    named.samples.add(i->second.samples);
    i = t.rows.erase(i);
  }
  std::map<std::string_view, Entry<Command>> commands;
  for (const auto& [key, row] : t.rows) {
    t.procs.push_back({row.samples, {&key, &row}});
    auto& c = commands[key.second];
    c.s.add(row.samples);
    c.what.name = key.second;
    ++c.what.processes;
  }
  if (kernel_pid_.total()) t.procs.push_back({kernel_pid_, {nullptr, nullptr}});
  for (auto& [name, c] : commands) t.commands.push_back(std::move(c));
  // Events by name, or by code when unnamed; pmcs with no PMCALLOCATE in one row.
  std::map<std::pair<int, std::string>, Entry<Event>> events;
  for (const auto& [id, p] : pmcs_) {
    if (!p.listed) continue;
    t.pmcs.push_back({p.samples, {id, &p}});
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
  for (auto& [key, e] : events) t.events.push_back(std::move(e));
  for (uint32_t c = 0; c < cpus_.size(); ++c)
    if (cpus_[c].total()) t.cpus.push_back({cpus_[c], {true, c}});
  if (no_cpu_.total()) t.cpus.push_back({no_cpu_, {false, 0}});
  for (const auto& [path, n] : execs_) t.execs.push_back({{n, 0}, path});
  return t;
}

namespace {

// "BU_CPU_CLK_UNHALTED (0x2098)", "EVENT_0x1234", "pmu-event-0x6a", "[no PMCALLOCATE]", escaped.
std::string event_label(const Event& e) {
  std::string s;
  if (e.named) s = pmclog::escaped(e.name);
  else if (e.codes.empty()) return "[no PMCALLOCATE]";
  else if (!e.label.empty()) return e.label;  // one code: grouped by it
  bool first = true;
  for (uint32_t c : e.codes) {
    if (!e.named) s += fmt::format("{}EVENT_0x{:x}", first ? "" : ",", c);
    else s += fmt::format("{}0x{:x}", first ? " (" : ",", c);
    first = false;
  }
  if (e.named && !e.codes.empty()) s += ")";
  return s;
}

}  // namespace

void Stats::print_text(const LogState& st, Output& out) {
  drain_tally();
  std::string& b = out.buf;
  auto it = std::back_inserter(b);
  fmt::format_to(it, "file: {}\nabi: {}\n", pmclog::display_path(st.file), pmclog::describe(st.abi));
  if (const pmclog::Container* c = st.container) {
    fmt::format_to(it, "container: PMCL version {}, arch {} ({}), {}-endian, {} bytes (the stream "
                       "starts at offset {})\n",
                   c->version, pmclog::container_arch_name(c->arch).value_or("unknown"), c->arch,
                   pmclog::byte_order_name(c->byte_order), c->size, c->size);
    for (const auto& i : c->infos)
      fmt::format_to(it, "  @{:<8} {:<10} {:>6} bytes\n", i.offset,
                     pmclog::info_type_name(i.type).value_or("unknown"), i.payload.size());
  }
  const KindCount all = totals();
  const Split sampled = samples();
  fmt::format_to(it, "records: {} ({} bytes)\n", all.records, all.bytes);
  for (const auto& [k, c] : kind_rows())
    fmt::format_to(it, "  {:<15} {:>10} records {:>12} bytes\n", pmclog::kind_name(k), c.records, c.bytes);
  if (all.records) {
    if (st.abi.legacy()) {
      const uint64_t first = legacy_ns(t_min_), last = legacy_ns(t_max_);
      fmt::format_to(it, "time: {}.{:09} .. {}.{:09} ({:.9f} s)\n", first / 1000000000u,
                     first % 1000000000u, last / 1000000000u, last % 1000000000u,
                     static_cast<double>(last - first) / 1e9);
    } else {
      fmt::format_to(it, "time: tsc {} .. {} ({} ticks", t_min_, t_max_, t_max_ - t_min_);
      if (st.tsc_freq) fmt::format_to(it, ", {} s", tsc_seconds(t_max_ - t_min_, st.tsc_freq));
      b += ")\n";
    }
  }
  fmt::format_to(it, "processes: {}\n", pids_.size());
  fmt::format_to(it, "samples: {} ({} user, {} kernel)\n", sampled.total(), sampled.user,
                 sampled.kernel);
  const Tables t = tables();
  const uint64_t total = sampled.total();
  if (total) {
    text_table(b, "samples by process", "       pid  command", t.procs, top_, total, [&](const auto& w) {
      if (!w.first) {
        b += "        -1  [kernel]";  // pid -1 marks the kernel (format.md §7 MAP_IN), not a process
        return;
      }
      fmt::format_to(it, "{:>10}  ", w.first->first);
      b += escaped_or(w.first->second, "[unknown]");
    });
    text_table(b, "samples by command", "   procs  command", t.commands, top_, total, [&](const Command& c) {
      fmt::format_to(it, "{:>8}  ", c.processes);
      b += escaped_or(c.name, "[unknown]");
    });
    text_table(b, "samples by event", "    pmcs  event", t.events, top_, total, [&](const Event& e) {
      fmt::format_to(it, "{:>8}  ", e.pmcs);
      b += event_label(e);
    });
    text_table(b, "samples by cpu", "     cpu", t.cpus, top_, total, [&](const Cpu& c) {
      if (c.known) fmt::format_to(it, "{:>8}", c.cpu);
      else b += "       ?  (the pmc is process-mode)";
    });
  }
  if (!t.execs.empty()) {
    uint64_t n = 0;
    for (const auto& e : t.execs) n += e.s.user;
    fmt::format_to(it, "execs: {} ({} path{})\n", n, t.execs.size(), t.execs.size() == 1 ? "" : "s");
    const auto rows = ranked(t.execs, top_);
    for (const auto& e : rows) {
      fmt::format_to(it, "  {:>10}  \"", e.s.user);
      pmclog::append_escaped(b, e.what);
      b += "\"\n";
    }
    if (rows.size() < t.execs.size())
      fmt::format_to(it, "  ({} more; --top all shows every row)\n", t.execs.size() - rows.size());
  }
  fmt::format_to(it, "pmcs: {}\n", t.pmcs.size());
  const auto pmcs = ranked(t.pmcs, top_);
  for (const auto& e : pmcs) {
    const auto [id, p] = e.what;
    if (!p->allocated) {
      fmt::format_to(it, "  0x{:08x} (no PMCALLOCATE in the log) {} samples\n", id, p->samples.total());
      continue;
    }
    fmt::format_to(it, "  0x{:08x} event 0x{:x} \"", id, p->event);
    pmclog::append_escaped(b, p->named ? p->name : !p->label.empty() ? p->label : "?");
    fmt::format_to(it, "\" {} samples\n", p->samples.total());
  }
  if (pmcs.size() < t.pmcs.size())
    fmt::format_to(it, "  ({} more; --top all shows every row)\n", t.pmcs.size() - pmcs.size());
  b += "callchain depth histogram:\n";
  for (const auto& [d, n] : depth_rows()) fmt::format_to(it, "  {:>5} {:>10}\n", d, n);
  fmt::format_to(it, "drop notifications: {}\n", drops_);
  fmt::format_to(it, "errors: {}\n", errors_.size());
  const size_t shown = top_ ? std::min<size_t>(top_, errors_.size()) : errors_.size();
  for (size_t i = 0; i < shown; ++i) fmt::format_to(it, "  {}\n", errors_[i].message);
  if (shown < errors_.size())
    fmt::format_to(it, "  ({} more errors; --top all shows every one)\n", errors_.size() - shown);
  uint64_t skipped_bytes = 0;
  for (size_t i = 0; i < skipped_.size(); ++i) {
    const auto& s = skipped_[i];
    skipped_bytes += s.to - s.from;
    if (!top_ || i < top_)
      fmt::format_to(it, "  skipped bytes {}..{} ({} bytes)\n", s.from, s.to, s.to - s.from);
  }
  if (top_ && skipped_.size() > top_)
    fmt::format_to(it, "  ({} more skipped ranges; {} bytes skipped in all)\n", skipped_.size() - top_,
                   skipped_bytes);
  out.maybe_flush();
}

void Stats::print_json(const LogState& st, Output& out) {
  drain_tally();
  std::string& b = out.buf;
  auto it = std::back_inserter(b);
  b += "{\"file\":";
  pmclog::append_json_string(b, st.file);
  fmt::format_to(it, ",\"generation\":\"{}\",\"address_width\":{},\"byte_order\":\"{}\"",
                 pmclog::generation_name(st.abi.generation), st.abi.address_width,
                 pmclog::byte_order_name(st.abi.byte_order));
  if (st.abi.narrow()) fmt::format_to(it, ",\"address_slot\":{}", st.abi.slot_width());
  if (const pmclog::Container* c = st.container) {
    fmt::format_to(it, ",\"container\":{{\"version\":{},\"arch\":\"{}\",\"arch_code\":{},"
                       "\"byte_order\":\"{}\",\"stream_offset\":{},\"infos\":[",
                   c->version, pmclog::container_arch_name(c->arch).value_or("unknown"), c->arch,
                   pmclog::byte_order_name(c->byte_order), c->size);
    bool first_info = true;
    for (const auto& i : c->infos) {
      fmt::format_to(it, "{}{{\"offset\":{},\"info_type\":\"{}\",\"info_type_code\":{},\"length\":{}}}",
                     first_info ? "" : ",", i.offset,
                     pmclog::info_type_name(i.type).value_or("unknown"), i.type, i.payload.size());
      first_info = false;
    }
    b += "]}";
  }
  const KindCount all = totals();
  const Split sampled = samples();
  fmt::format_to(it, ",\"records\":{},\"bytes\":{},\"types\":{{", all.records, all.bytes);
  bool first = true;
  for (const auto& [k, c] : kind_rows()) {
    fmt::format_to(it, "{}\"{}\":{{\"records\":{},\"bytes\":{}}}", first ? "" : ",",
                   pmclog::kind_id(k), c.records, c.bytes);
    first = false;
  }
  b += "}";
  if (all.records) {
    if (st.abi.legacy()) {
      fmt::format_to(it, ",\"time\":{{\"first_ns\":{},\"last_ns\":{}}}", legacy_ns(t_min_),
                     legacy_ns(t_max_));
    } else {
      fmt::format_to(it, ",\"time\":{{\"first_tsc\":{},\"last_tsc\":{},\"tsc_freq\":{}}}", t_min_,
                     t_max_, st.tsc_freq);
    }
  }
  const Tables t = tables();
  fmt::format_to(it, ",\"processes\":{},\"top\":{}", pids_.size(), top_);
  fmt::format_to(it, ",\"samples\":{{\"total\":{},\"user\":{},\"kernel\":{}}}", sampled.total(),
                 sampled.user, sampled.kernel);
  // The kernel's pid -1 is not a process: its samples are apart from by_process.
  b += ",\"kernel_pid\":";
  json_split(b, kernel_pid_);
  decltype(t.procs) procs;
  for (const auto& e : t.procs)
    if (e.what.first) procs.push_back(e);
  b += ",\"by_process\":";
  json_table(b, procs, top_, [&](const auto& w) {
    fmt::format_to(it, "\"pid\":{},\"command\":", w.first->first);
    if (w.first->second.empty()) b += "null";
    else pmclog::append_json_string(b, w.first->second);
    b += ",\"path\":";
    if (w.second->path.empty()) b += "null";
    else pmclog::append_json_string(b, w.second->path);
  });
  b += ",\"by_command\":";
  json_table(b, t.commands, top_, [&](const Command& c) {
    b += "\"command\":";
    if (c.name.empty()) b += "null";
    else pmclog::append_json_string(b, c.name);
    fmt::format_to(it, ",\"processes\":{}", c.processes);
  });
  b += ",\"by_event\":";
  json_table(b, t.events, top_, [&](const Event& e) {
    b += "\"event\":";
    if (e.named) pmclog::append_json_string(b, e.name);
    else b += "null";
    b += ",\"codes\":[";
    bool f = true;
    for (uint32_t c : e.codes) {
      fmt::format_to(it, "{}{}", f ? "" : ",", c);
      f = false;
    }
    fmt::format_to(it, "],\"allocated\":{},\"pmcs\":{}", e.codes.empty() ? "false" : "true", e.pmcs);
  });
  b += ",\"by_cpu\":";
  json_table(b, t.cpus, top_, [&](const Cpu& c) {
    if (c.known) fmt::format_to(it, "\"cpu\":{}", c.cpu);
    else b += "\"cpu\":null";
  });
  b += ",\"execs\":[";
  first = true;
  for (const auto& e : ranked(t.execs, top_)) {
    b += first ? "{\"path\":" : ",{\"path\":";
    first = false;
    pmclog::append_json_string(b, e.what);
    fmt::format_to(it, ",\"count\":{}}}", e.s.user);
  }
  b += "],\"pmcs\":[";
  first = true;
  for (const auto& [id, p] : pmcs_) {
    if (!p.listed) continue;
    fmt::format_to(it, "{}{{\"pmcid\":{},\"samples\":{}", first ? "" : ",", id, p.samples.total());
    if (p.allocated) fmt::format_to(it, ",\"event\":{},\"flags\":{}", p.event, p.flags);
    else b += ",\"event\":null,\"flags\":null";
    b += ",\"name\":";
    if (p.named) pmclog::append_json_string(b, p.name);
    else b += "null";
    b += "}";
    first = false;
  }
  b += "],\"callchain_depths\":{";
  first = true;
  for (const auto& [d, n] : depth_rows()) {
    fmt::format_to(it, "{}\"{}\":{}", first ? "" : ",", d, n);
    first = false;
  }
  fmt::format_to(it, "}},\"drops\":{},\"errors\":[", drops_);
  first = true;
  for (const auto& e : errors_) {
    fmt::format_to(it, "{}{{\"offset\":{},\"code\":\"{}\",\"message\":", first ? "" : ",", e.offset,
                   pmclog::errc_id(e.code));
    pmclog::append_json_string(b, e.message);
    b += "}";
    first = false;
  }
  b += "],\"skipped\":[";
  first = true;
  for (const auto& s : skipped_) {
    fmt::format_to(it, "{}{{\"from\":{},\"to\":{}}}", first ? "" : ",", s.from, s.to);
    first = false;
  }
  b += "]}\n";
  out.maybe_flush();
}

}  // namespace dump
