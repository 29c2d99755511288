#include "pmcprofile/session.h"

#include "pmclog/parts.h"

#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "pmclog/event_names.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/open.h"
#include "pmclog/pmclog.h"

namespace pmcprofile {
namespace {

using pmclog::Field;
using pmclog::Kind;

using pmclog::kKernelPid;

std::string base_name(std::string_view p) {
  const size_t s = p.rfind('/');
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

std::string hex32(uint64_t v, const char* prefix = "") {
  char b[48];
  std::snprintf(b, sizeof b, "%s0x%llx", prefix, static_cast<unsigned long long>(v));
  return b;
}

// A record held in the reordering window as a copy (stream readers reuse their buffer).
struct Held {
  Kind kind = Kind::unknown;
  std::array<uint64_t, pmclog::kScalarSlots> v{};
  std::string text;
  std::vector<uint64_t> pcs;
  uint64_t operator[](Field f) const { return v[static_cast<size_t>(f)]; }
};

// A record waiting in the reordering window. Most records are callchains: in a mapped log
// one waits as the few fields a sample needs and a view of its frames in the mapping (no
// copy); any other record waits as a copy in the pool (slot).
struct QueueItem {
  static constexpr uint32_t kInline = 0xFFFFFFFFu;
  uint64_t key, seq;
  uint64_t time;  // for --from/--to: the TSC, or legacy ns after the first record
  uint64_t offset;  // the record's, for a message about its sample (Sample::offset)
  const uint8_t* at;  // the record in a mapped log (pages behind the oldest one can go)
  pmclog::AddrView pcs;  // kInline: the frames, in the mapping
  uint64_t hash;  // kInline: stack_hash(), while the record is in the cache
  uint32_t slot;
  uint32_t pid, tid, pmcid, cpuflags;  // kInline: the callchain's fields (tid: pid in legacy logs)
  bool before(const QueueItem& o) const { return key != o.key ? key < o.key : seq < o.seq; }
};

std::atomic<uint64_t> g_epochs{0};

}  // namespace

struct Session::Pool {
  std::vector<Held> held;
};

namespace {

// Replays one log: records in time order into the address spaces, samples out.
class Replay {
 public:
  Replay(Tables& t, ObjectTable& objects, const Options& opt, pmclog::Abi abi,
         FilterMatches& matched, const std::function<void(const Sample&)>& sink,
         InputReport& rep, std::vector<Held>& held, bool mapped)
      : t_(t), opt_(opt), abi_(abi), as_(objects, abi.address_width), matched_(matched),
        sink_(sink), rep_(rep), mapped_(mapped), held_(held) {
    for (uint32_t p : opt.filter.pids) pids_.push_back(p);
    const Filter& f = opt.filter;
    track_ = !f.pids.empty() || !f.tids.empty() || !f.cpus.empty() || !f.comms.empty() ||
             f.mode != Filter::Mode::all || f.from || f.to;
    for (uint32_t i = static_cast<uint32_t>(held_.size()); i-- > 0;) free_.push_back(i);
  }

  // `r` is a view into the mapping when the log is mapped (valid as long as the mapping).
  void push(const pmclog::Record& r) {
    ++rep_.records;
    // Legacy headers keep only 28 bits of tv_nsec (format.md §3.2), too few to order by, and
    // legacy kernels write one buffer per owner: file order is their time order. Their
    // times are unwrapped in that order (format.md §3.5); one before the first record is 0.
    const uint64_t key = abi_.legacy() ? 0 : r.header.tsc;
    uint64_t time = r.header.tsc;
    if (abi_.legacy()) {
      const int64_t since = clock_.since_first(r.header.ts_sec, r.header.ts_nsec);
      time = since < 0 ? 0 : static_cast<uint64_t>(since);
    }
    QueueItem it{key, seq_++, time, r.offset, r.raw.data(), {}, 0, QueueItem::kInline, 0, 0, 0, 0};
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
      it.hash = stack_hash(it.pid, it.tid, pmclog::Record::cpuflags_user(it.cpuflags), pcs_.data(), n);
    } else {
      it.slot = hold(r);
    }
    enqueue(it);
    if (mapped_) {
      if (released_ == nullptr) {
        released_ = page_up(r.raw.data());
        next_release_ = released_ + kReleaseStep;
      }
      if (r.raw.data() >= next_release_) release_behind(r.raw.data());
    }
    if (queued_ > opt_.reorder_window) pop();
  }

  void drain() {
    while (queued_ > 0) pop();
  }

 private:
  uint32_t take_slot() {
    if (!free_.empty()) {
      const uint32_t slot = free_.back();
      free_.pop_back();
      return slot;
    }
    held_.emplace_back();
    return static_cast<uint32_t>(held_.size() - 1);
  }

