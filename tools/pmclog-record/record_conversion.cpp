#include "record_conversion.h"

#include <elf.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <iterator>

#include "pmc_ids.h"
#include "pmcprofile/objects.h"
#include "proc_info.h"

namespace record {

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;

namespace {

RecordValue rv(Kind k) {
  RecordValue r;
  r.kind = k;
  return r;
}

// perf callchain context markers are the top 4095 values (PERF_CONTEXT_MAX = -4095).
constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);

// Where the kernel put address 0 of an object, from the mapping of its lowest executable
// segment: a PIE's or library's load bias. A fixed-address executable (ET_EXEC) has none,
// whatever its image base; an unreadable file is taken as loaded from its first byte.
uint64_t load_bias(const pmcprofile::ElfLayout& l, uint64_t addr, uint64_t pgoff) {
  if (l.valid && l.type == ET_EXEC) return 0;
  if (l.valid && l.exec_offset_known) return addr - pgoff - (l.exec_lo - l.exec_offset);
  return addr - pgoff;
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace

Converter::Converter(LogSink& sink, ConversionConfig cfg) : sink_(sink), cfg_(std::move(cfg)) {
  if (cfg_.dwarf) unwinder_ = std::make_unique<DwarfUnwinder>();
}

bool Converter::modern() const { return !sink_.abi().legacy(); }

void Converter::process(const PerfEvent& e) {
  using T = PerfEvent::Type;
  if (!pending_procexit_.empty()) emit_due_procexits(e.time, false);
  // The linker is mapped before the new image runs: an exec still waiting for it when the
  // process execs again or exits has none (a static program's is never waited for).
  if (pending_execs_ != 0 && (e.type == T::comm || e.type == T::exit))
    finish_exec(e.pid, false, 0, 0, e.time);
  switch (e.type) {
    case T::sample:
      if (cfg_.counting)
        on_counter_values(e, false);
      else
        on_sample(e);
      break;
    case T::mmap: on_mmap(e); break;
    case T::comm: on_comm(e); break;
    case T::fork: on_fork(e); break;
    case T::exit: on_exit(e); break;
    case T::read:
      if (cfg_.counting) on_counter_values(e, true);
      break;
    case T::lost:
    case T::lost_samples: {
      stats_.lost += e.lost;
      ++stats_.lost_records;
      auto r = rv(Kind::dropnotify);
      sink_.emit(r, e.time);
      break;
    }
    case T::throttle: ++stats_.throttled; break;
    default: break;
  }
}

void Converter::on_sample(const PerfEvent& e) {
  auto it = cfg_.pmcid_of_id.find(e.id);
  if (it == cfg_.pmcid_of_id.end()) return;  // not one of ours (cannot happen)
  // CPU-wide events still see a task on its way out after its EXIT record; a sample after
  // SYSEXIT would name a process that no longer exists, so it is left out.
  if (exited_.count(e.pid)) {
    ++stats_.after_exit;
    return;
  }
  RecordValue r = rv(Kind::callchain);
  const std::vector<uint64_t>& callchain = unwinder_ ? chain_with_unwound_user(e) : e.callchain;
  r.pcs.reserve(callchain.size());
  // perf puts a context marker before each part; the first says where the leaf is. hwpmc
  // writes the kernel stack of a kernel-mode sample and the user stack of a user-mode one;
  // only PMC_F_USERCALLCHAIN appends the user frames to a kernel record.
  const auto kernel_ctx = static_cast<int>(PERF_CONTEXT_KERNEL);
  const auto user_ctx = static_cast<int>(PERF_CONTEXT_USER);
  const auto pit = procs_.find(e.pid);
  const Proc* proc = pit == procs_.end() ? nullptr : &pit->second;
  int leaf_ctx = 0, ctx = 0;
  bool keep = true, part_start = false, has_kernel = false;
  for (uint64_t ip : callchain) {
    if (r.pcs.size() >= cfg_.depth) break;
    if (ip >= kContextMax) {
      ctx = static_cast<int>(static_cast<int64_t>(ip));
      if (leaf_ctx == 0) leaf_ctx = ctx;
      has_kernel = has_kernel || ctx == kernel_ctx;
      keep = ctx == leaf_ctx ||
             (cfg_.user_callchain && leaf_ctx == kernel_ctx && ctx == user_ctx);
      part_start = true;
      continue;
    }
    if (!keep) continue;
    // A part's first frame is the interrupted pc, from registers; the rest were read from
    // the stack by following frame pointers, which code built without them makes garbage
    // (frames unwound by CFI are not guesses).
    if (!part_start && (ctx == kernel_ctx || (ctx == user_ctx && !unwinder_)) &&
        !may_be_code(proc, ip, ctx == kernel_ctx)) {
      ++stats_.cut_chains;
      break;
    }
    part_start = false;
    r.pcs.push_back(ip);
  }
  bool user;
  if (leaf_ctx != 0)
    user = leaf_ctx == user_ctx;
  else
    user = (e.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
  if (r.pcs.empty()) r.pcs.push_back(e.ip);
  // The kernel and the unwinder stop at the depth too: a chain that fills it may have had
  // more frames, and then looks whole while its outermost ones are missing.
  if (r.pcs.size() >= cfg_.depth) ++stats_.at_depth;
  if (!has_kernel) ++stats_.user_only;
  r[Field::pid] = e.pid;
  r[Field::tid] = e.tid;
  r[Field::pmcid] = it->second;
  r[Field::cpuflags] = pmclog::Record::make_cpuflags(e.cpu & 0xFFFF, user);
  sink_.emit(r, e.time);
  ++stats_.samples;
  ++stats_.samples_per_pid[e.pid];
}

const std::vector<uint64_t>& Converter::chain_with_unwound_user(const PerfEvent& e) {
  chain_.clear();
  const uint64_t user_ctx = static_cast<uint64_t>(static_cast<int64_t>(PERF_CONTEXT_USER));
  // The kernel's part as it gave it (any user part it has is dropped: ours replaces it).
  bool in_user = false;
  for (uint64_t ip : e.callchain) {
    if (ip >= kContextMax) in_user = ip == user_ctx;
    if (!in_user) chain_.push_back(ip);
  }
  const bool kernel_leaf = !chain_.empty() ||
      (e.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER;
  // A kernel-mode sample keeps its user frames only with --user-callchain.
  if (kernel_leaf && !cfg_.user_callchain) return chain_;
  const UserRegisters regs = user_registers(e.regs_abi, e.user_regs);
  if (!regs.valid) return chain_;  // a kernel thread: no user stack at all
  const UnwindStop stop = unwinder_->unwind(e.pid, e.tid, regs, e.user_stack, cfg_.depth, unwound_);
  ++stats_.unwound;
  ++stats_.unwind_stops[static_cast<size_t>(stop)];
  chain_.push_back(user_ctx);
  chain_.insert(chain_.end(), unwound_.begin(), unwound_.end());
  return chain_;
}

bool Converter::may_be_code(const Proc* p, uint64_t pc, bool kernel) const {
  if (kernel) return cfg_.kernel_start == 0 || pc >= cfg_.kernel_start;
  if (cfg_.user_end != 0 && pc >= cfg_.user_end) return false;
  if (!p || p->code.empty()) return true;  // nothing known to check against
  if (pc >= p->hit_start && pc < p->hit_end) return true;
  // The nearest range starting at or below pc first; a later mapping inside an earlier one
  // can hide it, so then all of them.
  auto it = p->code.upper_bound(pc);
  if (it == p->code.begin()) return false;
  for (auto j = std::prev(it);; --j) {  // the nearest first
    if (pc < j->second) {
      p->hit_start = j->first;
      p->hit_end = j->second;
      return true;
    }
    if (j == p->code.begin()) return false;
  }
}

void Converter::emit_map_in(uint32_t pid, uint64_t start, uint64_t end, const std::string& path,
                            uint64_t t) {
  Proc& p = procs_[pid];
  auto old = p.maps.find(start);
  if (old != p.maps.end()) {
    if (old->second.path == path && old->second.end == end) return;  // already announced
    auto out = rv(Kind::map_out);
    out[Field::pid] = pid;
    out[Field::start] = start;
    out[Field::end] = old->second.end;
    sink_.emit(out, t);
  }
  p.maps[start] = Mapping{end, path};
  p.code[start] = std::max(end, p.code[start]);
  auto r = rv(Kind::map_in);
  r[Field::pid] = pid;
  r[Field::start] = start;
  r.text = path.substr(0, pmclog::kPathMax - 1);
  sink_.emit(r, t);
}

void Converter::emit_procexec(uint32_t pid, const std::string& path, uint64_t entry,
                              uint64_t dyn, uint64_t t) {
  // hwpmc logs one PROCEXEC per PMC attached to the process, and one with PMC_ID_INVALID
  // for an owner of system-wide sampling PMCs (-a: no PMC is attached to any process).
  static const std::vector<uint32_t> kSystemWide{kPmcIdInvalid};
  const auto& ids = cfg_.process_pmcids.empty() ? kSystemWide : cfg_.process_pmcids;
  for (uint32_t pmcid : ids) {
    auto r = rv(Kind::procexec);
    r[Field::pid] = pid;
    r[Field::pmcid] = pmcid;
    r[Field::entryaddr] = entry;
    r[Field::dynaddr] = dyn;
    r.text = path.substr(0, pmclog::kPathMax - 1);
    sink_.emit(r, t);
  }
}

void Converter::on_image_mapped(uint32_t pid, const PerfEvent& e) {
  const pmcprofile::ElfLayout l = pmcprofile::read_elf_layout(e.filename);
  Proc& p = procs_[pid];
  PendingExec& x = p.pending_exec;
  x = PendingExec{};
  x.path = e.filename;
  x.start = e.addr;
  x.end = e.addr + e.len;
  x.bias = load_bias(l, e.addr, e.pgoff);
  x.entry = l.valid ? l.entry + x.bias : 0;
  x.interp = l.interp;
  p.code[x.start] = std::max(x.end, p.code[x.start]);  // for the cut check meanwhile
  p.has_pending_exec = true;
  ++pending_execs_;
  if (x.interp.empty()) finish_exec(pid, false, 0, 0, e.time);  // static: no linker to wait for
}

void Converter::finish_exec(uint32_t pid, bool linker, uint64_t linker_base,
                            uint64_t linker_entry, uint64_t t) {
  auto it = procs_.find(pid);
  if (it == procs_.end() || !it->second.has_pending_exec) return;
  const PendingExec x = std::move(it->second.pending_exec);
  it->second.has_pending_exec = false;
  --pending_execs_;
  // FreeBSD's kernel: M10 logs AT_BASE (the linker's load base; 0 here without a linker)
  // and the PIE bias; older kernels the address the new program starts at, which is the
  // linker's entry point, or the image's own without a linker (0 when not known).
  uint64_t entry = 0;
  if (sink_.abi().generation == pmclog::Generation::M10)
    entry = linker ? linker_base : 0;
  else if (linker)
    entry = linker_base + linker_entry;
  else if (x.interp.empty())
    entry = x.entry;
  emit_procexec(pid, x.path, entry, x.bias, t);
  emit_map_in(pid, x.start, x.end, x.path, t);
}

void Converter::finish(uint64_t t) {
  while (pending_execs_ != 0) {
    auto it = std::find_if(procs_.begin(), procs_.end(),
                           [](const auto& kv) { return kv.second.has_pending_exec; });
    if (it == procs_.end()) break;
    finish_exec(it->first, false, 0, 0, t);
  }
}

void Converter::on_mmap(const PerfEvent& e) {
  if (!(e.prot & PROT_EXEC)) return;
  if (unwinder_) unwinder_->map(e.pid, e.addr, e.addr + e.len, e.pgoff, e.filename);
  Proc& p = procs_[e.pid];
  if (p.exec_pending) {
    // The first executable mapping after an exec is the new image (the kernel maps it
    // before the interpreter); its PROCEXEC waits for the linker's mapping.
    p.exec_pending = false;
    on_image_mapped(e.pid, e);
    return;
  }
  if (p.has_pending_exec) {
    if (same_file(e.filename, p.pending_exec.interp)) {
      const pmcprofile::ElfLayout l = pmcprofile::read_elf_layout(e.filename);
      finish_exec(e.pid, true, load_bias(l, e.addr, e.pgoff), l.valid ? l.entry : 0, e.time);
    } else {
      finish_exec(e.pid, false, 0, 0, e.time);
    }
  }
  emit_map_in(e.pid, e.addr, e.addr + e.len, e.filename, e.time);
}

void Converter::emit_proc_create(uint32_t pid, const std::string& name, uint64_t t) {
  if (!modern()) return;  // legacy logs have no naming record
  auto r = rv(Kind::proc_create);
  r[Field::pid] = pid;
  r.text = name.substr(0, 19);
  sink_.emit(r, t);
}

void Converter::emit_thr_create(uint32_t tid, uint32_t pid, const std::string& name, uint64_t t) {
  if (!modern()) return;
  auto r = rv(Kind::thr_create);
  r[Field::tid] = tid;
  r[Field::pid] = pid;
  r.text = name.substr(0, 19);
  sink_.emit(r, t);
}

void Converter::unmap_all(uint32_t pid, uint64_t t) {
  auto it = procs_.find(pid);
  if (it == procs_.end()) return;
  for (const auto& [start, m] : it->second.maps) {
    auto r = rv(Kind::map_out);
    r[Field::pid] = pid;
    r[Field::start] = start;
    r[Field::end] = m.end;
    sink_.emit(r, t);
  }
  it->second.maps.clear();
}

void Converter::on_comm(const PerfEvent& e) {
  const auto known = comm_.find(e.tid);
  const bool renamed = known == comm_.end() || known->second != e.comm;
  comm_[e.tid] = e.comm;
  const bool exec = (e.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
  // The name follows exec (and prctl): the naming records again, with the new name, as a
  // reader takes the last one (the log has no record of its own for a rename).
  if (renamed && modern()) {
    if (exec && e.pid == e.tid) emit_proc_create(e.pid, e.comm, e.time);
    emit_thr_create(e.tid, e.pid, e.comm, e.time);
  }
  if (!exec) return;
  // exec: the old image's mappings go away; PROCEXEC waits for the new image's mapping,
  // which carries its path.
  unmap_all(e.pid, e.time);
  if (unwinder_) unwinder_->forget(e.pid);
  Proc& p = procs_[e.pid];
  p.code.clear();
  p.hit_start = p.hit_end = 0;
  p.exec_pending = true;
  p.threads.insert(e.tid);
}

void Converter::on_fork(const PerfEvent& e) {
  exited_.erase(e.pid);  // a reused pid
  auto parent_comm = comm_.count(e.ptid) ? comm_[e.ptid] : std::string();
  comm_[e.tid] = parent_comm;
  if (e.pid != e.ppid) {
    // The child shares its parent's image until it execs; readers copy the parent's
    // mappings at PROCFORK (as pmcstat does), so they are not announced again, and only
    // mappings announced for this pid get a MAP_OUT.
    auto parent = procs_.find(e.ppid);
    Proc& child = procs_[e.pid];
    child.threads = {e.tid};
    if (parent != procs_.end()) child.code = parent->second.code;  // for the cut check
    if (unwinder_) unwinder_->fork(e.ppid, e.pid);
    child.hit_start = child.hit_end = 0;
    auto r = rv(Kind::procfork);
    r[Field::oldpid] = e.ppid;
    r[Field::newpid] = e.pid;
    sink_.emit(r, e.time);
    emit_proc_create(e.pid, parent_comm, e.time);
  } else {
    procs_[e.pid].threads.insert(e.tid);
  }
  emit_thr_create(e.tid, e.pid, parent_comm, e.time);
}

void Converter::on_exit(const PerfEvent& e) {
  if (modern()) {
    auto r = rv(Kind::thr_exit);
    r[Field::tid] = e.tid;
    sink_.emit(r, e.time);
  }
  auto it = procs_.find(e.pid);
  if (it == procs_.end()) {
    if (e.tid == e.pid) process_gone(e.pid, e.time);
    return;
  }
  it->second.threads.erase(e.tid);
  if (it->second.threads.empty()) process_gone(e.pid, e.time);
}

void Converter::process_gone(uint32_t pid, uint64_t t) {
  finish_exec(pid, false, 0, 0, t);
  unmap_all(pid, t);
  auto r = rv(Kind::sysexit);
  r[Field::pid] = pid;
  sink_.emit(r, t);
  if (cfg_.counting && pid != deferred_pid_) pending_procexit_[pid] = t;
  procs_.erase(pid);
  if (unwinder_) unwinder_->forget(pid);
  exited_.insert(pid);
}

// A process's final counter values (PERF_RECORD_READ of each inherited per-CPU event) can be
// merged after its EXIT: its PROCEXIT waits until the stream has moved well past the exit.
void Converter::emit_due_procexits(uint64_t now, bool all) {
  constexpr uint64_t kSettleNs = 200'000'000;
  for (auto it = pending_procexit_.begin(); it != pending_procexit_.end();) {
    if (all || now > it->second + kSettleNs) {
      emit_procexit(it->first, now);
      it = pending_procexit_.erase(it);
    } else {
      ++it;
    }
  }
}

void Converter::emit_procexit(uint32_t pid, uint64_t t) {
  const auto& tot = totals_[pid];
  for (uint32_t pmcid : cfg_.process_pmcids) {
    size_t idx = cfg_.event_of_pmcid.count(pmcid) ? cfg_.event_of_pmcid.at(pmcid) : 0;
    auto r = rv(Kind::procexit);
    r[Field::pmcid] = pmcid;
    r[Field::pid] = pid;
    r[Field::value] = idx < tot.size() ? tot[idx] : 0;
    sink_.emit(r, t);
  }
}

void Converter::on_counter_values(const PerfEvent& e, bool at_exit) {
  // Values are each thread's own cumulative counts on one CPU's event (inherit + READ);
  // the difference since the thread's previous switch is what it counted in that slice.
  // They are exact and not scaled: time_running < time_enabled here means that the thread
  // ran on other CPUs meanwhile, where their own events counted it (not multiplexing).
  for (const ReadValue& v : e.values) {
    auto it = cfg_.pmcid_of_id.find(v.id);
    if (it == cfg_.pmcid_of_id.end()) continue;  // the context-switch leader itself
    const uint32_t pmcid = it->second;
    const size_t idx = cfg_.event_of_pmcid.count(pmcid) ? cfg_.event_of_pmcid.at(pmcid) : 0;
    uint64_t& last = last_value_[{e.tid, v.id}];
    const uint64_t delta = v.value > last ? v.value - last : 0;
    last = v.value;
    auto& tot = totals_[e.pid];
    if (tot.size() <= idx) tot.resize(idx + 1, 0);
    tot[idx] += delta;
    if (at_exit) {
      // Several READ records of one thread may repeat a value (group reads): keep one.
      child_final_raw_[{e.tid, v.id}] = v.value;
      continue;
    }
    auto r = rv(Kind::proccsw);
    r[Field::pmcid] = pmcid;
    r[Field::pid] = e.pid;
    r[Field::tid] = e.tid;
    r[Field::value] = delta;
    sink_.emit(r, e.time);
    ++stats_.switches;
  }
}

void Converter::finish_deferred(const std::vector<PerfEvent>& final_reads, uint64_t t) {
  emit_due_procexits(t, true);
  if (deferred_pid_ == 0) return;
  // The root's own final count = what its per-CPU events hold minus what exited
  // descendants handed back to them.
  for (const PerfEvent& e : final_reads) {
    for (const ReadValue& v : e.values) {
      auto it = cfg_.pmcid_of_id.find(v.id);
      if (it == cfg_.pmcid_of_id.end()) continue;
      const size_t idx =
          cfg_.event_of_pmcid.count(it->second) ? cfg_.event_of_pmcid.at(it->second) : 0;
      uint64_t children = 0;
      for (const auto& [key, value] : child_final_raw_)
        if (key.second == v.id) children += value;
      const uint64_t own = v.value > children ? v.value - children : 0;
      uint64_t& last = last_value_[{deferred_pid_, v.id}];
      auto& tot = totals_[deferred_pid_];
      if (tot.size() <= idx) tot.resize(idx + 1, 0);
      if (own > last) tot[idx] += own - last;
      last = own;
    }
  }
  emit_procexit(deferred_pid_, t);
}

std::string Converter::name_of(uint32_t tid) const {
  auto it = comm_.find(tid);
  return it == comm_.end() ? std::string() : it->second;
}

void Converter::add_child(pid_t pid, uint64_t now) {
  const auto upid = static_cast<uint32_t>(pid);
  Proc& p = procs_[upid];
  p.threads.insert(upid);
  // Still our fork, so still our name until its exec (COMM) renames it.
  const std::string comm = proc_comm(pid);
  comm_[upid] = comm;
  emit_proc_create(upid, comm, now);
  emit_thr_create(upid, upid, comm, now);
}

void Converter::add_idle_task(uint64_t now) {
  procs_[0].threads.insert(0);
  comm_[0] = "swapper";
  emit_proc_create(0, comm_[0], now);
  emit_thr_create(0, 0, comm_[0], now);
}

void Converter::add_existing_process(pid_t pid, uint64_t now, bool announce_threads) {
  const auto upid = static_cast<uint32_t>(pid);
  Proc& p = procs_[upid];
  const std::string comm = proc_comm(pid);
  if (announce_threads) emit_proc_create(upid, comm, now);
  for (pid_t tid : proc_threads(pid)) {
    const auto utid = static_cast<uint32_t>(tid);
    p.threads.insert(utid);
    std::string tcomm = proc_comm(tid);  // /proc/TID works for any thread id
    if (tcomm.empty()) tcomm = comm;
    comm_[utid] = tcomm;
    if (announce_threads) emit_thr_create(utid, upid, tcomm, now);
  }
  for (const ProcMapping& m : read_proc_maps(pid)) {
    if (!m.exec) continue;
    emit_map_in(upid, m.start, m.end, m.path.empty() ? "//anon" : m.path, now);
    if (unwinder_) unwinder_->map(upid, m.start, m.end, m.offset, m.path);
  }
}

}  // namespace record
