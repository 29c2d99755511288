#include "stats.h"

#include <fmt/format.h>

#include "pmclog/event_names.h"
#include "pmclog/layout.h"
#include "pmclog/text.h"

namespace dump {

namespace {
// Local stand-in for pmclog::errc_id, which the library does not define yet.
const char* errc_text(pmclog::Errc e) {
  using E = pmclog::Errc;
  switch (e) {
    case E::none: return "none";
    case E::truncated: return "truncated";
    case E::bad_magic: return "bad-magic";
    case E::length_below_header: return "length-below-header";
    case E::length_not_multiple_of_4: return "length-not-multiple-of-4";
    case E::length_below_minimum: return "length-below-minimum";
    case E::length_wrong_size: return "length-wrong-size";
    case E::length_above_maximum: return "length-above-maximum";
    case E::unknown_type: return "unknown-type";
    case E::unterminated_string: return "unterminated-string";
    case E::callchain_too_deep: return "callchain-too-deep";
    case E::callchain_misaligned: return "callchain-misaligned";
    case E::value_out_of_range: return "value-out-of-range";
    case E::string_too_long: return "string-too-long";
    case E::bad_abi: return "bad-abi";
    case E::io: return "io";
  }
  return "?";
}
}  // namespace

using pmclog::Field;
using pmclog::Kind;

void Stats::add(const pmclog::Record& r, const LogState& st) {
  auto& k = kinds_[r.kind];
  ++k.records;
  k.bytes += r.raw.size();
  ++records_;
  bytes_ += r.raw.size();
  // Time span over header times; legacy as nanoseconds, modern as TSC ticks.
  const uint64_t t = st.abi.legacy()
                         ? uint64_t{r.header.ts_sec} * 1000000000u + r.header.ts_nsec
                         : r.header.tsc;
  if (!have_time_ || t < t_min_) t_min_ = t;
  if (!have_time_ || t > t_max_) t_max_ = t;
  have_time_ = true;
  for (Field f : {Field::pid, Field::oldpid, Field::newpid}) {
    if (r.has(f)) pids_.insert(static_cast<int32_t>(static_cast<uint32_t>(r[f])));
  }
  switch (r.kind) {
    case Kind::procexec:
      exec_paths_[static_cast<int32_t>(static_cast<uint32_t>(r[Field::pid]))] = std::string(r.text);
      break;
    case Kind::pmcallocate:
    case Kind::pmcallocatedyn: {
      auto& p = pmcs_[static_cast<uint32_t>(r[Field::pmcid])];
      p.event = static_cast<uint32_t>(r[Field::event]);
      p.flags = static_cast<uint32_t>(r[Field::flags]);
      p.allocated = true;
      if (r.kind == Kind::pmcallocatedyn) {
        p.name = std::string(r.text);
        p.named = true;
      } else if (auto n = event_name(p.event, st.cputype, st.abi.generation, &st.soft_events)) {
        p.name = std::string(*n);
        p.named = true;
      }
      break;
    }
    case Kind::callchain:
      ++depth_[r.pcs.size()];
      if (r.user_callchain()) ++user_;
      else ++kernel_;
      ++pmcs_[static_cast<uint32_t>(r[Field::pmcid])].samples;
      break;
    case Kind::pcsample:
      if (r[Field::usermode]) ++user_;
      else ++kernel_;
      ++pmcs_[static_cast<uint32_t>(r[Field::pmcid])].samples;
      break;
    case Kind::dropnotify:
      ++drops_;
      break;
    default:
      break;
  }
}

void Stats::error(const pmclog::Error& e) { errors_.push_back(e); }
void Stats::skipped(const pmclog::SkippedRange& s) { skipped_.push_back(s); }

void Stats::print_text(const LogState& st, Output& out) {
  auto it = std::back_inserter(out.buf);
  fmt::format_to(it, "file: {}\nabi: {}\nrecords: {} ({} bytes)\n", st.file,
                 pmclog::describe(st.abi), records_, bytes_);
  for (const auto& [k, c] : kinds_)
    fmt::format_to(it, "  {:<15} {:>10} records {:>12} bytes\n", pmclog::kind_name(k), c.records, c.bytes);
  if (have_time_) {
    if (st.abi.legacy()) {
      fmt::format_to(it, "time: {}.{:09} .. {}.{:09} ({:.9f} s)\n", t_min_ / 1000000000u,
                     t_min_ % 1000000000u, t_max_ / 1000000000u, t_max_ % 1000000000u,
                     static_cast<double>(t_max_ - t_min_) / 1e9);
    } else {
      fmt::format_to(it, "time: tsc {} .. {} ({} ticks", t_min_, t_max_, t_max_ - t_min_);
      if (st.tsc_freq) fmt::format_to(it, ", {} s", tsc_seconds(t_max_ - t_min_, st.tsc_freq));
      out.buf += ")\n";
    }
  }
  fmt::format_to(it, "processes: {}\n", pids_.size());
  for (const auto& [pid, path] : exec_paths_) {
    fmt::format_to(it, "  {} exec \"", pid);
    pmclog::append_escaped(out.buf, path);
    out.buf += "\"\n";
  }
  fmt::format_to(it, "pmcs: {}\n", pmcs_.size());
  for (const auto& [id, p] : pmcs_) {
    if (!p.allocated) {
      fmt::format_to(it, "  0x{:08x} (no PMCALLOCATE in the log) {} samples\n", id, p.samples);
      continue;
    }
    fmt::format_to(it, "  0x{:08x} event 0x{:x} \"", id, p.event);
    pmclog::append_escaped(out.buf, p.named ? p.name : "?");
    fmt::format_to(it, "\" {} samples\n", p.samples);
  }
  fmt::format_to(it, "samples: {} user, {} kernel\n", user_, kernel_);
  out.buf += "callchain depth histogram:\n";
  for (const auto& [d, n] : depth_) fmt::format_to(it, "  {:>5} {:>10}\n", d, n);
  fmt::format_to(it, "drop notifications: {}\n", drops_);
  fmt::format_to(it, "errors: {}\n", errors_.size());
  for (const auto& e : errors_) fmt::format_to(it, "  {}\n", e.message);
  for (const auto& s : skipped_)
    fmt::format_to(it, "  skipped bytes {}..{} ({} bytes)\n", s.from, s.to, s.to - s.from);
  out.maybe_flush();
}

void Stats::print_json(const LogState& st, Output& out) {
  std::string& b = out.buf;
  auto it = std::back_inserter(b);
  b += "{\"file\":";
  pmclog::append_json_string(b, st.file);
  fmt::format_to(it, ",\"generation\":\"{}\",\"address_width\":{},\"byte_order\":\"{}\"",
                 pmclog::generation_name(st.abi.generation), st.abi.address_width,
                 pmclog::byte_order_name(st.abi.byte_order));
  fmt::format_to(it, ",\"records\":{},\"bytes\":{},\"types\":{{", records_, bytes_);
  bool first = true;
  for (const auto& [k, c] : kinds_) {
    fmt::format_to(it, "{}\"{}\":{{\"records\":{},\"bytes\":{}}}", first ? "" : ",",
                   pmclog::kind_id(k), c.records, c.bytes);
    first = false;
  }
  b += "}";
  if (have_time_) {
    if (st.abi.legacy()) {
      fmt::format_to(it, ",\"time\":{{\"first_ns\":{},\"last_ns\":{}}}", t_min_, t_max_);
    } else {
      fmt::format_to(it, ",\"time\":{{\"first_tsc\":{},\"last_tsc\":{},\"tsc_freq\":{}}}", t_min_,
                     t_max_, st.tsc_freq);
    }
  }
  fmt::format_to(it, ",\"processes\":{},\"execs\":[", pids_.size());
  first = true;
  for (const auto& [pid, path] : exec_paths_) {
    fmt::format_to(it, "{}{{\"pid\":{},\"path\":", first ? "" : ",", pid);
    pmclog::append_json_string(b, path);
    b += "}";
    first = false;
  }
  b += "],\"pmcs\":[";
  first = true;
  for (const auto& [id, p] : pmcs_) {
    fmt::format_to(it, "{}{{\"pmcid\":{},\"samples\":{}", first ? "" : ",", id, p.samples);
    if (p.allocated) fmt::format_to(it, ",\"event\":{},\"flags\":{}", p.event, p.flags);
    else b += ",\"event\":null,\"flags\":null";
    b += ",\"name\":";
    if (p.named) pmclog::append_json_string(b, p.name);
    else b += "null";
    b += "}";
    first = false;
  }
  fmt::format_to(it, "],\"samples\":{{\"user\":{},\"kernel\":{}}},\"callchain_depths\":{{", user_, kernel_);
  first = true;
  for (const auto& [d, n] : depth_) {
    fmt::format_to(it, "{}\"{}\":{}", first ? "" : ",", d, n);
    first = false;
  }
  fmt::format_to(it, "}},\"drops\":{},\"errors\":[", drops_);
  first = true;
  for (const auto& e : errors_) {
    fmt::format_to(it, "{}{{\"offset\":{},\"code\":\"{}\",\"message\":", first ? "" : ",", e.offset,
                   errc_text(e.code));
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