  uint32_t hold(const pmclog::Record& r) {
    const uint32_t slot = take_slot();
    Held& h = held_[slot];
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

  // The window: runs of records in file order whose keys never go down (a modern log's
  // per-CPU buffers make a few), so that the earliest record is the earliest run front, and
  // a heap for what fits no run when there are too many. The earliest (key, file order) of
  // all comes out first, as from one heap over everything, at a fraction of the cost.
  struct Run {
    std::vector<QueueItem> items;
    size_t head = 0;
    const QueueItem& front() const { return items[head]; }
  };
  static constexpr size_t kMaxRuns = 16;

  void enqueue(QueueItem it) {
    ++queued_;
    // Best fit: the run whose last key is the latest not after this one's.
    Run* best = nullptr;
    for (Run& run : runs_)
      if (run.items.back().key <= it.key && (best == nullptr || run.items.back().key > best->items.back().key))
        best = &run;
    if (best == nullptr) {
      if (runs_.size() >= kMaxRuns) {
        to_heap(it);
        return;
      }
      runs_.emplace_back();
      best = &runs_.back();
      if (!spare_.empty()) {
        best->items = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    best->items.push_back(it);
  }

  // Heap items are copies, so that no old page has to stay for them.
  void to_heap(QueueItem it) {
    if (it.slot == QueueItem::kInline) {
      it.slot = take_slot();
      Held& h = held_[it.slot];
      h.kind = Kind::callchain;
      h.v = {};  // a reused slot: nothing of its last record stays
      h.v[static_cast<size_t>(Field::pid)] = it.pid;
      h.v[static_cast<size_t>(Field::tid)] = it.tid;
      h.v[static_cast<size_t>(Field::pmcid)] = it.pmcid;
      h.v[static_cast<size_t>(Field::cpuflags)] = it.cpuflags;
      h.text.clear();
      h.pcs.resize(it.pcs.size());
      it.pcs.copy_to(h.pcs);
    }
    heap_.push_back(it);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  static bool later(const QueueItem& a, const QueueItem& b) { return b.before(a); }

  void pop() {
    size_t best = runs_.size();
    for (size_t i = 0; i < runs_.size(); ++i)
      if (best == runs_.size() || runs_[i].front().before(runs_[best].front())) best = i;
    QueueItem it;
    if (!heap_.empty() && (best == runs_.size() || heap_.front().before(runs_[best].front()))) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      it = heap_.back();
      heap_.pop_back();
    } else {
      Run& run = runs_[best];
      it = run.items[run.head++];
      prefetch_ahead(run);
      if (run.head == run.items.size()) {
        run.items.clear();
        spare_.push_back(std::move(run.items));
        if (best + 1 != runs_.size()) runs_[best] = std::move(runs_.back());
        runs_.pop_back();
      } else if (run.head >= 4096 && run.head * 2 >= run.items.size()) {
        run.items.erase(run.items.begin(), run.items.begin() + static_cast<ptrdiff_t>(run.head));
        run.head = 0;
      }
    }
    --queued_;
    if (!started_) {
      started_ = true;
      start_key_ = it.time;
    }
    offset_ = it.offset;
    if (it.slot == QueueItem::kInline) {
      const uint32_t n = it.pcs.size();
      if (pcs_.size() < n) pcs_.resize(n);
      it.pcs.copy_to(pcs_);
      sample(it.pid, it.tid, it.pmcid, it.cpuflags >> 16, pmclog::Record::cpuflags_user(it.cpuflags), pcs_.data(), n,
             it.time, it.hash);
    } else {
      apply(held_[it.slot], it.time);
      free_.push_back(it.slot);
    }
  }

  // The stack cache outgrows the CPU's caches, and a record waits long enough to leave them:
  // the records a few pops ahead in this run, their index slots, then their cached stacks
  // are asked for early, so that each sample's three dependent loads find them.
  void prefetch_ahead(const Run& run) {
    constexpr size_t kFar = 64, kNear = 32;  // measured: 24/12 left most misses, 160/80 no better
    if (index_.empty()) return;
    const size_t mask = index_.size() - 1;
    if (run.head + kFar < run.items.size()) {
      const QueueItem& a = run.items[run.head + kFar];
      if (a.slot == QueueItem::kInline) {
        __builtin_prefetch(&index_[a.hash & mask]);
        for (int k = 0; k < 4; ++k) __builtin_prefetch(a.at + 64 * k);
      }
    }
    if (run.head + kNear < run.items.size()) {
      const QueueItem& b = run.items[run.head + kNear];
      if (b.slot != QueueItem::kInline) return;
      const IndexSlot& e = index_[b.hash & mask];
      if (e.gen != index_gen_ || e.hash != b.hash) return;
      const auto c = reinterpret_cast<uintptr_t>(arena_.data() + e.off);
      const uintptr_t end = c + (kStackHeader + b.pcs.size()) * sizeof(uint64_t);
      for (uintptr_t line = c & ~uintptr_t{63}; line < end; line += 64)
        __builtin_prefetch(reinterpret_cast<const void*>(line));
    }
  }

  // A mapped log's pages behind the oldest record still waiting go back to the kernel, so
  // that resident memory stays flat; read again from the file if touched.
  static constexpr size_t kReleaseStep = 8u << 20;
  static const uint8_t* page_down(const uint8_t* p) {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) & ~(page - 1));
  }
  static const uint8_t* page_up(const uint8_t* p) {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    return page_down(p + page - 1);
  }
  void release_behind(const uint8_t* now) {
    const uint8_t* oldest = now;
    for (const Run& run : runs_) oldest = std::min(oldest, run.front().at);
    const uint8_t* upto = page_down(oldest);
    if (upto > released_) {
      ::madvise(const_cast<uint8_t*>(released_), static_cast<size_t>(upto - released_), MADV_DONTNEED);
      released_ = upto;
    }
    next_release_ = now + kReleaseStep;
  }

  double seconds(uint64_t key) const {
    if (key < start_key_) return 0;
    const double freq = abi_.legacy() || tsc_freq_ == 0 ? 1e9 : static_cast<double>(tsc_freq_);
    return static_cast<double>(key - start_key_) / freq;
  }

  std::string comm_of(uint32_t pid) const {
    auto it = comm_.find(pid);
    if (it != comm_.end()) return it->second;
    if (pid == kKernelPid) return "[kernel]";
    std::string s = ":";  // as perf names a process it never saw named
    s += std::to_string(pid);
    return s;
  }

  uint32_t event_of(uint32_t pmcid) {
    auto it = pmc_event_.find(pmcid);
    if (it != pmc_event_.end()) return it->second;
    unnamed_.insert(pmcid);
    return pmc_event_[pmcid] = t_.event(hex32(pmcid, "pmc-"));
  }

  // PMCALLOCATE(DYN): the pmc's event (one that samples already used keeps its id) and its
  // rate (0: not said).
  void allocate(uint32_t pmcid, const std::string& name, uint64_t rate) {
    if (unnamed_.erase(pmcid) != 0) t_.rename_event(pmc_event_[pmcid], name);
    else pmc_event_[pmcid] = t_.event(name);
    const uint32_t ev = pmc_event_[pmcid];
    if (t_.event_rates.size() <= ev) t_.event_rates.resize(ev + 1);
    if (rate != 0) t_.event_rates[ev] = rate;
  }

  bool event_selected(uint32_t pmcid, uint32_t ev) {
    const auto& want = opt_.filter.events;
    if (want.empty()) return true;
    const std::string& name = t_.events[ev];
    const std::string id = hex32(pmcid);
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i] == name || strcasecmp(want[i].c_str(), id.c_str()) == 0) {
        matched_.events[i] = true;
        return true;
      }
    return false;
  }

