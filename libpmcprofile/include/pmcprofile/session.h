// Opening logs and turning them into resolved samples or aggregated profiles: the entry
// point of the profile library.
//
//   pmcprofile::Options opt;                 // where objects are, filters, ...
//   pmcprofile::Session s(opt);
//   s.add_log("a.pmclog");                   // replay, resolve, aggregate (merged profile)
//   s.add_log("b.pmclog.zst");
//   s.symbolize();                           // each distinct (object, address) once
//   const pmcprofile::Profile& p = s.profiles()[0];
//
// or, for every sample in time order with its frames resolved:
//
//   s.for_each_sample("a.pmclog", [&](const pmcprofile::Sample& smp) { ... });
//
// Records of a modern log are replayed in header TSC order, through a bounded reordering
// window, because modern kernels write one buffer per CPU and a sample may be written
// before the MAP_IN it depends on. Legacy logs are replayed in file order: their headers
// keep too few bits of time to sort by.
//
// Memory: the Session owns its profiles, tables, object table and symbolizer; references
// from profiles(), tables() and symbol() stay valid until the next add_log(),
// for_each_sample() or symbolize(). A Sample's frames live during the callback only.
// Threads: a Session is used by one thread at a time (the symbolizer caches what it opened);
// independent Sessions may run in parallel. Errors: a log that cannot be opened or is
// damaged is reported in its InputReport (`opened`, `error` with the byte offset), never
// thrown; what was read before the damage stays in the profile.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pmclog/detect.h"
#include "pmclog/pmu_events.h"
#include "pmcprofile/address_space.h"
#include "pmcprofile/objects.h"
#include "pmcprofile/profile.h"
#include "pmcprofile/symbolizer.h"
#include "pmcprofile/views.h"

namespace pmcprofile {

struct Filter {
  std::vector<uint32_t> pids, tids, cpus;  // empty: all
  std::vector<std::string> comms, events;  // event names (or pmc ids as 0x... text)
  enum class Mode : uint8_t { all, user, kernel } mode = Mode::all;
  std::optional<double> from, to;  // seconds from the log's first record
};

// What each part of a Filter met in the samples of the logs read so far, whatever the other
// parts: a part that met nothing is likely a typo, worth a warning. Each list is beside the
// Filter's own (events[i] for Filter::events[i]).
struct FilterMatches {
  std::vector<bool> events, comms, pids, tids, cpus;
  bool user = false, kernel = false;  // a sample taken in that mode
  bool from = false, to = false;      // a sample at or after Filter::from, before Filter::to
  uint64_t samples = 0;               // samples the filter was applied to
};

struct Options {
  pmclog::AbiHint hint;  // what detection cannot settle (--generation, --address-width, ...)
  LocateOptions locate;
  SymbolOptions symbols;
  Filter filter;
  bool keep_going = false;  // skip damaged records instead of stopping at the first
  // Multipart (AMD IBS) callchains (format.md §17): the IBS_OP part's RIP is the sample's
  // address (its leaf frame, in place of the CALLCHAIN part's first frame). Off, only the
  // CALLCHAIN part is the stack.
  bool ibs = false;
  bool by_file = false;     // one profile per input instead of one merged profile
  // Profiles keep the thread (tid and name) of each stack, for views grouped by thread.
  // Off, threads of a process share their stacks: fewer nodes.
  bool keep_threads = false;
  // Stacks per CPU, and per input in the merged profile (labels of pprof samples).
  bool keep_cpus = false;
  bool keep_inputs = false;
  // Records held back to put a modern log's per-CPU buffers in time order. A record written
  // more than this many records after a later one is replayed out of order.
  size_t reorder_window = 1u << 16;
  // Distinct stacks at most, counted as stack-table nodes (Profile::nodes, over every
  // profile of the Session: each distinct call path from a context's root, so a stack costs
  // one per frame it shares with no other, as memory does). The sample that would pass it
  // stops the log with InputReport::stack_cap. 0: no cap.
  size_t max_stacks = 0;
  // The recording system's pmu-events tables (read_pmu_events()), which name the events of
  // PMCALLOCATEs flagged EV_PMU; without them such an event is "pmu-event-0x6a", and
  // InputReport::notes says what the number is. pmu_events_missing: why they are not here.
  const pmclog::PmuEvents* pmu_events = nullptr;
  std::string pmu_events_missing;
  // Called now and then while a log is read: bytes done and (0 if unknown) in all.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// One sample, resolved: frames leaf first (index into Tables::frames).
struct Sample {
  uint32_t event = 0;  // Tables::events
  uint32_t comm = 0;   // Tables::comms
  uint32_t pid = 0, tid = 0, cpu = 0;
  uint32_t thread = 0;  // Tables::threads: the name THR_CREATE gave the tid ("" if none)
  double time = 0;     // seconds from the log's first record
  bool user_mode = false;
  std::span<const FrameId> frames;
  // The address of each frame as the log holds it (run-time, in the process), beside frames.
  std::span<const uint64_t> addresses;
  // The same (stack_epoch, stack_id) means the same context and frames: consumers may cache
  // per distinct stack. Ids restart with every epoch (mappings or names changed).
  static constexpr uint32_t kNoStack = 0xFFFFFFFFu;
  uint32_t stack_id = kNoStack;
  uint64_t stack_epoch = 0;
  uint64_t offset = 0;  // the byte offset of the sample's record (decompressed bytes)
};

// A sample with the names of its frames, for outputs that print samples one by one while
// the logs are read (perf-script): they need names before the whole log is read.
struct NamedSample {
  const Sample& sample;
  std::span<const Symbolized* const> by_frame;  // by FrameId, set for every frame of the sample
  ProfileView view;  // the tables and objects as they are at this sample
  // The names of sample.frames[k], each distinct frame's made once.
  const Symbolized& name(size_t k) const { return *by_frame[sample.frames[k]]; }
};

struct InputReport {
  std::string name;
  bool opened = false;
  // The input itself could not be read (missing, a folder, no permission, a closed standard
  // input), as opposed to bytes that are not a log.
  bool unreadable = false;
  std::string abi;           // "M10, 64-bit addresses, little-endian"
  std::string compression;   // "none", "gzip", ...
  uint64_t records = 0;
  uint64_t samples = 0;      // in the log
  uint64_t kept = 0;         // after the filters
  uint64_t empty = 0;        // samples without frames
  uint64_t skipped_bytes = 0;  // --keep-going: damaged bytes stepped over
  uint64_t damaged = 0;        // errors met (the first stops the log unless keep_going)
  std::string error;         // the first error ("" when the whole log was good)
  std::vector<std::string> notes;  // what the reader should know: an unnamed pmu-events index
  // Samples whose stacks look cut at a depth limit (a pile-up at the deepest size, when that
  // is a usual limit: notes says so too), and that limit; 0 and 0 when none was found.
  uint64_t cut_samples = 0;
  uint32_t cut_depth = 0;
  bool empty_input = false;  // no byte at all: no log (error says so)
  // Options::max_stacks was reached (error names the cap and the record's offset): the
  // profile holds only part of the log, and the Session should not be reported on (a log
  // added after it stops at its first new stack).
  bool stack_cap = false;
};

class Session {
 public:
  explicit Session(Options opt);
  ~Session();

