// The sample path of a replay: the filter, the stack cache, frames resolved on a miss.
#include "replay.h"

#include "pmcprofile/kallsyms.h"

namespace pmcprofile {

void Replay::sample(RawSample s) {
  ++rep_.samples;
  depths_.see(s.n);
  const EventPick ev = filter_.event(s.pmcid);
  filter_.see(s);
  if (!ev.selected || !filter_.selects_place(s)) return;
  const double t = clock_.seconds(s.key);
  if (!filter_.selects_time(t)) return;
  const CommandPick cmd = filter_.command(s.pid);
  if (!cmd.selected) return;
  if (s.n == 0) {
    ++rep_.empty;
    return;
  }
  Sample out;
  out.event = ev.event;
  out.comm = cmd.comm;
  out.pid = s.pid;
  out.tid = s.tid;
  out.thread = names_.thread_id(s.tid);
  out.cpu = s.cpu;
  out.time = t;
  out.user_mode = s.user;
  out.offset = offset_;
  // A cached stack stands for one profile node: per thread when profiles keep threads.
  const StackKey k{s.pid, opt_.keep_threads ? s.tid : 0, ev.event, cmd.comm, s.user};
  if (s.hash == StackCache::kNoHash) s.hash = StackCache::hash(s.pid, k.tid, s.user, s.pcs, s.n);
  if (stacks_.full()) invalidate();
  CachedStack stack;
  if (stacks_.find(s.hash, k, s.pcs, s.n, stack) || resolve(s, k, stack)) deliver(out, stack);
}

// A stack not cached: each frame resolved, then cached. False when no frame is left.
bool Replay::resolve(const RawSample& s, const StackKey& k, CachedStack& out) {
  frames_.clear();
  addresses_.clear();
  for (size_t i = 0; i < s.n; ++i) {
    const uint64_t a = s.pcs[i];
    // Kernel-mode records may hold kernel frames then user frames (PMC_F_USERCALLCHAIN):
    // each frame goes where its address lies.
    const bool kernel = !s.user && as_.is_kernel_address(a);
    if (opt_.filter.mode == Filter::Mode::kernel && !kernel) continue;
    const bool caller = i > 0;
    FrameId id = frame_cache_.find(s.pid, a, kernel, caller);
    if (id == FrameCache::kMiss) {
      Frame fr;
      fr.where = kernel ? as_.resolve_kernel(a) : as_.resolve_user(s.pid, a);
      if (kernel && !kernel_named_ && fr.where.object != kNoObject &&
          objects_.info(fr.where.object).kallsyms) {
        kernel_named_ = true;  // kallsyms will be wanted: its reading overlaps the replay
        prefetch_kernel_code_symbols(opt_.locate.kallsyms_path());
      }
      fr.caller = caller;
      id = t_.frame(fr);
      frame_cache_.put(s.pid, a, kernel, caller, id);
    }
    frames_.push_back(id);
    addresses_.push_back(a);
  }
  if (frames_.empty()) {
    ++rep_.empty;
    return false;
  }
  out.id = stacks_.add(k, s.pcs, s.n, frames_, addresses_);
  out.frames = frames_;
  out.addresses = addresses_;
  return true;
}

void Replay::deliver(Sample& out, const CachedStack& stack) {
  ++rep_.kept;
  out.stack_id = stack.id;
  out.stack_epoch = stacks_.epoch();
  out.frames = stack.frames;
  out.addresses = stack.addresses;
  sink_(out);
}

}  // namespace pmcprofile