  // Address spaces or names changed: resolved stacks and command ids may be stale.
  void invalidate() {
    ++index_gen_;
    if (index_gen_ == 0) {  // wrapped: no old entry may look current
      for (IndexSlot& e : index_) e.gen = 0;
      index_gen_ = 1;
    }
    stack_count_ = 0;
    arena_.clear();
    stack_frames_.clear();
    stack_addresses_.clear();
    comm_ids_.clear();
    thread_ids_.clear();
    last_thread_valid_ = false;
    last_comm_valid_ = false;
    last_event_valid_ = false;
    epoch_ = ++g_epochs;
  }

  void apply(const Held& h, uint64_t key) {
    if (h.kind != Kind::callchain && h.kind != Kind::pcsample) invalidate();
    switch (h.kind) {
      case Kind::initialize:
        tsc_freq_ = h[Field::tsc_freq];
        cputype_ = static_cast<uint32_t>(h[Field::arch]);
        cpuid_ = h.text;
        break;
      case Kind::pmcallocate: {
        const auto code = static_cast<uint32_t>(h[Field::event]);
        const pmclog::AllocationEvent e = pmclog::allocation_event(
            code, static_cast<uint32_t>(h[Field::flags]),
            {abi_.generation, cputype_, cpuid_, &dyn_, opt_.pmu_events, opt_.pmu_events_missing});
        if (!e.note.empty() && std::find(rep_.notes.begin(), rep_.notes.end(), e.note) == rep_.notes.end())
          rep_.notes.push_back(e.note);
        allocate(static_cast<uint32_t>(h[Field::pmcid]),
                 !e.name.empty() ? std::string(e.name) : !e.label.empty() ? e.label : hex32(code, "event-"),
                 abi_.legacy() ? 0 : h[Field::rate]);
        break;
      }
      case Kind::pmcallocatedyn: {
        const auto code = static_cast<uint32_t>(h[Field::event]);
        std::string name = h.text.empty() ? hex32(code, "event-") : h.text;
        dyn_[code] = name;
        allocate(static_cast<uint32_t>(h[Field::pmcid]), name, abi_.legacy() ? 0 : h[Field::rate]);
        break;
      }
      case Kind::pmcattach: {
        const auto pid = static_cast<uint32_t>(h[Field::pid]);
        as_.attach(pid, h.text);
        if (!comm_.count(pid)) comm_[pid] = base_name(h.text);
        break;
      }
      case Kind::procexec: {
        const auto pid = static_cast<uint32_t>(h[Field::pid]);
        const bool m10 = abi_.generation == pmclog::Generation::M10;  // dynaddr: 0 before M10
        as_.exec(pid, h.text, h[Field::entryaddr], h[Field::dynaddr], m10);
        comm_[pid] = base_name(h.text);
        break;
      }
      case Kind::map_in:
        as_.map_in(static_cast<uint32_t>(h[Field::pid]), h[Field::start], h.text);
        break;
      case Kind::map_out:
        as_.map_out(static_cast<uint32_t>(h[Field::pid]), h[Field::start], h[Field::end]);
        break;
      case Kind::mappingchange:
        // L1: 1 inserts, 2 deletes (PMCLOG_MAPPINGCHANGE_INSERT/DELETE).
        if (h[Field::maptype] == 1)
          as_.map_in(static_cast<uint32_t>(h[Field::pid]), h[Field::start], h.text, h[Field::end]);
        else if (h[Field::maptype] == 2)
          as_.map_out(static_cast<uint32_t>(h[Field::pid]), h[Field::start], h[Field::end]);
        break;
      case Kind::procfork: {
        const auto from = static_cast<uint32_t>(h[Field::oldpid]);
        const auto to = static_cast<uint32_t>(h[Field::newpid]);
        as_.fork(from, to);
        comm_[to] = comm_of(from);
        break;
      }
      case Kind::sysexit:
        as_.exit(static_cast<uint32_t>(h[Field::pid]));
        break;
      case Kind::proc_create:
        comm_[static_cast<uint32_t>(h[Field::pid])] = h.text;
        break;
      case Kind::thr_create:
        threads_[static_cast<uint32_t>(h[Field::tid])] = h.text;
        break;
      case Kind::thr_exit:
        threads_.erase(static_cast<uint32_t>(h[Field::tid]));
        break;
      case Kind::callchain:
        sample(static_cast<uint32_t>(h[Field::pid]),
               abi_.legacy() ? static_cast<uint32_t>(h[Field::pid]) : static_cast<uint32_t>(h[Field::tid]),
               static_cast<uint32_t>(h[Field::pmcid]), static_cast<uint32_t>(h[Field::cpuflags] >> 16),
               pmclog::Record::cpuflags_user(h[Field::cpuflags]), h.pcs.data(), h.pcs.size(), key, kNoHash);
        break;
      case Kind::pcsample: {
        const uint64_t pc = h[Field::pc];
        sample(static_cast<uint32_t>(h[Field::pid]), static_cast<uint32_t>(h[Field::pid]),
               static_cast<uint32_t>(h[Field::pmcid]), 0, h[Field::usermode] != 0, &pc, 1, key, kNoHash);
        break;
      }
      default:
        break;
    }
  }

