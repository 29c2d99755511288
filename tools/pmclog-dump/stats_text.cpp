// --stats as text: the summary's sections in order, each table ranked and cut at --top.
#include "stats_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "pmclog/names.h"
#include "pmclog/text.h"

namespace dump {

using namespace stats;  // the view's row types and ranked()

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
  fmt::format_to(it, ":\n  {:>10} {:>7} {:>10} {:>10}  {}\n", "samples", "%", "user", "kernel",
                 heads);
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

// file:, abi: and the container's header and infos.
void text_header(const LogState& st, std::string& b) {
  auto it = std::back_inserter(b);
  fmt::format_to(it, "file: {}\nabi: {}\n", pmclog::display_path(st.file),
                 pmclog::describe(st.abi));
  if (const pmclog::Container* c = st.container) {
    fmt::format_to(it, "container: PMCL version {}, arch {} ({}), {}-endian, {} bytes (the stream "
                       "starts at offset {})\n",
                   c->version, pmclog::container_arch_name(c->arch).value_or("unknown"), c->arch,
                   pmclog::byte_order_name(c->byte_order), c->size, c->size);
    for (const auto& i : c->infos)
      fmt::format_to(it, "  @{:<8} {:<10} {:>6} bytes\n", i.offset,
                     pmclog::info_type_name(i.type).value_or("unknown"), i.payload.size());
  }
}

// records: by type, time:, processes:, samples:.
void text_counts(const StatsView& v, const LogState& st, std::string& b) {
  auto it = std::back_inserter(b);
  fmt::format_to(it, "records: {} ({} bytes)\n", v.all.records, v.all.bytes);
  for (const auto& [k, c] : v.kinds)
    fmt::format_to(it, "  {:<15} {:>10} records {:>12} bytes\n", pmclog::kind_name(k), c.records,
                   c.bytes);
  if (v.all.records) {
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
  fmt::format_to(it, "samples: {} ({} user, {} kernel)\n", v.samples.total(), v.samples.user,
                 v.samples.kernel);
}

// samples by process, command, event and cpu; only when there are samples.
void text_sample_tables(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  const uint64_t total = v.samples.total();
  const uint64_t top = v.top;
  text_table(b, "samples by process", "       pid  command", v.procs, top, total, [&](const auto& w) {
    if (!w.first) {  // pid -1 marks the kernel (format.md §7 MAP_IN), not a process
      b += "        -1  [kernel]";
      return;
    }
    fmt::format_to(it, "{:>10}  ", w.first->first);
    b += escaped_or(w.first->second, "[unknown]");
  });
  text_table(b, "samples by command", "   procs  command", v.commands, top, total,
             [&](const Command& c) {
               fmt::format_to(it, "{:>8}  ", c.processes);
               b += escaped_or(c.name, "[unknown]");
             });
  text_table(b, "samples by event", "    pmcs  event", v.events, top, total, [&](const Event& e) {
    fmt::format_to(it, "{:>8}  ", e.pmcs);
    b += event_label(e);
  });
  text_table(b, "samples by cpu", "     cpu", v.cpus, top, total, [&](const Cpu& c) {
    if (c.known) fmt::format_to(it, "{:>8}", c.cpu);
    else b += "       ?  (the pmc is process-mode)";
  });
}

// execs: by path; none when the log has no PROCEXEC.
void text_execs(const StatsView& v, std::string& b) {
  if (v.execs.empty()) return;
  auto it = std::back_inserter(b);
  uint64_t n = 0;
  for (const auto& e : v.execs) n += e.s.user;
  fmt::format_to(it, "execs: {} ({} path{})\n", n, v.execs.size(), v.execs.size() == 1 ? "" : "s");
  const auto rows = ranked(v.execs, v.top);
  for (const auto& e : rows) {
    fmt::format_to(it, "  {:>10}  \"", e.s.user);
    pmclog::append_escaped(b, e.what);
    b += "\"\n";
  }
  if (rows.size() < v.execs.size())
    fmt::format_to(it, "  ({} more; --top all shows every row)\n", v.execs.size() - rows.size());
}

void text_pmcs(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  fmt::format_to(it, "pmcs: {}\n", v.pmcs.size());
  const auto pmcs = ranked(v.pmcs, v.top);
  for (const auto& e : pmcs) {
    const auto [id, p] = e.what;
    if (!p->allocated) {
      fmt::format_to(it, "  0x{:08x} (no PMCALLOCATE in the log) {} samples\n", id,
                     p->samples.total());
      continue;
    }
    fmt::format_to(it, "  0x{:08x} event 0x{:x} \"", id, p->event);
    pmclog::append_escaped(b, p->named ? p->name : !p->label.empty() ? p->label : "?");
    fmt::format_to(it, "\" {} samples\n", p->samples.total());
  }
  if (pmcs.size() < v.pmcs.size())
    fmt::format_to(it, "  ({} more; --top all shows every row)\n", v.pmcs.size() - pmcs.size());
}

// errors: and the skipped ranges, at most --top of each.
void text_errors(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  const uint64_t top = v.top;
  fmt::format_to(it, "errors: {}\n", v.errors.size());
  const size_t shown = top ? std::min<size_t>(top, v.errors.size()) : v.errors.size();
  for (size_t i = 0; i < shown; ++i) fmt::format_to(it, "  {}\n", v.errors[i].message);
  if (shown < v.errors.size())
    fmt::format_to(it, "  ({} more errors; --top all shows every one)\n", v.errors.size() - shown);
  uint64_t skipped_bytes = 0;
  for (size_t i = 0; i < v.skipped.size(); ++i) {
    const auto& s = v.skipped[i];
    skipped_bytes += s.to - s.from;
    if (!top || i < top)
      fmt::format_to(it, "  skipped bytes {}..{} ({} bytes)\n", s.from, s.to, s.to - s.from);
  }
  if (top && v.skipped.size() > top)
    fmt::format_to(it, "  ({} more skipped ranges; {} bytes skipped in all)\n",
                   v.skipped.size() - top, skipped_bytes);
}

}  // namespace

void print_stats_text(const StatsView& v, const LogState& st, Output& out) {
  std::string& b = out.buf;
  text_header(st, b);
  text_counts(v, st, b);
  if (v.samples.total()) text_sample_tables(v, b);
  text_execs(v, b);
  text_pmcs(v, b);
  auto it = std::back_inserter(b);
  b += "callchain depth histogram:\n";
  for (const auto& [d, n] : v.depths) fmt::format_to(it, "  {:>5} {:>10}\n", d, n);
  fmt::format_to(it, "drop notifications: {}\n", v.drops);
  text_errors(v, b);
  out.maybe_flush();
}

}  // namespace dump
