#include "replay.h"

#include <algorithm>

#include "pmclog/event_names.h"
#include "pmclog/parts.h"
#include "pmcprofile/kallsyms.h"

namespace pmcprofile {

using pmclog::Field;
using pmclog::Kind;

Replay::Replay(const ReplayTarget& to, pmclog::Abi abi, bool mapped, uint64_t log_bytes,
               const std::function<void(const Sample&)>& sink, InputReport& rep)
    : t_(to.tables), objects_(to.objects), opt_(to.options), abi_(abi), mapped_(mapped), sink_(sink), rep_(rep),
      as_(to.objects, abi.address_width), window_(to.pool), events_(to.tables), names_(to.tables),
      filter_(to.options.filter, to.matches, events_, names_, to.tables, clock_) {
  clock_.legacy = abi.legacy();
  stacks_.reserve_for(log_bytes);
}

void Replay::push(const pmclog::Record& r) {
  ++rep_.records;
  // Legacy headers keep only 28 bits of tv_nsec (format.md §3.2), too few to order by, and
  // legacy kernels write one buffer per owner: file order is their time order. Their
  // times are unwrapped in that order (format.md §3.5); one before the first record is 0.
  const uint64_t key = abi_.legacy() ? 0 : r.header.tsc;
  uint64_t time = r.header.tsc;
  if (abi_.legacy()) {
    const int64_t since = legacy_clock_.since_first(r.header.ts_sec, r.header.ts_nsec);
    time = since < 0 ? 0 : static_cast<uint64_t>(since);
  }
  QueueItem it{key, 0, time, r.offset, r.raw.data(), {}, StackCache::kNoHash, QueueItem::kInline, 0, 0, 0, 0};
  // Multipart chains (format.md §17) are copied: their stack is a part of the slots.
  if (mapped_ && r.kind == Kind::callchain && !pmclog::is_multipart(r)) {
    it.pcs = r.pcs;
    it.pid = static_cast<uint32_t>(r[Field::pid]);
    it.tid = abi_.legacy() ? it.pid : static_cast<uint32_t>(r[Field::tid]);
    it.pmcid = static_cast<uint32_t>(r[Field::pmcid]);
    it.cpuflags = static_cast<uint32_t>(r[Field::cpuflags]);
    const uint32_t n = r.pcs.size();
    if (pcs_.size() < n) pcs_.resize(n);
    r.pcs.copy_to(pcs_);
    it.hash = StackCache::hash(it.pid, opt_.keep_threads ? it.tid : 0,
                               pmclog::Record::cpuflags_user(it.cpuflags), pcs_.data(), n);
  } else {
    it.slot = hold(r);
  }
  if (!kernel_named_) watch_for_kernel_frames(r);
  window_.push(it);
  if (window_.size() > opt_.reorder_window) pop();
}

// A log smaller than the reordering window is replayed only once it has all been read, and a
// kernel frame met then starts /proc/kallsyms's reading too late to overlap anything (it took
// 47 ms of an 80 ms report of 20,000 samples). So the first kernel-mode sample of a log that
// maps the kernel its kallsyms file describes starts it as it is read. The replay still decides whether the
// kernel's symbols are used (AddressSpaces, ObjectTable); this only reads them sooner.
void Replay::watch_for_kernel_frames(const pmclog::Record& r) {
  if (!opt_.locate.kallsyms || !opt_.locate.kernel_file.empty() ||
      opt_.filter.mode == Filter::Mode::user)
    return;
  if (r.kind == Kind::map_in) {
    if (r[Field::pid] == pmclog::kKernelPid && r.text == kRunningKernelObject)
      kallsyms_start_ = r[Field::start];
  } else if (r.kind == Kind::callchain && kallsyms_start_ != 0 &&
             !pmclog::Record::cpuflags_user(static_cast<uint32_t>(r[Field::cpuflags]))) {
    if (kallsyms_describes(opt_.locate.kallsyms_path(), kallsyms_start_)) {
      kernel_named_ = true;
      prefetch_kernel_code_symbols(opt_.locate.kallsyms_path());
    }
    kallsyms_start_ = 0;  // asked once
  }
}

uint32_t Replay::hold(const pmclog::Record& r) {
  const uint32_t slot = window_.take_slot();
  Held& h = window_.held(slot);
  h.kind = r.kind;
  h.v = r.v;
  h.text.assign(r.text.data(), r.text.size());
  if (r.kind == Kind::callchain) {
    if (pmclog::is_multipart(r)) {
      multipart_stack(r, h.pcs);
    } else {
      h.pcs.resize(r.pcs.size());
      r.pcs.copy_to(h.pcs);
    }
  }
  return slot;
}

// A multipart callchain's stack (format.md §17): the CALLCHAIN part's frames, and with
// --ibs the IBS_OP RIP as the leaf (replacing the interrupted PC the chain starts with, or
// alone when there is no CALLCHAIN part). A damaged header gives the parts before the
// damage; no CALLCHAIN part and no --ibs RIP gives no frames.
void Replay::multipart_stack(const pmclog::Record& r, std::vector<uint64_t>& out) const {
  out.clear();
  const pmclog::Parts ps = pmclog::parts(r, abi_);
  if (const pmclog::Part* cc = ps.find(pmclog::PartType::callchain)) {
    out.resize(cc->len);
    ps.slots(*cc).copy_to(out);
  }
  if (!opt_.ibs) return;
  const pmclog::Part* op = ps.find(pmclog::PartType::ibs_op);
  if (!op || ps.values(*op) <= pmclog::kIbsOpRip) return;
  const uint64_t rip = ps.value(*op, pmclog::kIbsOpRip);
  if (out.empty()) out.push_back(rip);
  else out[0] = rip;
}

void Replay::pop() {
  Ahead ahead;
  const QueueItem it = window_.pop(ahead);
  prefetch(ahead);
  clock_.start(it.time);
  offset_ = it.offset;
  if (it.in_view()) {
    const uint32_t n = it.pcs.size();
    if (pcs_.size() < n) pcs_.resize(n);
    it.pcs.copy_to(pcs_);
    sample({it.pid, it.tid, it.pmcid, it.cpuflags >> 16, pmclog::Record::cpuflags_user(it.cpuflags),
            pcs_.data(), n, it.time, it.hash});
  } else {
    apply(window_.held(it.slot), it.time);
    window_.free(it.slot);
  }
}

// The stack cache outgrows the CPU's caches, and a record waits long enough to leave them:
// the records a few pops ahead in this run, their index slots, then their cached stacks
// are asked for early, so that each sample's three dependent loads find them.
void Replay::prefetch(const Ahead& ahead) const {
  if (const QueueItem* a = ahead.far; a != nullptr && a->in_view()) {
    stacks_.prefetch_slot(a->hash);
    for (int k = 0; k < 4; ++k) __builtin_prefetch(a->at + 64 * k);
  }
  if (const QueueItem* b = ahead.near; b != nullptr && b->in_view()) stacks_.prefetch(b->hash, b->pcs.size());
}

void Replay::apply(const Held& h, uint64_t key) {
  if (h.kind != Kind::callchain && h.kind != Kind::pcsample) invalidate();
  const auto pid = static_cast<uint32_t>(h[Field::pid]);
  switch (h.kind) {
    case Kind::initialize:
      clock_.tsc_freq = h[Field::tsc_freq];
      cputype_ = static_cast<uint32_t>(h[Field::arch]);
      cpuid_ = h.text;
      break;
    case Kind::pmcallocate:
      allocate(h);
      break;
    case Kind::pmcallocatedyn: {
      const auto code = static_cast<uint32_t>(h[Field::event]);
      std::string name = h.text.empty() ? hex32(code, "event-") : h.text;
      events_.name_dyn(code, name);
      events_.allocate(static_cast<uint32_t>(h[Field::pmcid]), name, abi_.legacy() ? 0 : h[Field::rate]);
      break;
    }
    case Kind::pmcattach:
      as_.attach(pid, h.text);
      names_.attach(pid, h.text);
      break;
    case Kind::procexec: {
      const bool m10 = abi_.generation == pmclog::Generation::M10;  // dynaddr: 0 before M10
      as_.exec(pid, h.text, h[Field::entryaddr], h[Field::dynaddr], m10);
      names_.exec(pid, h.text);
      break;
    }
    case Kind::map_in:
      as_.map_in(pid, h[Field::start], h.text);
      break;
    case Kind::map_out:
      as_.map_out(pid, h[Field::start], h[Field::end]);
      break;
    case Kind::mappingchange:
      // L1: 1 inserts, 2 deletes (PMCLOG_MAPPINGCHANGE_INSERT/DELETE).
      if (h[Field::maptype] == 1) as_.map_in(pid, h[Field::start], h.text, h[Field::end]);
      else if (h[Field::maptype] == 2) as_.map_out(pid, h[Field::start], h[Field::end]);
      break;
    case Kind::procfork: {
      const auto from = static_cast<uint32_t>(h[Field::oldpid]);
      const auto to = static_cast<uint32_t>(h[Field::newpid]);
      as_.fork(from, to);
      names_.fork(from, to);
      break;
    }
    case Kind::sysexit:
      as_.exit(pid);
      break;
    case Kind::proc_create:
      names_.create(pid, h.text);
      break;
    case Kind::thr_create:
      names_.thread_create(static_cast<uint32_t>(h[Field::tid]), h.text);
      break;
    case Kind::thr_exit:
      names_.thread_exit(static_cast<uint32_t>(h[Field::tid]));
      break;
    case Kind::callchain:
      sample({pid, abi_.legacy() ? pid : static_cast<uint32_t>(h[Field::tid]),
              static_cast<uint32_t>(h[Field::pmcid]), static_cast<uint32_t>(h[Field::cpuflags] >> 16),
              pmclog::Record::cpuflags_user(h[Field::cpuflags]), h.pcs.data(), h.pcs.size(), key,
              StackCache::kNoHash});
      break;
    case Kind::pcsample: {
      const uint64_t pc = h[Field::pc];
      sample({pid, pid, static_cast<uint32_t>(h[Field::pmcid]), 0, h[Field::usermode] != 0, &pc, 1, key,
              StackCache::kNoHash});
      break;
    }
    default:
      break;
  }
}

// PMCALLOCATE: the event named as every tool names it; a note the first time a name needs one.
void Replay::allocate(const Held& h) {
  const auto code = static_cast<uint32_t>(h[Field::event]);
  const pmclog::AllocationEvent e = pmclog::allocation_event(
      code, static_cast<uint32_t>(h[Field::flags]),
      {abi_.generation, cputype_, cpuid_, &events_.dyn(), opt_.pmu_events, opt_.pmu_events_missing});
  if (!e.note.empty() && std::find(rep_.notes.begin(), rep_.notes.end(), e.note) == rep_.notes.end())
    rep_.notes.push_back(e.note);
  events_.allocate(static_cast<uint32_t>(h[Field::pmcid]),
                   !e.name.empty() ? std::string(e.name) : !e.label.empty() ? e.label : hex32(code, "event-"),
                   abi_.legacy() ? 0 : h[Field::rate]);
}

// Address spaces or names changed: resolved stacks and command ids may be stale.
void Replay::invalidate() {
  stacks_.invalidate();
  frame_cache_.forget();
  names_.forget_ids();
  filter_.forget();
}

}  // namespace pmcprofile