  // A multipart callchain's stack (format.md §17): the CALLCHAIN part's frames, and with
  // --ibs the IBS_OP RIP as the leaf (replacing the interrupted PC the chain starts with, or
  // alone when there is no CALLCHAIN part). A damaged header gives the parts before the
  // damage; no CALLCHAIN part and no --ibs RIP gives no frames.
  void multipart_stack(const pmclog::Record& r, std::vector<uint64_t>& out) const {
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

  static bool in(const std::vector<uint32_t>& v, uint32_t x) {
    return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
  }

  // The stack cache's hash: the frames and what is known of a sample before its replay (the
  // event and command are compared, not hashed: they depend on records replayed before it).
  static constexpr uint64_t kNoHash = 0;  // not computed yet (a hash is never 0)
  uint64_t stack_hash(uint32_t pid, uint32_t tid, bool user, const uint64_t* pcs, size_t n) const {
    const uint32_t key_tid = opt_.keep_threads ? tid : 0;
    // Two lanes: half the multiply chain.
    uint64_t h0 = (uint64_t{pid} << 32 | key_tid) * 0x9E3779B97F4A7C15ull ^ user;
    uint64_t h1 = n * 0xC2B2AE3D27D4EB4Full;
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
      h0 = (h0 ^ pcs[i]) * 0xFF51AFD7ED558CCDull;
      h1 = (h1 ^ pcs[i + 1]) * 0xC4CEB9FE1A85EC53ull;
    }
    if (i < n) h0 = (h0 ^ pcs[i]) * 0xFF51AFD7ED558CCDull;
    uint64_t hash = (h0 ^ (h0 >> 29)) + (h1 ^ (h1 >> 32)) * 0x9E3779B97F4A7C15ull;
    hash ^= hash >> 32;
    return hash == kNoHash ? 1 : hash;
  }

