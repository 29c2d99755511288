// --stats: collecting the summary of the selected records: counts and bytes per type, time
// span, samples per process, command, event and CPU (each with its user/kernel split), execs
// grouped by path, pmcs, callchain depths, drops, errors. view() gives them to the printers
// (stats_view.h).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "log_state.h"
#include "sample_tally.h"
#include "stats_view.h"
#include "pmclog/error.h"
#include "pmclog/kind.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"

namespace dump {

class Stats {
 public:
  // `top`: rows per table, 0 for every row.
  explicit Stats(uint64_t top = 10) : top_(top) {}
  // Every decoded record, selected or not: what later samples are named by (process names,
  // pmc events), as LogState is for the formatters.
  // Inline: most records (samples) name nothing, and a call per record showed in profiles.
  void observe(const pmclog::Record& r, const LogState& st) {
    // Legacy times unwrap in file order, over every record (format.md §3.5).
    if (st.abi.legacy()) legacy_now_ = clock_.since_first(r.header.ts_sec, r.header.ts_nsec);
    switch (r.kind) {
      case pmclog::Kind::procexec:
      case pmclog::Kind::pmcattach:
      case pmclog::Kind::proc_create:
      case pmclog::Kind::procfork:
      case pmclog::Kind::pmcallocate:
      case pmclog::Kind::pmcallocatedyn:
        drain_tally();  // its shapes were counted under the names before this record
        observe_naming(r, st);
        break;
      default:
        break;
    }
  }
  // The selected records, which are what is counted. Inline (forced: GCC 12 stopped
  // inlining it once it held the tally), with the rare kinds, every cache's miss and the
  // tally's flushes out of line: the calls per sample were a third of --stats.
  [[gnu::always_inline]] void add(const pmclog::Record& r, const LogState& st) {
    auto& k = kinds_[static_cast<size_t>(r.kind)];
    ++k.records;
    k.bytes += r.raw.size();
    // Time span over header times; legacy as nanoseconds after the first record (observe()
    // unwrapped it), kept in order as unsigned; modern as TSC ticks.
    const uint64_t t = st.abi.legacy() ? static_cast<uint64_t>(legacy_now_) ^ kSignBit
                                       : r.header.tsc;
    t_min_ = t < t_min_ ? t : t_min_;
    t_max_ = t > t_max_ ? t : t_max_;
    if (r.kind == pmclog::Kind::callchain) [[likely]] {
      const uint32_t depth = r.pcs.size();
      if (depth >= depth_.size()) [[unlikely]]
        grow_depths(depth);
      ++depth_[depth];
      // CALLCHAIN says its cpu (format.md §9.1); its pid is noted when its shape is counted.
      tally_.add(static_cast<uint32_t>(r[pmclog::Field::pid]),
                 static_cast<uint32_t>(r[pmclog::Field::pmcid]),
                 static_cast<uint32_t>(r[pmclog::Field::cpuflags]),
                 [this](const SampleTally::Shape& s) { count(s); });
      return;
    }
    if (const uint8_t mask = pid_fields(r)) {
      // Unrolled, with each field's index a constant: most records have one pid.
      if (mask & 1) note_pid(pid_of(r, pmclog::Field::pid));
      if (mask & 2) note_pid(pid_of(r, pmclog::Field::oldpid));
      if (mask & 4) note_pid(pid_of(r, pmclog::Field::newpid));
    }
    switch (r.kind) {
      case pmclog::Kind::pcsample: {
        const bool user = r[pmclog::Field::usermode] != 0;
        const auto pmcid = static_cast<uint32_t>(r[pmclog::Field::pmcid]);
        count_sample(pid_of(r, pmclog::Field::pid), pmcid, user);
        count_pcsample_cpu(pmcid, user, st);
        break;
      }
      case pmclog::Kind::procexec:
      case pmclog::Kind::pmcallocate:
      case pmclog::Kind::pmcallocatedyn:
      case pmclog::Kind::dropnotify:
        add_rare(r);
        break;
      default:
        break;
    }
  }
  void error(const pmclog::Error& e);
  void skipped(const pmclog::SkippedRange& s);
  // The counts of one file, for printing: every sample counted first (the tally drained).
  StatsView view(const LogState& st);

