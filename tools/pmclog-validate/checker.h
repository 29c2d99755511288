// The per-file checker state for the rules that look at decoded records: contents and
// structure. Framing and type rules live in scan.cpp, which feeds this class. One pass, O(1)
// amortized work per record; memory is a state entry per pid and per pmc id, never a copy
// of the log.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>

#include "config.h"
#include "diagnostics.h"
#include "flat_map.h"
#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace pmclog::validate {

class Checker {
 public:
  Checker(const Abi& abi, const Config& cfg, DiagnosticSink& sink);

  // A record that decoded; `index` is its 0-based position in the file.
  void record(const Record& r, uint64_t index);
  // A record position that did not decode (so the first record is not "the first decoded").
  void damaged() { seen_any_ = true; }
  // End of the log at byte `end`; `records` positions were seen. `tail_damaged`: the log ends
  // in a truncated record or garbage (then a missing CLOSELOG is not reported again).
  void finish(uint64_t end, uint64_t records, bool tail_damaged);

 private:
  // Where a layout has words to check for zeros (format.md §5, §8).
  struct ZeroWords {
    uint8_t npad = 0, nunwritten = 0;
    std::array<uint16_t, 4> pad{}, unwritten{};
    uint16_t path_offset = 0;  // 0: no path field
    // Bytes of address slots the writer left unfilled before the path's end (narrow
    // addresses, Abi::narrow()): the kernel's length counts them after the NUL.
    uint16_t path_unfilled = 0;
    uint16_t pageshift_pad = 0;  // 0, or the pad whose first byte is pl_pageshift (format.md §16)
    // Whether check_zero_words has anything to look at for the kind: most records (L3
    // CALLCHAIN among them) have no pad, no unwritten word and no path, and the call for
    // nothing was a tenth of the validator's time.
    bool any = false;
  };

  void report(Rule rule, uint64_t offset, uint64_t index, std::string message);
  void check_zero_words(const Record& r, uint64_t index);
  void check_legacy_time(const Record& r, uint64_t index);
  [[gnu::noinline]] void check_legacy_time_slow(const Record& r, uint64_t index);
  void check_pmcid_cpu(const Record& r, uint64_t index);
  void sample(uint32_t pid, uint32_t pmcid, const Record& r, uint64_t index);
  void allocate(uint32_t pmcid, const Record& r, uint64_t index);
  void check_event_name(const Record& r, uint64_t index);
  void process_exited(uint32_t pid, uint64_t offset);
  void process_alive(uint32_t pid);
  void initialize(const Record& r, uint64_t index);
  void callchain(const Record& r, uint64_t index);
  void multipart(const Record& r, uint64_t index);

  Abi abi_;
  const Config& cfg_;
  DiagnosticSink& sink_;
  std::array<ZeroWords, 22> zero_words_{};  // indexed by Kind
  bool check_zeros_ = false;

  bool seen_any_ = false;
  bool seen_initialize_ = false;
  bool seen_closelog_ = false;
  bool reported_after_close_ = false;
  bool have_time_ = false;
  uint32_t prev_sec_ = 0, prev_nsec_ = 0;
  // For event names (format.md §12.1): the INITIALIZE cputype, and the names the log gives soft events in
  // PMCALLOCATEDYN.
  static constexpr uint32_t kNoCputype = 0xFFFFFFFFu;  // before INITIALIZE: no enum value
  uint32_t cputype_ = kNoCputype;
  std::map<uint32_t, std::string> soft_names_;
  std::string cpuid_;  // INITIALIZE's: chooses the pmu-events table

  struct PmcState {
    bool allocated = false;
    bool pending = false;  // used by a sample before any allocation
    uint64_t first_use = 0, first_use_index = 0;
  };
  FlatMap32<PmcState> pmcs_;
  // Direct-mapped cache of allocated pmc ids (id + 1; 0 = empty) for the sample path: a log
  // has a handful of PMCs, so samples rarely reach the hash map.
  std::array<uint64_t, 16> allocated_cache_{};
  // Fibonacci hashing: the ids of one event differ only in their cpu bits, which a fold of
  // shifted copies sent to a few slots (most samples missed the cache).
  static size_t cache_slot(uint32_t id) { return (id * 0x9E3779B1u) >> 28; }

  // Kept small: every sample looks its pid up here once a process has exited.
  struct PidState {
    bool exited = false;
    bool reported = false;  // sample-after-exit already said for this exit
    uint64_t exit_offset = 0;
  };
  FlatMap32<PidState> pids_;
  // Pids (+ 1; 0 = empty) whose next sample has nothing to report (not exited, or exited and
  // reported), direct-mapped: once any process has exited, every sample looked its pid up
  // in pids_, a sixth of the validator's time. process_exited() evicts the pid.
  std::array<uint64_t, 64> quiet_pids_{};
  static size_t pid_slot(uint32_t pid) { return (pid ^ (pid >> 6)) & 63u; }
  FlatMap32<std::unordered_set<uint64_t>> maps_;  // per pid: MAP_IN starts not yet unmapped
  uint64_t exited_count_ = 0;  // pids currently marked exited: 0 skips the per-sample lookup
};

}  // namespace pmclog::validate