  void sample(uint32_t pid, uint32_t tid, uint32_t pmcid, uint32_t cpu, bool user,
              const uint64_t* pcs, size_t n, uint64_t key, uint64_t hash) {
    ++rep_.samples;
    const Filter& f = opt_.filter;
    // Runs of samples come from one pmc and one process: the last answers first.
    if (pmcid != last_pmcid_ || !last_event_valid_) {
      last_event_ = event_of(pmcid);
      last_event_selected_ = event_selected(pmcid, last_event_);
      last_pmcid_ = pmcid;
      last_event_valid_ = true;
    }
    ++matched_.samples;
    if (track_) see(pid, tid, cpu, user, key);
    if (!last_event_selected_) return;
    const uint32_t ev = last_event_;
    if (!in(pids_, pid) || !in(f.tids, tid) || !in(f.cpus, cpu)) return;
    if ((f.mode == Filter::Mode::user && !user) || (f.mode == Filter::Mode::kernel && user)) return;
    const double t = seconds(key);
    if ((f.from && t < *f.from) || (f.to && t >= *f.to)) return;
    command_of(pid);
    if (!last_comm_selected_) return;
    const uint32_t comm = last_comm_;
    if (n == 0) {
      ++rep_.empty;
      return;
    }
    if (tid != last_tid_ || !last_thread_valid_) {
      auto ti = thread_ids_.find(tid);
      if (ti == thread_ids_.end()) {
        auto name = threads_.find(tid);
        ti = thread_ids_.emplace(tid, name == threads_.end() ? 0 : t_.thread(name->second)).first;
      }
      last_tid_ = tid;
      last_thread_ = ti->second;
      last_thread_valid_ = true;
    }
    const uint32_t thread = last_thread_;
    // A cached stack stands for one profile node: per thread when profiles keep threads.
    const uint32_t key_tid = opt_.keep_threads ? tid : 0;
    // Most samples repeat a stack seen before: one hash of the raw stack instead of a
    // mapping lookup and a frame lookup per frame.
    if (hash == kNoHash) hash = stack_hash(pid, tid, user, pcs, n);
    if (stack_count_ >= kMaxCachedStacks) invalidate();
    if ((stack_count_ + 1) * 2 > index_.size()) grow_index();
    const size_t mask = index_.size() - 1;
    // A cached stack in the arena: these words, its frame count and offset, then its pcs.
    const uint64_t w0 = uint64_t{pid} << 32 | key_tid;
    const uint64_t w1 = uint64_t{ev} << 32 | comm;
    const uint64_t w2 = uint64_t{n} << 1 | user;
    size_t at = hash & mask;
    for (; index_[at].gen == index_gen_; at = (at + 1) & mask) {
      if (index_[at].hash != hash) continue;
      const uint64_t* c = arena_.data() + index_[at].off;
      if (c[0] == w0 && c[1] == w1 && c[2] == w2 && same(c + kStackHeader, pcs, n)) {
        const size_t kept = static_cast<size_t>(c[4] >> 32);
        deliver(ev, comm, pid, tid, thread, cpu, t, user, {stack_frames_.data() + c[3], kept},
                {stack_addresses_.data() + c[3], kept}, static_cast<uint32_t>(c[4]));
        return;
      }
    }
    frames_.clear();
    addresses_.clear();
    for (size_t k = 0; k < n; ++k) {
      const uint64_t a = pcs[k];
      // Kernel-mode records may hold kernel frames then user frames (PMC_F_USERCALLCHAIN):
      // each frame goes where its address lies.
      const bool kernel = !user && as_.is_kernel_address(a);
      if (f.mode == Filter::Mode::kernel && !kernel) continue;
      Frame fr;
      fr.where = kernel ? as_.resolve_kernel(a) : as_.resolve_user(pid, a);
      fr.caller = k > 0;
      frames_.push_back(t_.frame(fr));
      addresses_.push_back(a);
    }
    if (frames_.empty()) {
      ++rep_.empty;
      return;
    }
    const auto id = static_cast<uint32_t>(stack_count_++);
    index_[at] = {hash, static_cast<uint32_t>(arena_.size()), index_gen_};
    arena_.insert(arena_.end(), {w0, w1, w2, stack_frames_.size(), uint64_t{frames_.size()} << 32 | id});
    arena_.insert(arena_.end(), pcs, pcs + n);
    stack_frames_.insert(stack_frames_.end(), frames_.begin(), frames_.end());
    stack_addresses_.insert(stack_addresses_.end(), addresses_.begin(), addresses_.end());
    deliver(ev, comm, pid, tid, thread, cpu, t, user, frames_, addresses_, id);
  }

