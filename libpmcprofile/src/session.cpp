#include "pmcprofile/session.h"

#include "pmclog/parts.h"

#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "pmclog/event_names.h"
#include "pmclog/open.h"
#include "pmclog/pmclog.h"

namespace pmcprofile {
namespace {

using pmclog::Field;
using pmclog::Kind;

constexpr uint32_t kKernelPid = 0xFFFFFFFFu;
constexpr uint32_t kUserSpaceFlag = 0x1;

std::string base_name(std::string_view p) {
  const size_t s = p.rfind('/');
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

std::string hex32(uint64_t v, const char* prefix = "") {
  char b[48];
  std::snprintf(b, sizeof b, "%s0x%llx", prefix, static_cast<unsigned long long>(v));
  return b;
}

// A record held in the reordering window (owned: stream readers reuse their buffer).
struct Held {
  Kind kind = Kind::unknown;
  std::array<uint64_t, pmclog::kScalarFieldCount> v{};
  std::string text;
  std::vector<uint64_t> pcs;
  uint64_t operator[](Field f) const { return v[static_cast<size_t>(f)]; }
};

struct QueueItem {
  uint64_t key, seq;
  uint64_t time;  // for --from/--to: the TSC, or legacy seconds and (28-bit) nanoseconds
  uint32_t slot;
  // std heap algorithms build a max-heap: "greater" puts the earliest on top.
  bool operator<(const QueueItem& o) const { return key != o.key ? key > o.key : seq > o.seq; }
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
         std::vector<bool>& matched, const std::function<void(const Sample&)>& sink,
         InputReport& rep, std::vector<Held>& held)
      : t_(t), opt_(opt), abi_(abi), as_(objects, abi.address_width), matched_(matched),
        sink_(sink), rep_(rep), held_(held) {
    for (uint32_t p : opt.filter.pids) pids_.push_back(p);
    for (uint32_t i = static_cast<uint32_t>(held_.size()); i-- > 0;) free_.push_back(i);
  }

  void push(const pmclog::Record& r) {
    ++rep_.records;
    // Legacy headers keep only 28 bits of tv_nsec (FORMAT.md §2), too few to order by, and
    // legacy kernels write one buffer per owner: file order is their time order.
    const uint64_t key = abi_.legacy() ? 0 : r.header.tsc;
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<uint32_t>(held_.size());
      held_.emplace_back();
    }
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
    const uint64_t time = abi_.legacy()
                              ? uint64_t{r.header.ts_sec} * 1000000000ull + r.header.ts_nsec
                              : r.header.tsc;
    queue_.push_back({key, seq_++, time, slot});
    // While keys never go down the queue is a FIFO whose front is the earliest; at the first
    // key that goes back in time it becomes a heap for the rest of the log.
    if (sorted_) {
      if (key < last_key_) {
        sorted_ = false;
        std::make_heap(queue_.begin(), queue_.end());
      }
      last_key_ = key;
    } else {
      std::push_heap(queue_.begin(), queue_.end());
    }
    if (queue_.size() > opt_.reorder_window) pop();
  }

  void drain() {
    while (!queue_.empty()) pop();
  }

 private:
  void pop() {
    QueueItem it;
    if (sorted_) {
      it = queue_.front();
      queue_.pop_front();
    } else {
      std::pop_heap(queue_.begin(), queue_.end());
      it = queue_.back();
      queue_.pop_back();
    }
    if (!started_) {
      started_ = true;
      start_key_ = it.time;
    }
    apply(held_[it.slot], it.time);
    free_.push_back(it.slot);
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

  // PMCALLOCATE(DYN): the pmc's event; one that samples already used keeps its id.
  void allocate(uint32_t pmcid, const std::string& name) {
    if (unnamed_.erase(pmcid) != 0) {
      t_.rename_event(pmc_event_[pmcid], name);
      return;
    }
    pmc_event_[pmcid] = t_.event(name);
  }

  bool event_selected(uint32_t pmcid, uint32_t ev) {
    const auto& want = opt_.filter.events;
    if (want.empty()) return true;
    const std::string& name = t_.events[ev];
    const std::string id = hex32(pmcid);
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i] == name || strcasecmp(want[i].c_str(), id.c_str()) == 0) {
        matched_[i] = true;
        return true;
      }
    return false;
  }

  // Address spaces or names changed: resolved stacks and command ids may be stale.
  void invalidate() {
    stack_index_.clear();
    stacks_.clear();
    comm_ids_.clear();
    thread_ids_.clear();
    last_thread_valid_ = false;
    epoch_ = ++g_epochs;
  }

