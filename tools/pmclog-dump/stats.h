// --stats: a summary of the selected records: counts and bytes per type, time span, samples
// per process, command, event and CPU (top N, each with its user/kernel split), execs
// grouped by path, pmcs, callchain depths, drops, errors.
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
#include "output.h"
#include "pmclog/error.h"
#include "pmclog/kind.h"
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
    switch (r.kind) {
      case pmclog::Kind::procexec:
      case pmclog::Kind::pmcattach:
      case pmclog::Kind::proc_create:
      case pmclog::Kind::procfork:
      case pmclog::Kind::pmcallocate:
      case pmclog::Kind::pmcallocatedyn:
        observe_naming(r, st);
        break;
      default:
        break;
    }
  }
  // The selected records, which are what is counted.
  void add(const pmclog::Record& r, const LogState& st);
  void error(const pmclog::Error& e);
  void skipped(const pmclog::SkippedRange& s);
  // Prints the summary of one file.
  void print_text(const LogState& st, Output& out);
  void print_json(const LogState& st, Output& out);

  // Samples with the callchain's user bit set (format.md §9.1; PCSAMPLE's usermode) or not.
  struct Split {
    uint64_t user = 0, kernel = 0;
    uint64_t total() const { return user + kernel; }
    void add(bool is_user) { ++(is_user ? user : kernel); }
    void add(const Split& o) {
      user += o.user;
      kernel += o.kernel;
    }
  };

 private:
  struct KindCount {
    uint64_t records = 0, bytes = 0;
  };
  struct Pmc {
    uint32_t event = 0;
    uint32_t flags = 0;
    std::string name;
    bool named = false;
    bool allocated = false;  // a PMCALLOCATE/PMCALLOCATEDYN for it was seen
    bool listed = false;     // a selected record named it
    Split samples;
  };
  // What the pid is called now: the basename of its last PROCEXEC or PMCATTACH path, else
  // PROC_CREATE's comm or its parent's name at PROCFORK. `row` caches its process row.
  struct Proc {
    std::string name, path;
    std::string first_name, first_path;  // the first name it got
    Split* row = nullptr;
  };
  // One row per (pid, command at the time of the sample), as perf's --sort comm,pid: a pid
  // that execs another program gets a second row.
  using RowKey = std::pair<int32_t, std::string>;
  struct Row {
    std::string path;  // the full path the name came from, if any
    Split samples;
  };

  static std::array<int32_t, 256> filled(int32_t v) {
    std::array<int32_t, 256> a;
    a.fill(v);
    return a;
  }
  void observe_naming(const pmclog::Record& r, const LogState& st);
  struct Tables;  // the summary's rows, built for printing (stats.cpp)
  Tables tables() const;
  void name_pid(int32_t pid, std::string_view name, std::string_view path, bool weak);
  Split& row_for(int32_t pid);
  void count_sample(const pmclog::Record& r, int32_t pid, uint32_t pmcid, bool user,
                    const LogState& st);
  // Which of pid, oldpid, newpid the record's layout has (bits 0, 1, 2), looked up once
  // per layout: a search of the layout for each field of each record was a tenth of --stats.
  uint8_t pid_fields(const pmclog::Record& r);
  // The counters below as rows, in kind order and in depth order.
  std::vector<std::pair<pmclog::Kind, KindCount>> kind_rows() const;
  std::vector<std::pair<uint32_t, uint64_t>> depth_rows() const;

  uint64_t top_;
  // Indexed by kind and by depth rather than kept in maps: they are counted at every record.
  std::array<KindCount, pmclog::kKindCount + 1> kinds_{};
  uint64_t records_ = 0, bytes_ = 0;
  bool have_time_ = false;
  uint64_t t_min_ = 0, t_max_ = 0;  // legacy: sec*1e9+nsec; modern: TSC
  std::unordered_set<int32_t> pids_;  // pids of selected records, the kernel's -1 left out
  // Pids already in pids_, direct-mapped by their low bits (-1, never inserted: empty).
  std::array<int32_t, 256> seen_pids_ = filled(-1);
  struct PidFields {
    const pmclog::Layout* layout = nullptr;
    uint8_t mask = 0;
  };
  std::array<PidFields, pmclog::kKindCount + 1> pid_fields_{};
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
  std::map<std::string, uint64_t> execs_;  // PROCEXEC path -> count
  std::map<uint32_t, Pmc> pmcs_;
  uint32_t last_pmcid_ = 0;
  Pmc* last_pmc_ = nullptr;
  std::vector<Split> cpus_;
  Split no_cpu_;      // samples whose cpu the record does not say (PCSAMPLE of a process pmc)
  Split kernel_pid_;  // samples with pid -1: the kernel, not a process
  Split samples_;
  std::vector<uint64_t> depth_;  // callchains by frame count
  uint64_t drops_ = 0;
  std::vector<pmclog::Error> errors_;
  std::vector<pmclog::SkippedRange> skipped_;
};

}  // namespace dump
