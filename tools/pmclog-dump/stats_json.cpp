// --stats --format=json: one object per file, every table with its row count and its rows
// ranked and cut at --top.
#include "stats_view.h"

#include <fmt/format.h>

#include "pmclog/names.h"
#include "pmclog/text.h"

namespace dump {

using namespace stats;  // the view's row types and ranked()

namespace {

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

void json_split(std::string& b, const stats::Split& s) {
  fmt::format_to(std::back_inserter(b), "{{\"samples\":{},\"user\":{},\"kernel\":{}}}", s.total(),
                 s.user, s.kernel);
}

// "file", the ABI and the container's header and infos.
void json_header(const LogState& st, std::string& b) {
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
      fmt::format_to(it,
                     "{}{{\"offset\":{},\"info_type\":\"{}\",\"info_type_code\":{},\"length\":{}}}",
                     first_info ? "" : ",", i.offset,
                     pmclog::info_type_name(i.type).value_or("unknown"), i.type, i.payload.size());
      first_info = false;
    }
    b += "]}";
  }
}

// "records", "bytes", "types", "time", "processes", "top", "samples", "kernel_pid".
void json_counts(const StatsView& v, const LogState& st, std::string& b) {
  auto it = std::back_inserter(b);
  fmt::format_to(it, ",\"records\":{},\"bytes\":{},\"types\":{{", v.all.records, v.all.bytes);
  bool first = true;
  for (const auto& [k, c] : v.kinds) {
    fmt::format_to(it, "{}\"{}\":{{\"records\":{},\"bytes\":{}}}", first ? "" : ",",
                   pmclog::kind_id(k), c.records, c.bytes);
    first = false;
  }
  b += "}";
  if (v.all.records) {
    if (st.abi.legacy()) {
      fmt::format_to(it, ",\"time\":{{\"first_ns\":{},\"last_ns\":{}}}", v.first, v.last);
    } else {
      fmt::format_to(it, ",\"time\":{{\"first_tsc\":{},\"last_tsc\":{},\"tsc_freq\":{}}}", v.first,
                     v.last, st.tsc_freq);
    }
  }
  fmt::format_to(it, ",\"processes\":{},\"top\":{}", v.processes, v.top);
  fmt::format_to(it, ",\"samples\":{{\"total\":{},\"user\":{},\"kernel\":{}}}", v.samples.total(),
                 v.samples.user, v.samples.kernel);
  // The kernel's pid -1 is not a process: its samples are apart from by_process.
  b += ",\"kernel_pid\":";
  json_split(b, v.kernel_pid);
}

// "by_process", "by_command", "by_event", "by_cpu".
void json_sample_tables(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  decltype(v.procs) procs;
  for (const auto& e : v.procs)
    if (e.what.first) procs.push_back(e);
  b += ",\"by_process\":";
  json_table(b, procs, v.top, [&](const auto& w) {
    fmt::format_to(it, "\"pid\":{},\"command\":", w.first->first);
    if (w.first->second.empty()) b += "null";
    else pmclog::append_json_string(b, w.first->second);
    b += ",\"path\":";
    if (w.second->path.empty()) b += "null";
    else pmclog::append_json_string(b, w.second->path);
  });
  b += ",\"by_command\":";
  json_table(b, v.commands, v.top, [&](const Command& c) {
    b += "\"command\":";
    if (c.name.empty()) b += "null";
    else pmclog::append_json_string(b, c.name);
    fmt::format_to(it, ",\"processes\":{}", c.processes);
  });
  b += ",\"by_event\":";
  json_table(b, v.events, v.top, [&](const Event& e) {
    b += "\"event\":";
    if (e.named) pmclog::append_json_string(b, e.name);
    else b += "null";
    b += ",\"codes\":[";
    bool f = true;
    for (uint32_t c : e.codes) {
      fmt::format_to(it, "{}{}", f ? "" : ",", c);
      f = false;
    }
    fmt::format_to(it, "],\"allocated\":{},\"pmcs\":{}", e.codes.empty() ? "false" : "true",
                   e.pmcs);
  });
  b += ",\"by_cpu\":";
  json_table(b, v.cpus, v.top, [&](const Cpu& c) {
    if (c.known) fmt::format_to(it, "\"cpu\":{}", c.cpu);
    else b += "\"cpu\":null";
  });
}

// "execs" (ranked, cut at --top) and "pmcs" (every listed one, by id).
void json_execs_and_pmcs(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  b += ",\"execs\":[";
  bool first = true;
  for (const auto& e : ranked(v.execs, v.top)) {
    b += first ? "{\"path\":" : ",{\"path\":";
    first = false;
    pmclog::append_json_string(b, e.what);
    fmt::format_to(it, ",\"count\":{}}}", e.s.user);
  }
  b += "],\"pmcs\":[";
  first = true;
  for (const auto& e : v.pmcs) {
    const auto [id, p] = e.what;
    fmt::format_to(it, "{}{{\"pmcid\":{},\"samples\":{}", first ? "" : ",", id, p->samples.total());
    if (p->allocated) fmt::format_to(it, ",\"event\":{},\"flags\":{}", p->event, p->flags);
    else b += ",\"event\":null,\"flags\":null";
    b += ",\"name\":";
    if (p->named) pmclog::append_json_string(b, p->name);
    else b += "null";
    b += "}";
    first = false;
  }
  b += "]";
}

// "callchain_depths", "drops", "errors", "skipped", and the object's end.
void json_depths_and_damage(const StatsView& v, std::string& b) {
  auto it = std::back_inserter(b);
  b += ",\"callchain_depths\":{";
  bool first = true;
  for (const auto& [d, n] : v.depths) {
    fmt::format_to(it, "{}\"{}\":{}", first ? "" : ",", d, n);
    first = false;
  }
  fmt::format_to(it, "}},\"drops\":{},\"errors\":[", v.drops);
  first = true;
  for (const auto& e : v.errors) {
    fmt::format_to(it, "{}{{\"offset\":{},\"code\":\"{}\",\"message\":", first ? "" : ",", e.offset,
                   pmclog::errc_id(e.code));
    pmclog::append_json_string(b, e.message);
    b += "}";
    first = false;
  }
  b += "],\"skipped\":[";
  first = true;
  for (const auto& s : v.skipped) {
    fmt::format_to(it, "{}{{\"from\":{},\"to\":{}}}", first ? "" : ",", s.from, s.to);
    first = false;
  }
  b += "]}\n";
}

}  // namespace

void print_stats_json(const StatsView& v, const LogState& st, Output& out) {
  json_header(st, out.buf);
  json_counts(v, st, out.buf);
  json_sample_tables(v, out.buf);
  json_execs_and_pmcs(v, out.buf);
  json_depths_and_damage(v, out.buf);
  out.maybe_flush();
}

}  // namespace dump