  void apply(const Held& h, uint64_t key) {
    if (h.kind != Kind::callchain && h.kind != Kind::pcsample) invalidate();
    switch (h.kind) {
      case Kind::initialize:
        tsc_freq_ = h[Field::tsc_freq];
        cputype_ = static_cast<uint32_t>(h[Field::arch]);
        break;
      case Kind::pmcallocate: {
        const auto code = static_cast<uint32_t>(h[Field::event]);
        auto n = pmclog::event_name(code, cputype_, abi_.generation, &dyn_);
        allocate(static_cast<uint32_t>(h[Field::pmcid]), n ? std::string(*n) : hex32(code, "event-"));
        break;
      }
      case Kind::pmcallocatedyn: {
        const auto code = static_cast<uint32_t>(h[Field::event]);
        std::string name = h.text.empty() ? hex32(code, "event-") : h.text;
        dyn_[code] = name;
        allocate(static_cast<uint32_t>(h[Field::pmcid]), name);
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
        // Fields outside the record's layout hold stale values: dynaddr only in M10.
        const bool m10 = abi_.generation == pmclog::Generation::M10;
        as_.exec(pid, h.text, h[Field::entryaddr], m10 ? h[Field::dynaddr] : 0, m10);
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
               (h[Field::cpuflags] & kUserSpaceFlag) != 0, h.pcs.data(), h.pcs.size(), key);
        break;
      case Kind::pcsample: {
        const uint64_t pc = h[Field::pc];
        sample(static_cast<uint32_t>(h[Field::pid]), static_cast<uint32_t>(h[Field::pid]),
               static_cast<uint32_t>(h[Field::pmcid]), 0, h[Field::usermode] != 0, &pc, 1, key);
        break;
      }
      default:
        break;
    }
  }

  // A multipart callchain's stack (FORMAT.md §12.2): the CALLCHAIN part's frames, and with
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

  void sample(uint32_t pid, uint32_t tid, uint32_t pmcid, uint32_t cpu, bool user,
              const uint64_t* pcs, size_t n, uint64_t key) {
    ++rep_.samples;
    const Filter& f = opt_.filter;
    const uint32_t ev = event_of(pmcid);
    if (!event_selected(pmcid, ev)) return;
    if (!in(pids_, pid) || !in(f.tids, tid) || !in(f.cpus, cpu)) return;
    if ((f.mode == Filter::Mode::user && !user) || (f.mode == Filter::Mode::kernel && user)) return;
    const double t = seconds(key);
    if ((f.from && t < *f.from) || (f.to && t >= *f.to)) return;
    auto ci = comm_ids_.find(pid);
    if (ci == comm_ids_.end()) ci = comm_ids_.emplace(pid, t_.comm(comm_of(pid))).first;
    const uint32_t comm = ci->second;
    if (!f.comms.empty() &&
        std::find(f.comms.begin(), f.comms.end(), t_.comms[comm]) == f.comms.end())
      return;
    if (n == 0) {
      ++rep_.empty;
      return;
    }
    // Runs of samples come from one thread: the last answer first, then the per-tid map.
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
    uint64_t hash = (uint64_t{pid} << 32 | ev) * 0x9E3779B97F4A7C15ull ^ (uint64_t{comm} << 1 | user);
    hash ^= uint64_t{key_tid} * 0xC2B2AE3D27D4EB4Full;
    for (size_t i = 0; i < n; ++i) hash = (hash ^ pcs[i]) * 0xFF51AFD7ED558CCDull, hash ^= hash >> 32;
    if (stacks_.size() >= kMaxCachedStacks) invalidate();
    auto hit = stack_index_.find(hash);
    if (hit != stack_index_.end()) {
      const CachedStack& cs = stacks_[hit->second];
      if (cs.pid == pid && cs.tid == key_tid && cs.event == ev && cs.comm == comm &&
          cs.user == user && cs.pcs.size() == n && std::equal(cs.pcs.begin(), cs.pcs.end(), pcs)) {
        deliver(ev, comm, pid, tid, thread, cpu, t, user, cs.frames, hit->second);
        return;
      }
    }
    frames_.clear();
    for (size_t i = 0; i < n; ++i) {
      const uint64_t a = pcs[i];
      // Kernel-mode records may hold kernel frames then user frames (PMC_F_USERCALLCHAIN):
      // each frame goes where its address lies.
      const bool kernel = !user && as_.is_kernel_address(a);
      if (f.mode == Filter::Mode::kernel && !kernel) continue;
      Frame fr;
      fr.where = kernel ? as_.resolve_kernel(a) : as_.resolve_user(pid, a);
      fr.caller = i > 0;
      frames_.push_back(t_.frame(fr));
    }
    if (frames_.empty()) {
      ++rep_.empty;
      return;
    }
    uint32_t id = Sample::kNoStack;
    if (hit == stack_index_.end()) {
      id = static_cast<uint32_t>(stacks_.size());
      stacks_.push_back({pid, key_tid, ev, comm, user, std::vector<uint64_t>(pcs, pcs + n), frames_});
      stack_index_.emplace(hash, id);
    }
    deliver(ev, comm, pid, tid, thread, cpu, t, user, frames_, id);
  }

