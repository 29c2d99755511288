// What --stats prints of one file: the counts Stats collected (stats.h) as totals and tables,
// and the two printers that read them, as text (stats_text.cpp) and as JSON (stats_json.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formatter.h"
#include "log_state.h"
#include "pmclog/error.h"
#include "pmclog/kind.h"
#include "pmclog/reader.h"

namespace dump {

namespace stats {

// Samples with the callchain's user bit set (format.md §9.1; PCSAMPLE's usermode) or not.
struct Split {
  uint64_t user = 0, kernel = 0;
  uint64_t total() const { return user + kernel; }
  // Branch-free: the user bit of consecutive samples is close to random, and a branch on
  // it, taken four times per sample, mispredicted often enough to show in profiles.
  void add(bool is_user, uint64_t n = 1) {
    user += is_user ? n : 0;
    kernel += is_user ? 0 : n;
  }
  void add(const Split& o) {
    user += o.user;
    kernel += o.kernel;
  }
};

struct KindCount {
  uint64_t records = 0, bytes = 0;
};

struct Pmc {
  uint32_t event = 0;
  uint32_t flags = 0;
  std::string name;
  bool named = false;
  std::string label;       // unnamed pmu-events index: "pmu-event-0x6a"
  bool allocated = false;  // a PMCALLOCATE/PMCALLOCATEDYN for it was seen
  bool listed = false;     // a selected record named it
  Split samples;
};

// One row per (pid, command at the time of the sample), as perf's --sort comm,pid: a pid
// that execs another program gets a second row.
using RowKey = std::pair<int32_t, std::string>;
struct Row {
  std::string path;  // the full path the name came from, if any
  Split samples;
};

// A row of a summary table: its samples and what the row is about.
template <class T>
struct Entry {
  Split s;
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

// The rows with the most samples first (ties keep the given order), at most `top` (0: all).
template <class T>
std::vector<Entry<T>> ranked(std::vector<Entry<T>> v, uint64_t top) {
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.s.total() > b.s.total(); });
  if (top && v.size() > top) v.resize(top);
  return v;
}

}  // namespace stats

// Stats::view(): built once per print. It points into its Stats, which must outlive it, and
// into its own rows (so it moves, but is not copied).
struct StatsView {
  uint64_t top = 0;  // rows per table, 0 for every row
  stats::KindCount all;
  std::vector<std::pair<pmclog::Kind, stats::KindCount>> kinds;  // in kind order
  // Header times when a record was counted: legacy as ns since the epoch, modern as TSC.
  uint64_t first = 0, last = 0;
  size_t processes = 0;  // pids of selected records, the kernel's -1 left out
  stats::Split samples;
  stats::Split kernel_pid;  // samples with pid -1: the kernel, not a process
  std::map<stats::RowKey, stats::Row> rows;  // with the unnamed rows of later-named pids merged
  // Into rows; nullptr for the kernel's row.
  std::vector<stats::Entry<std::pair<const stats::RowKey*, const stats::Row*>>> procs;
  std::vector<stats::Entry<stats::Command>> commands;
  std::vector<stats::Entry<stats::Event>> events;
  std::vector<stats::Entry<stats::Cpu>> cpus;
  std::vector<stats::Entry<std::string_view>> execs;  // execs counted in s.user
  std::vector<stats::Entry<std::pair<uint32_t, const stats::Pmc*>>> pmcs;  // listed, by id
  std::vector<std::pair<uint32_t, uint64_t>> depths;  // callchains by frame count, by depth
  uint64_t drops = 0;
  std::span<const pmclog::Error> errors;
  std::span<const pmclog::SkippedRange> skipped;

  StatsView() = default;
  StatsView(StatsView&&) = default;
  StatsView(const StatsView&) = delete;
  StatsView& operator=(const StatsView&) = delete;
};

// The summary of one file, appended to out.
void print_stats_text(const StatsView& v, const LogState& st, Output& out);
void print_stats_json(const StatsView& v, const LogState& st, Output& out);

}  // namespace dump