 private:
  using Split = stats::Split;
  using KindCount = stats::KindCount;
  using Pmc = stats::Pmc;
  using RowKey = stats::RowKey;
  using Row = stats::Row;
  // What the pid is called now: the basename of its last PROCEXEC or PMCATTACH path, else
  // PROC_CREATE's comm or its parent's name at PROCFORK. `row` caches its process row.
  struct Proc {
    std::string name, path;
    std::string first_name, first_path;  // the first name it got
    Split* row = nullptr;
  };

  static std::array<int32_t, 256> filled(int32_t v) {
    std::array<int32_t, 256> a;
    a.fill(v);
    return a;
  }
  void observe_naming(const pmclog::Record& r, const LogState& st);
  // view()'s tables (stats.cpp).
  void process_rows(StatsView& v) const;
  void event_rows(StatsView& v) const;
  void name_pid(int32_t pid, std::string_view name, std::string_view path, bool weak);
  static int32_t pid_of(const pmclog::Record& r, pmclog::Field f) {
    return static_cast<int32_t>(static_cast<uint32_t>(r[f]));
  }
  void add_rare(const pmclog::Record& r);  // PROCEXEC, PMCALLOCATE(DYN), DROPNOTIFY
  Split& row_for(int32_t pid) {
    CachedRow& c = row_cache_[static_cast<uint32_t>(pid) % kRowCache];
    if (c.row && c.pid == pid) [[likely]]
      return *c.row;
    return row_miss(pid, c);
  }
  // n samples' process, pmc and user/kernel split (their cpu apart: count_cpu).
  void count_sample(int32_t pid, uint32_t pmcid, bool user, uint64_t n = 1) {
    if (pid == -1) kernel_pid_.add(user, n);
    else row_for(pid).add(user, n);
    Pmc& pmc = pmc_for(pmcid);
    pmc.samples.add(user, n);
    pmc.listed = true;
  }
  void count_cpu(uint32_t cpu, bool user, uint64_t n = 1) {
    if (cpu >= cpus_.size()) [[unlikely]]
      grow_cpus(cpu);
    cpus_[cpu].add(user, n);
  }
  // A tallied shape of CALLCHAIN samples, into the tables. Out of line: once per run.
  [[gnu::noinline]] void count(const SampleTally::Shape& s);
  void drain_tally() {
    tally_.drain([this](const SampleTally::Shape& s) { count(s); });
  }
  void count_pcsample_cpu(uint32_t pmcid, bool user, const LogState& st);
  void grow_cpus(uint32_t cpu);
  void grow_depths(uint32_t depth);
  // Which of pid, oldpid, newpid the record's layout has (bits 0, 1, 2), looked up once
  // per layout: a search of the layout for each field of each record was a tenth of --stats.
  struct PidFields;
  uint8_t pid_fields(const pmclog::Record& r);
  // A pid a selected record names, for "processes:".
  void note_pid(int32_t pid) {
    int32_t& seen = seen_pids_[static_cast<uint32_t>(pid) % seen_pids_.size()];
    if (pid != -1 && pid != seen) insert_pid(pid, seen);
  }
  void insert_pid(int32_t pid, int32_t& seen);
  // The counters below as rows, in kind order and in depth order.
  std::vector<std::pair<pmclog::Kind, KindCount>> kind_rows() const;
  std::vector<std::pair<uint32_t, uint64_t>> depth_rows() const;

