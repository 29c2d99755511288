// Turning merged perf records into pmclog records, with the process tracking that needs:
// mappings per process (for MAP_OUT at exec and exit), thread names, pending execs, and, in
// counting mode, the per-thread counter values behind PROCCSW/PROCEXIT.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dwarf_unwinder.h"
#include "log_sink.h"
#include "perf_records.h"

namespace record {

struct ConversionConfig {
  uint32_t depth = 64;     // frames kept per callchain after the markers are stripped
  bool counting = false;   // PROCCSW/PROCEXIT instead of CALLCHAIN
  // Kernel-mode samples keep their user frames after the kernel ones (PMC_F_USERCALLCHAIN);
  // without it they keep the kernel frames only, as hwpmc writes them.
  bool user_callchain = false;
  // --call-graph dwarf: user frames come from unwinding each sample's stack copy here.
  bool dwarf = false;
  // Where code can be: user frames below user_end, kernel frames from kernel_start up
  // (x86-64: the canonical halves). 0: not known, not checked.
  uint64_t user_end = 0;
  uint64_t kernel_start = 0;
  // pmc ids that PROCEXEC / PROCEXIT name (one per event, process mode).
  std::vector<uint32_t> process_pmcids;
  // perf event id (PERF_EVENT_IOC_ID) -> pmc id, for samples and counter values.
  std::unordered_map<uint64_t, uint32_t> pmcid_of_id;
  // pmc id -> index of the event (for per-process totals in counting mode).
  std::unordered_map<uint32_t, size_t> event_of_pmcid;
};

struct ConversionStats {
  uint64_t samples = 0;
  uint64_t lost = 0;             // samples the kernel could not store (LOST records)
  uint64_t lost_records = 0;     // DROPNOTIFY records written
  uint64_t throttled = 0;        // THROTTLE records
  uint64_t user_only = 0;        // callchains with no kernel part
  uint64_t switches = 0;         // PROCCSW written
  uint64_t after_exit = 0;       // samples of a process after its exit, left out
  uint64_t cut_chains = 0;       // callchains stopped at an address that cannot be code
  uint64_t at_depth = 0;         // callchains of exactly the depth limit: maybe cut there
  uint64_t unwound = 0;          // --call-graph dwarf: user stacks unwound
  std::array<uint64_t, kUnwindStops> unwind_stops{};  // ... and why each stopped
  std::map<uint32_t, uint64_t> samples_per_pid;
};

class Converter {
 public:
  Converter(LogSink& sink, ConversionConfig cfg);

  void process(const PerfEvent& e);
  // The end of the recording: execs still waiting for their linker are written.
  void finish(uint64_t t);
  // A process that exists already (-p, -a): its threads and executable mappings from /proc.
  void add_existing_process(pid_t pid, uint64_t now, bool announce_threads);
  // The idle task (pid 0), which has no /proc entry but takes the samples of idle CPUs in a
  // system-wide recording: named "swapper", as perf names it.
  void add_idle_task(uint64_t now);
  // The command's child, before it execs: known so its fork/exec/exit are tracked.
  void add_child(pid_t pid, uint64_t now);
  // Counting mode: the command's own PROCEXIT waits for finish_deferred(), because its last
  // slice is only known from its events' final values.
  void set_deferred_pid(uint32_t pid) { deferred_pid_ = pid; }
  // `final_reads`: one group read per CPU leader fd, taken after the command exited.
  void finish_deferred(const std::vector<PerfEvent>& final_reads, uint64_t t);
  // Each process's own counter totals (counting mode), by pid, then event index.
  const std::map<uint32_t, std::vector<uint64_t>>& totals() const { return totals_; }
  // The last name (comm) of a thread or process, "" when never seen.
  std::string name_of(uint32_t tid) const;
  const ConversionStats& stats() const { return stats_; }