  // The process's command id, cached for a run of samples of one process, and whether the
  // filter selects it.
  void command_of(uint32_t pid) {
    if (pid == last_pid_ && last_comm_valid_) return;
    auto ci = comm_ids_.find(pid);
    if (ci == comm_ids_.end()) ci = comm_ids_.emplace(pid, t_.comm(comm_of(pid))).first;
    last_pid_ = pid;
    last_comm_ = ci->second;
    const auto& want = opt_.filter.comms;
    last_comm_selected_ = want.empty();
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i] == t_.comms[last_comm_]) last_comm_selected_ = matched_.comms[i] = true;
    last_comm_valid_ = true;
  }

  static void mark(const std::vector<uint32_t>& want, std::vector<bool>& met, uint32_t x) {
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i] == x) met[i] = true;
  }

  // What the sample would meet of each part of the filter, whatever the other parts.
  void see(uint32_t pid, uint32_t tid, uint32_t cpu, bool user, uint64_t key) {
    const Filter& f = opt_.filter;
    mark(f.pids, matched_.pids, pid);
    mark(f.tids, matched_.tids, tid);
    mark(f.cpus, matched_.cpus, cpu);
    (user ? matched_.user : matched_.kernel) = true;
    if (f.from || f.to) {
      const double t = seconds(key);
      if (f.from && t >= *f.from) matched_.from = true;
      if (f.to && t < *f.to) matched_.to = true;
    }
    if (!f.comms.empty()) command_of(pid);
  }

  // No early exit: stacks that hash alike are nearly always equal.
  static bool same(const uint64_t* a, const uint64_t* b, size_t n) {
    uint64_t d = 0;
    for (size_t i = 0; i < n; ++i) d |= a[i] ^ b[i];
    return d == 0;
  }

  void grow_index() {
    std::vector<IndexSlot> old = std::move(index_);
    index_.assign(std::max<size_t>(1024, old.size() * 2), IndexSlot{});
    const size_t mask = index_.size() - 1;
    for (const IndexSlot& e : old) {
      if (e.gen != index_gen_) continue;
      size_t at = e.hash & mask;
      while (index_[at].gen == index_gen_) at = (at + 1) & mask;
      index_[at] = e;
    }
  }

  void deliver(uint32_t ev, uint32_t comm, uint32_t pid, uint32_t tid, uint32_t thread,
               uint32_t cpu, double t, bool user, std::span<const FrameId> frames,
               std::span<const uint64_t> addresses, uint32_t id) {
    ++rep_.kept;
    Sample s;
    s.stack_id = id;
    s.stack_epoch = epoch_;
    s.event = ev;
    s.comm = comm;
    s.pid = pid;
    s.tid = tid;
    s.thread = thread;
    s.cpu = cpu;
    s.time = t;
    s.user_mode = user;
    s.frames = frames;
    s.addresses = addresses;
    s.offset = offset_;
    sink_(s);
  }

  Tables& t_;
  const Options& opt_;
  pmclog::Abi abi_;
  AddressSpaces as_;
  FilterMatches& matched_;
  bool track_ = false;  // a filter other than events is set: note what each part meets
  const std::function<void(const Sample&)>& sink_;
  InputReport& rep_;
  std::vector<uint32_t> pids_;
  const bool mapped_;

  std::vector<Held>& held_;
  std::vector<uint32_t> free_;
  std::vector<Run> runs_;
  std::vector<std::vector<QueueItem>> spare_;  // emptied runs' storage
  std::vector<QueueItem> heap_;
  size_t queued_ = 0;
  uint64_t seq_ = 0;
  const uint8_t* released_ = nullptr;  // mapped: pages before this went back
  const uint8_t* next_release_ = nullptr;
  std::vector<uint64_t> pcs_;  // the frames of the callchain being replayed
  bool started_ = false;
  uint64_t start_key_ = 0;
  pmclog::LegacyClock clock_;  // legacy logs: every record's header, in file order
  uint64_t offset_ = 0;  // the record being replayed
  uint64_t tsc_freq_ = 0;
  uint32_t cputype_ = 0;
  std::string cpuid_;  // INITIALIZE's, which chooses the pmu-events table
  std::map<uint32_t, std::string> dyn_;
  std::unordered_map<uint32_t, uint32_t> pmc_event_;
  std::unordered_set<uint32_t> unnamed_;  // pmcs sampled before their allocation
  std::unordered_map<uint32_t, std::string> comm_, threads_;
  std::vector<FrameId> frames_;
  std::vector<uint64_t> addresses_;  // the run-time address of each of frames_
  // The stacks seen in this epoch: kStackHeader words and the pcs of each in one arena,
  // found through an open-addressing index by stack_hash(); their frames in another.
  // An index entry of an older generation is empty, so that invalidate() clears it in one step.
  static constexpr size_t kStackHeader = 5;
  static constexpr size_t kMaxCachedStacks = 1u << 16;
  size_t stack_count_ = 0;
  std::vector<uint64_t> arena_;
  std::vector<FrameId> stack_frames_;
  std::vector<uint64_t> stack_addresses_;  // beside stack_frames_, the same offsets
  struct IndexSlot {
    uint64_t hash = 0;
    uint32_t off = 0;  // in arena_
    uint32_t gen = 0;
  };
  std::vector<IndexSlot> index_;
  uint32_t index_gen_ = 1;
  std::unordered_map<uint32_t, uint32_t> comm_ids_, thread_ids_;
  uint32_t last_tid_ = 0, last_thread_ = 0;
  bool last_thread_valid_ = false;
  uint32_t last_pid_ = 0, last_comm_ = 0;
  bool last_comm_valid_ = false, last_comm_selected_ = false;
  uint32_t last_pmcid_ = 0, last_event_ = 0;
  bool last_event_valid_ = false, last_event_selected_ = false;
  uint64_t epoch_ = ++g_epochs;
};

}  // namespace