  uint64_t top_;
  // Indexed by kind and by depth rather than kept in maps: they are counted at every record.
  std::array<KindCount, pmclog::kKindCount + 1> kinds_{};
  // Header times: legacy ns after the first record (sign bit flipped, so that unsigned order
  // is their order), modern TSC; meaningful once a record was counted.
  // Totals (records, bytes, samples) are summed at printing from the tables that count
  // every record and sample anyway: fewer counters per record.
  uint64_t t_min_ = UINT64_MAX, t_max_ = 0;
  static constexpr uint64_t kSignBit = uint64_t{1} << 63;
  pmclog::LegacyClock clock_;  // legacy: every record's header, in file order
  int64_t legacy_now_ = 0;     // the last record's time by clock_
  uint64_t legacy_ns(uint64_t t) const {  // a legacy t_min_/t_max_ as ns since the epoch
    return clock_.first_ns() + static_cast<uint64_t>(static_cast<int64_t>(t ^ kSignBit));
  }
  KindCount totals() const;  // over kinds_
  Split samples() const;     // over cpus_ and no_cpu_: every sample is in exactly one
  std::unordered_set<int32_t> pids_;  // pids of selected records, the kernel's -1 left out
  // Pids already in pids_, direct-mapped by their low bits (-1, never inserted: empty).
  std::array<int32_t, 256> seen_pids_ = filled(-1);
  struct PidFields {
    const pmclog::Layout* layout = nullptr;
    uint8_t mask = 0;
  };
  std::array<PidFields, pmclog::kKindCount + 1> pid_fields_{};
  uint8_t pid_fields_miss(const pmclog::Record& r, PidFields& c);
  std::unordered_map<int32_t, Proc> procs_;
  std::map<RowKey, Row> rows_;      // node-based: Proc::row pointers stay valid
  // Recent samples' pids and rows, direct-mapped by the pid's low bits: a hash lookup in
  // procs_ per sample was a tenth of --stats. Cleared whenever a process is renamed.
  static constexpr size_t kRowCache = 256;
  struct CachedRow {
    int32_t pid = -1;
    Split* row = nullptr;
  };
  std::array<CachedRow, kRowCache> row_cache_{};
  [[gnu::noinline]] Split& row_miss(int32_t pid, CachedRow& c);  // the cache's miss: cold
  std::map<std::string, uint64_t> execs_;  // PROCEXEC path -> count
  // The last exec of each pid and the pmcs its PROCEXECs named so far: hwpmc logs one
  // PROCEXEC per pmc attached to the process, which is one exec, not one per pmc.
  struct LastExec {
    std::string path;
    uint64_t entry = 0, dyn = 0;
    std::set<uint32_t> pmcids;
  };
  std::unordered_map<int32_t, LastExec> last_exec_;
  std::map<uint32_t, Pmc> pmcs_;  // node-based: PmcSlot pointers stay valid
  // Recent samples' pmcs, direct-mapped by id: a log samples a pmc per CPU, interleaved, so
  // the one last-used pmc missed at most samples and the map lookup was a sixth of --stats.
  struct PmcSlot {
    uint32_t id = 0;
    Pmc* pmc = nullptr;
  };
  static constexpr size_t kPmcCache = 16;
  // Fibonacci hashing: the ids of one event differ only in their cpu bits, which a fold of
  // shifted copies sent to a few slots.
  static size_t pmc_slot(uint32_t id) { return (id * 0x9E3779B1u) >> 28; }
  std::array<PmcSlot, kPmcCache> pmc_cache_{};
  Pmc& pmc_for(uint32_t id) {
    PmcSlot& c = pmc_cache_[pmc_slot(id)];
    if (c.pmc && c.id == id) [[likely]]
      return *c.pmc;
    return pmc_miss(id, c);
  }
  [[gnu::noinline]] Pmc& pmc_miss(uint32_t id, PmcSlot& c);
  std::vector<Split> cpus_;
  Split no_cpu_;      // samples whose cpu the record does not say (PCSAMPLE of a process pmc)
  Split kernel_pid_;  // samples with pid -1: the kernel, not a process
  std::vector<uint64_t> depth_;  // callchains by frame count
  SampleTally tally_;  // CALLCHAIN samples not yet in the tables above
  uint64_t drops_ = 0;
  std::vector<pmclog::Error> errors_;
  std::vector<pmclog::SkippedRange> skipped_;
};

inline uint8_t Stats::pid_fields(const pmclog::Record& r) {
  PidFields& c = pid_fields_[static_cast<size_t>(r.kind)];
  if (c.layout == r.layout && c.layout) [[likely]]
    return c.mask;
  return pid_fields_miss(r, c);
}

}  // namespace dump
