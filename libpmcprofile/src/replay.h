// Replays one log: records in time order into the address spaces and names, samples out.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "depth_limit.h"
#include "event_names.h"
#include "frame_cache.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/pmclog.h"
#include "pmcprofile/session.h"
#include "process_names.h"
#include "reorder_window.h"
#include "replay_clock.h"
#include "sample_filter.h"
#include "stack_cache.h"

namespace pmcprofile {

// What a Session lends the replay of each of its logs.
struct ReplayTarget {
  Tables& tables;
  ObjectTable& objects;
  const Options& options;
  FilterMatches& matches;
  std::vector<Held>& pool;  // the window's copies, kept from one log to the next
};

class Replay {
 public:
  // mapped: the records pushed are views into a mapping of the whole log, valid as long as it.
  // log_bytes: the log's size when known (0 otherwise), which bounds what the stack cache
  // reserves.
  Replay(const ReplayTarget& to, pmclog::Abi abi, bool mapped, uint64_t log_bytes,
         const std::function<void(const Sample&)>& sink, InputReport& rep);

  void push(const pmclog::Record& r);
  void drain() {
    while (window_.size() > 0) pop();
  }
  // The file offset of the oldest record still waiting as a view, or `now` (a mapped log's
  // pages before it may go).
  uint64_t oldest_offset(uint64_t now) const { return window_.oldest_offset(now); }
  // After drain(): the depth limit the log's stacks seem cut at, if any.
  std::optional<DepthLimit> depth_limit() const { return depths_.likely_limit(); }

 private:
  uint32_t hold(const pmclog::Record& r);
  void watch_for_kernel_frames(const pmclog::Record& r);
  void pop();
  void prefetch(const Ahead& ahead) const;
  void apply(const Held& h, uint64_t key);
  void allocate(const Held& h);
  void multipart_stack(const pmclog::Record& r, std::vector<uint64_t>& out) const;
  void invalidate();
  void sample(RawSample s);
  bool resolve(const RawSample& s, const StackKey& k, CachedStack& out);
  void deliver(Sample& out, const CachedStack& stack);

  Tables& t_;
  ObjectTable& objects_;  // whose kernel object is /proc/kallsyms
  const Options& opt_;
  const pmclog::Abi abi_;
  const bool mapped_;
  const std::function<void(const Sample&)>& sink_;
  InputReport& rep_;
  AddressSpaces as_;
  ReorderWindow window_;
  ReplayClock clock_;
  pmclog::LegacyClock legacy_clock_;  // legacy logs: every record's header, in file order
  EventNames events_;
  ProcessNames names_;
  SampleFilter filter_;
  StackCache stacks_;
  FrameCache frame_cache_;
  DepthCounts depths_;  // every sample's, before the filters: the limit is the recording's
  uint32_t cputype_ = 0;
  std::string cpuid_;  // INITIALIZE's, which chooses the pmu-events table
  uint64_t offset_ = 0;  // the record being replayed
  std::vector<uint64_t> pcs_;  // the frames of the callchain being replayed
  std::vector<FrameId> frames_;  // a stack being resolved
  std::vector<uint64_t> addresses_;  // the run-time address of each of frames_
  bool kernel_named_ = false;  // a kernel frame in /proc/kallsyms's object was met
  uint64_t kallsyms_start_ = 0;  // where a pushed MAP_IN put "[kernel.kallsyms]"
};

}  // namespace pmcprofile