Session::Session(Options opt)
    : opt_(std::move(opt)), objects_(opt_.locate), symbolizer_(objects_, opt_.symbols),
      pool_(std::make_unique<Pool>()) {
  const Filter& f = opt_.filter;
  matches_.events.assign(f.events.size(), false);
  matches_.comms.assign(f.comms.size(), false);
  matches_.pids.assign(f.pids.size(), false);
  matches_.tids.assign(f.tids.size(), false);
  matches_.cpus.assign(f.cpus.size(), false);
  if (!opt_.by_file) profiles_.emplace_back();
}

Session::~Session() = default;

std::vector<std::string> Session::unmatched_events() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < matches_.events.size(); ++i)
    if (!matches_.events[i]) out.push_back(opt_.filter.events[i]);
  return out;
}

InputReport Session::add_log(const std::string& name, const std::function<void(const Sample&)>& also) {
  if (opt_.by_file) {
    profiles_.emplace_back();
    profiles_.back().name = pmclog::input_display_name(name);  // "(stdin)" for "-"
  }
  Profile* p = &profiles_.back();
  const auto input = static_cast<uint32_t>(tables_.inputs.size());
  tables_.inputs.push_back(pmclog::input_display_name(name));
  std::vector<NodeId> leaf_of;  // by Sample::stack_id, within one epoch
  std::unordered_map<uint64_t, NodeId> leaf_of_cpu;  // keep_cpus: by stack_id << 32 | cpu
  uint64_t epoch = 0;
  InputReport rep = read(name, [&](const Sample& s) {
    if (capped_at_) return;
    NodeId n = kNoNode;
    const bool cached = s.stack_id != Sample::kNoStack;
    if (cached) {
      if (s.stack_epoch != epoch) {
        leaf_of.clear();
        leaf_of_cpu.clear();
        epoch = s.stack_epoch;
      }
      if (opt_.keep_cpus) {
        auto it = leaf_of_cpu.find(uint64_t{s.stack_id} << 32 | s.cpu);
        if (it != leaf_of_cpu.end()) n = it->second;
      } else if (s.stack_id < leaf_of.size()) {
        n = leaf_of[s.stack_id];
      }
    }
    if (n == kNoNode) {
      Context c;
      c.event = s.event;
      c.comm = s.comm;
      c.pid = s.pid;
      if (opt_.keep_threads) {
        c.tid = s.tid;
        c.thread = s.thread;
      }
      if (opt_.keep_cpus) c.cpu = s.cpu;
      if (opt_.keep_inputs) c.input = input;
      const size_t nodes_before = p->nodes.size();
      n = p->root(tables_.context(c));
      for (size_t i = s.frames.size(); i-- > 0;) n = p->child(n, s.frames[i]);
      // Memory grows with nodes: a new stack costs one per frame it does not share.
      const size_t added = p->nodes.size() - nodes_before;
      stacks_ += added;
      if (added != 0 && opt_.max_stacks != 0 && stacks_ > opt_.max_stacks) {
        capped_at_ = s.offset;  // read() stops here: the profile would only be a part
        return;
      }
      if (cached && opt_.keep_cpus) {
        leaf_of_cpu.emplace(uint64_t{s.stack_id} << 32 | s.cpu, n);
      } else if (cached) {
        if (leaf_of.size() <= s.stack_id) leaf_of.resize(s.stack_id + 1, kNoNode);
        leaf_of[s.stack_id] = n;
      }
    }
    p->add(n);
    if (also) also(s);
    if (p->event_samples.size() <= s.event) p->event_samples.resize(s.event + 1);
    ++p->event_samples[s.event];
  });
  // No log (not opened, or not a byte): no profile of its own either.
  if (opt_.by_file && (!rep.opened || rep.empty_input)) profiles_.pop_back();
  return rep;
}

