// --stats as text: the summary's sections in order, each table ranked and cut at --top.
#include <fmt/format.h>

#include <algorithm>

#include "pmclog/names.h"
#include "pmclog/text.h"
#include "stats_view.h"

namespace dump {

using stats::Command;
using stats::Cpu;
using stats::Entry;
using stats::Event;
using stats::ranked;

namespace {

std::string escaped_or(std::string_view s, const char* empty) {
  return s.empty() ? std::string(empty) : pmclog::escaped(s);
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

void print_stats_text(const StatsView& v, const LogState& st, Output& out) {
  std::string& b = out.buf;
  auto it = std::back_inserter(b);
  const uint64_t top_ = v.top;
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
  const stats::KindCount& all = v.all;
  const stats::Split& sampled = v.samples;
  fmt::format_to(it, "records: {} ({} bytes)\n", all.records, all.bytes);
  for (const auto& [k, c] : v.kinds)
    fmt::format_to(it, "  {:<15} {:>10} records {:>12} bytes\n", pmclog::kind_name(k), c.records, c.bytes);
  if (all.records) {
    if (st.abi.legacy()) {
      const uint64_t first = v.first, last = v.last;
      fmt::format_to(it, "time: {}.{:09} .. {}.{:09} ({:.9f} s)\n", first / 1000000000u,
                     first % 1000000000u, last / 1000000000u, last % 1000000000u,
                     static_cast<double>(last - first) / 1e9);
    } else {
      fmt::format_to(it, "time: tsc {} .. {} ({} ticks", v.first, v.last, v.last - v.first);
      if (st.tsc_freq) fmt::format_to(it, ", {} s", tsc_seconds(v.last - v.first, st.tsc_freq));
      b += ")\n";
    }
  }
  fmt::format_to(it, "processes: {}\n", v.processes);
  fmt::format_to(it, "samples: {} ({} user, {} kernel)\n", sampled.total(), sampled.user,
                 sampled.kernel);
  const StatsView& t = v;
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
  for (const auto& [d, n] : v.depths) fmt::format_to(it, "  {:>5} {:>10}\n", d, n);
  fmt::format_to(it, "drop notifications: {}\n", v.drops);
  const auto& errors_ = v.errors;
  const auto& skipped_ = v.skipped;
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

}  // namespace dump