  // Reads one log ("-" is standard input; every compression open_log reads) into the
  // merged profile, or into its own with by_file; each sample added is also handed to
  // `also` (when given), in time order, for views that print samples one by one.
  InputReport add_log(const std::string& name, const std::function<void(const Sample&)>& also = {});
  // As add_log, with each sample added handed to `named` with its frames' names.
  InputReport add_log_named(const std::string& name,
                            const std::function<void(const NamedSample&)>& named);
  // Reads one log and calls f for every kept sample, in time order (frames are already
  // resolved to objects; call symbolize() or symbol() for names).
  InputReport for_each_sample(const std::string& name, const std::function<void(const Sample&)>& f);

  // Takes in a Session with the same Options that read later inputs (on another thread):
  // afterwards this Session holds what reading all of them here, in order, would have held,
  // with the same ids, so that outputs do not depend on how the reading was shared out.
  // Call before symbolize(); `later` is of no use afterwards.
  void absorb(Session&& later);
  // The stack-table nodes of every profile (what Options::max_stacks caps).
  size_t stack_nodes() const { return stacks_; }
  // The logs added next go into a new merged profile (the first is made by the constructor):
  // the two sides of a comparison, whose ids stay one Session's. Not with by_file, where
  // every log has a profile of its own already.
  void begin_profile();

  // Symbolizes every frame seen so far (each distinct one once).
  void symbolize();
  // Looks up, ahead of symbolize(), the frames seen since the last call whose object file
  // is found (not /proc/kallsyms, whose use a later input can still rule out): answers that
  // depend on the file alone, which symbolize() then takes from the symbolizer's cache. The
  // -j merge calls it between inputs, so that the lookups overlap the reading; the report
  // calls it before symbolize(), so that they overlap /proc/kallsyms's reading.
  void look_up_symbols_ahead();
  const Symbolized& symbol(FrameId f);

  const std::vector<Profile>& profiles() const { return profiles_; }
  // What outputs read; call symbolize() first.
  ProfileView view() const { return {profiles_, tables_, objects_}; }
  Tables& tables() { return tables_; }
  const Tables& tables() const { return tables_; }
  ObjectTable& objects() { return objects_; }
  Symbolizer& symbolizer() { return symbolizer_; }
  const Options& options() const { return opt_; }
  // The events the filter selects that no log had (a likely typo).
  std::vector<std::string> unmatched_events() const;
  // What every part of the filter met so far (unmatched_events() is its events part).
  const FilterMatches& filter_matches() const { return matches_; }

 private:
  InputReport read(const std::string& name, const std::function<void(const Sample&)>& f);
  Options opt_;
  ObjectTable objects_;
  Symbolizer symbolizer_;
  Tables tables_;
  std::vector<Profile> profiles_;
  FilterMatches matches_;
  struct Pool;  // the reordering window's records, kept from one log to the next
  std::unique_ptr<Pool> pool_;
  // add_log_named's name of each frame met (symbol()'s results stay where they are).
  std::vector<const Symbolized*> frame_names_;
  size_t stacks_ = 0;                  // stack-table nodes so far (Options::max_stacks)
  size_t looked_up_ = 0;               // frames before it: look_up_symbols_ahead() saw them
  std::optional<uint64_t> capped_at_;  // the offset of the sample that hit max_stacks
};

}  // namespace pmcprofile