InputReport Session::for_each_sample(const std::string& name,
                                     const std::function<void(const Sample&)>& f) {
  return read(name, f);
}

InputReport Session::read(const std::string& name, const std::function<void(const Sample&)>& f) {
  InputReport rep;
  rep.name = name;
  capped_at_.reset();  // a log read after a cap stops at its own first new stack
  // A streamed log (compressed, a pipe) reports the bytes it delivers: they move while a
  // resync scans data without records, where no record offset is seen for a long time.
  std::function<void(uint64_t)> on_read;
  if (opt_.progress) on_read = [this](uint64_t done) { opt_.progress(done, 0); };
  auto opened = pmclog::open_log(name, opt_.hint, nullptr, std::move(on_read));
  if (!opened) {
    rep.error = opened.error().message;
    rep.unreadable = opened.error().code == pmclog::Errc::io;
    return rep;
  }
  pmclog::OpenLog& log = opened.value();
  rep.opened = true;
  rep.compression = pmclog::compression_name(log.compression);
  if (log.detection.empty) {
    // Not "no samples": no log at all (a wrong path, an empty pipe); its ABI would be invented.
    rep.empty_input = true;
    rep.error = log.display_name + ": " + kEmptyInput;
    return rep;
  }
  rep.abi = pmclog::describe(log.detection.abi);
  uint64_t total = 0;
  struct stat st;
  // Offsets count decompressed bytes: a percentage only for plain files.
  if (name != "-" && log.compression == pmclog::Compression::none && stat(name.c_str(), &st) == 0)
    total = static_cast<uint64_t>(st.st_size);
  // A mapped log's records stay readable in the mapping: callchains wait in the window as
  // views, and the replay gives pages back behind the oldest one still waiting (the
  // reader's own release would drop pages the window still reads).
  Replay replay(tables_, objects_, opt_, log.reader->abi(), matches_, f, rep, pool_->held,
                log.mapped);
  // The log's system, from what is read ahead of the replay: objects are checked against it.
  LogSystemProbe system(log.reader->abi(), log.detection.container);
  objects_.set_log(&system);
  struct Unset {
    ObjectTable& t;
    ~Unset() { t.set_log(nullptr); }
  } unset{objects_};
  pmclog::LogReader& rd = *log.reader;
  uint64_t count = 0;
  for (;;) {
    pmclog::Error err;
    const pmclog::Step st2 = rd.for_each(
        [&](const pmclog::Record& r) {
          system.see(r);
          replay.push(r);
          if ((++count & 0xFFFF) == 0 && log.mapped && opt_.progress)
            opt_.progress(r.offset, total);
          return !capped_at_;
        },
        err);
    if (st2 != pmclog::Step::error) break;
    ++rep.damaged;
    if (rep.error.empty())
      rep.error = err.message.rfind(log.display_name, 0) == 0 ? err.message
                                                              : log.display_name + ": " + err.message;
    if (!opt_.keep_going) break;
    const pmclog::SkippedRange sk = rd.skip_or_resync();
    rep.skipped_bytes += sk.to - sk.from;
    if (sk.to <= sk.from) break;
  }
  if (!capped_at_) replay.drain();
  if (capped_at_) {
    rep.stack_cap = true;
    rep.error = log.display_name + ": more than " + std::to_string(opt_.max_stacks) +
                " distinct stacks (stack-table nodes): the sample at offset " +
                std::to_string(*capped_at_) + " is one more";
    return rep;
  }
  if (opt_.progress && total != 0) opt_.progress(total, total);
  return rep;
}

void Session::symbolize() { tables_.symbolize(symbolizer_, objects_); }

const Symbolized& Session::symbol(FrameId id) {
  const Frame& fr = tables_.frames[id];
  static const Symbolized none{Unresolved::no_mapping, {}};
  if (fr.where.object == kNoObject) return none;
  return symbolizer_.lookup(fr.where.object, fr.where.address, fr.caller);
}

}  // namespace pmcprofile