 private:
  struct Mapping {
    uint64_t end;
    std::string path;
  };
  // An exec whose PROCEXEC waits for the run-time linker's mapping: FreeBSD logs where the
  // kernel put it, and Linux maps it right after the image.
  struct PendingExec {
    std::string path;       // the image
    uint64_t start = 0, end = 0;  // its executable mapping, announced after the PROCEXEC
    uint64_t bias = 0;      // PIE load bias, 0 for a fixed-address image
    uint64_t entry = 0;     // the image's entry point (0 when not known)
    std::string interp;     // PT_INTERP, the run-time linker ("" for a static program)
  };
  struct Proc {
    std::map<uint64_t, Mapping> maps;  // announced for this pid (MAP_OUT at exec/exit), by start
    std::map<uint64_t, uint64_t> code;  // every executable range known, inherited ones too
    // The range of `code` that last held a frame (a sample's frames mostly fall in one
    // object): a map search per frame was the recorder's top cost. Ranges only grow, so it
    // stays true until `code` is cleared or replaced, which reset it.
    mutable uint64_t hit_start = 0, hit_end = 0;
    std::set<uint32_t> threads;
    bool exec_pending = false;
    bool has_pending_exec = false;
    PendingExec pending_exec;
  };

  void on_sample(const PerfEvent& e);
  void on_mmap(const PerfEvent& e);
  void on_comm(const PerfEvent& e);
  void on_fork(const PerfEvent& e);
  void on_exit(const PerfEvent& e);
  void on_counter_values(const PerfEvent& e, bool at_exit);
  bool may_be_code(const Proc* p, uint64_t pc, bool kernel) const;
  // --call-graph dwarf: the sample's chain with its user part unwound from the stack copy
  // (the kernel's chain holds the kernel part only), in chain_.
  const std::vector<uint64_t>& chain_with_unwound_user(const PerfEvent& e);
  // entryaddr and dynaddr as FreeBSD's kernel fills them (format.md: PROCEXEC).
  void emit_procexec(uint32_t pid, const std::string& path, uint64_t entry, uint64_t dyn,
                     uint64_t t);
  void on_image_mapped(uint32_t pid, const PerfEvent& e);
  // The PROCEXEC of a pending exec (none: nothing), with the run-time linker's load base
  // and entry point when it was mapped; then the image's MAP_IN.
  void finish_exec(uint32_t pid, bool linker, uint64_t linker_base, uint64_t linker_entry,
                   uint64_t t);
  void emit_map_in(uint32_t pid, uint64_t start, uint64_t end, const std::string& path,
                   uint64_t t);
  // The naming records (modern logs only; the name is cut to the kernel's 19 characters).
  void emit_proc_create(uint32_t pid, const std::string& name, uint64_t t);
  void emit_thr_create(uint32_t tid, uint32_t pid, const std::string& name, uint64_t t);
  void unmap_all(uint32_t pid, uint64_t t);
  void process_gone(uint32_t pid, uint64_t t);
  void emit_procexit(uint32_t pid, uint64_t t);
  bool modern() const;

  LogSink& sink_;
  ConversionConfig cfg_;
  std::unique_ptr<DwarfUnwinder> unwinder_;  // with cfg_.dwarf
  std::vector<uint64_t> chain_, unwound_;
  ConversionStats stats_;
  std::unordered_map<uint32_t, Proc> procs_;
  std::unordered_map<uint32_t, std::string> comm_;  // by tid
  std::set<uint32_t> exited_;                       // pids whose SYSEXIT is written
  // counting: last cumulative value per (tid, perf id), that thread's own on that CPU
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> last_value_;
  std::map<uint32_t, std::vector<uint64_t>> totals_;  // by pid
  // Exited inherited threads' final raw values, by (tid, perf id).
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> child_final_raw_;
  uint32_t deferred_pid_ = 0;
  size_t pending_execs_ = 0;  // processes with has_pending_exec
  // counting: PROCEXITs waiting for the exited process's last counter reads, which reach us
  // from other CPUs' rings after its EXIT record; by pid, with the exit time.
  std::map<uint32_t, uint64_t> pending_procexit_;
  void emit_due_procexits(uint64_t now, bool all);
};

}  // namespace record