  void deliver(uint32_t ev, uint32_t comm, uint32_t pid, uint32_t tid, uint32_t thread,
               uint32_t cpu, double t, bool user, const std::vector<FrameId>& frames, uint32_t id) {
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
    sink_(s);
  }

  Tables& t_;
  const Options& opt_;
  pmclog::Abi abi_;
  AddressSpaces as_;
  std::vector<bool>& matched_;
  const std::function<void(const Sample&)>& sink_;
  InputReport& rep_;
  std::vector<uint32_t> pids_;

  std::vector<Held>& held_;
  std::vector<uint32_t> free_;
  std::deque<QueueItem> queue_;
  bool sorted_ = true;
  uint64_t last_key_ = 0;
  uint64_t seq_ = 0;
  bool started_ = false;
  uint64_t start_key_ = 0;
  uint64_t tsc_freq_ = 0;
  uint32_t cputype_ = 0;
  std::map<uint32_t, std::string> dyn_;
  std::unordered_map<uint32_t, uint32_t> pmc_event_;
  std::unordered_set<uint32_t> unnamed_;  // pmcs sampled before their allocation
  std::unordered_map<uint32_t, std::string> comm_, threads_;
  std::vector<FrameId> frames_;
  struct CachedStack {
    uint32_t pid, tid, event, comm;
    bool user;
    std::vector<uint64_t> pcs;
    std::vector<FrameId> frames;
  };
  static constexpr size_t kMaxCachedStacks = 1u << 16;
  std::unordered_map<uint64_t, uint32_t> stack_index_;
  std::vector<CachedStack> stacks_;
  std::unordered_map<uint32_t, uint32_t> comm_ids_, thread_ids_;
  uint32_t last_tid_ = 0, last_thread_ = 0;
  bool last_thread_valid_ = false;
  uint64_t epoch_ = ++g_epochs;
};

}  // namespace

Session::Session(Options opt)
    : opt_(std::move(opt)), objects_(opt_.locate), symbolizer_(objects_, opt_.symbols),
      pool_(std::make_unique<Pool>()) {
  event_matched_.assign(opt_.filter.events.size(), false);
  if (!opt_.by_file) profiles_.emplace_back();
}

Session::~Session() = default;

std::vector<std::string> Session::unmatched_events() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < event_matched_.size(); ++i)
    if (!event_matched_[i]) out.push_back(opt_.filter.events[i]);
  return out;
}

InputReport Session::add_log(const std::string& name) {
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
      n = p->root(tables_.context(c));
      for (size_t i = s.frames.size(); i-- > 0;) n = p->child(n, s.frames[i]);
      if (cached && opt_.keep_cpus) {
        leaf_of_cpu.emplace(uint64_t{s.stack_id} << 32 | s.cpu, n);
      } else if (cached) {
        if (leaf_of.size() <= s.stack_id) leaf_of.resize(s.stack_id + 1, kNoNode);
        leaf_of[s.stack_id] = n;
      }
    }
    p->add(n);
    if (opt_.keep_timeline) p->timeline.push_back({s.time, n, s.cpu, s.tid});
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
  auto opened = pmclog::open_log(name, opt_.hint);
  if (!opened) {
    rep.error = opened.error().message;
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
  Replay replay(tables_, objects_, opt_, log.reader->abi(), event_matched_, f, rep, pool_->held);
  pmclog::LogReader& rd = *log.reader;
  if (log.mapped) rd.release_pages_behind(true);  // resident memory stays flat
  uint64_t count = 0;
  for (;;) {
    pmclog::Error err;
    const pmclog::Step st2 = rd.for_each(
        [&](const pmclog::Record& r) {
          replay.push(r);
          if ((++count & 0xFFFF) == 0 && opt_.progress) opt_.progress(r.offset, total);
        },
        err);
    if (st2 != pmclog::Step::error) break;
    ++rep.damaged;
    if (rep.error.empty())
      rep.error = err.message.rfind(log.display_name, 0) == 0 ? err.message
                                                              : log.display_name + ": " + err.message;
    if (!opt_.keep_going) break;
    const uint64_t before = rd.offset();
    if (rd.skip()) {
      rep.skipped_bytes += rd.offset() - before;
      continue;
    }
    const pmclog::SkippedRange sk = rd.resync();
    rep.skipped_bytes += sk.to - sk.from;
    if (sk.to <= sk.from) break;
  }
  replay.drain();
  if (opt_.progress) opt_.progress(total, total);
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
