#include "synth_model.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cpu_buffers.h"
#include "pmclog/encode.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "pmclog/parts.h"
#include "record_stream.h"
#include "rng.h"
#include "synth_plan.h"
#include "synth_world.h"
#include "tool_error.h"

namespace pmclog::write {

namespace {

constexpr uint32_t kPmcIdInvalid = 0xFFFFFFFFu;  // PROCEXEC of a system-mode owner
constexpr uint32_t kModeSS = 0;                  // system-mode sampling (format.md §9.3)
constexpr uint32_t kProcFlags = 0x10004000;      // p_flag of a running process
using pmclog::kKernelPid;

struct Event {
  uint32_t code;
  uint32_t klass;
  bool soft;           // SOFT class: PMCALLOCATEDYN with a name (L3, M)
  const char* name;
};

// The soft clock the kernel numbers at run time; the log names it (PMCALLOCATEDYN).
constexpr uint32_t kSoftCode = 0x00020006;
constexpr const char* kSoftName = "CLOCK.HARD";

class Model {
 public:
  Model(const SynthOptions& opt, RecordStream& stream)
      : opt_(opt), abi_(opt.abi), world_(opt.abi, opt.seed), rng_(mix(opt.seed, 0x5a3b1e)),
        out_(stream, opt.abi, opt.cpus, opt.cpu_buffer_size), stream_(stream),
        planner_(opt.abi, world_) {
    hdr_ = static_cast<uint32_t>(abi_.header_size());
    epoch_ = 1700000000u + rng_.below(86400u * 365u);
    tsc0_ = uint64_t{rng_.below(1u << 30)} << 12;
    next_pid_ = 600 + rng_.below(2000);
    next_tid_ = 100000 + rng_.below(1000);
    teardown_records_ = 1;  // CLOSELOG
    teardown_bytes_ = fixed(Kind::closelog);
  }

  void run();

 private:
  struct Proc {
    uint32_t pid;
    uint32_t program;
    uint32_t cpu;
    std::vector<Mapping> maps;
    std::vector<uint32_t> tids;
    uint64_t counter = 0;  // the PMC's value for this process, for PROCCSW / PROCEXIT
    std::string comm;
  };

  bool modern() const { return !abi_.legacy(); }
  bool has_maps() const { return abi_.generation != Generation::L1; }
  uint32_t fixed(Kind k) const { return planner_.fixed(k); }

  uint32_t pmcid(uint32_t cpu, uint32_t klass, uint32_t row) const {
    return make_pmcid(PmcIdParts{cpu, kModeSS, klass, row, false}, abi_.generation);
  }
  // From a table made once the events are known: packing the id for every sample was 3%.
  uint32_t event_pmcid(uint32_t e, uint32_t cpu) const {
    if (cpu < opt_.cpus && size_t{e} * opt_.cpus + cpu < pmcids_.size())
      return pmcids_[size_t{e} * opt_.cpus + cpu];
    return pmcid(cpu, events_[e].klass, e);
  }

  // The clock: about 10k samples per second per CPU, with jitter.
  void tick(uint64_t mean_ns) { now_ns_ += 1 + rng_.below(static_cast<uint32_t>(2 * mean_ns)); }
  RecordValue& start(Kind k) {
    rv_.v.fill(0);
    rv_.text.clear();
    rv_.pcs.clear();
    return stamp(k);
  }
  // Kind, length and time only: for CALLCHAIN, whose writer reads no other field than the
  // four sample() sets (clearing all 24 fields was a fifth of the model's own time).
  RecordValue& stamp(Kind k) {
    rv_.kind = k;
    rv_.length = 0;
    if (modern()) {
      rv_.tsc = tsc0_ + now_ns_ * 12 / 5;  // 2.4 GHz
    } else {
      const auto [s, ns] = legacy_timestamp(epoch_ + now_ns_ / 1000000000u, now_ns_ % 1000000000u);
      rv_.ts_sec = s;
      rv_.ts_nsec = ns;
    }
    return rv_;
  }
  void emit(uint32_t cpu) { out_.emit(rv_, cpu); }

  uint64_t records() const { return out_.records(); }
  uint64_t bytes() const { return out_.bytes(); }
  bool fits(uint64_t recs, uint64_t bytes) const {
    if (opt_.records && records() + recs + teardown_records_ > opt_.records) return false;
    if (opt_.size && this->bytes() + bytes + teardown_bytes_ > opt_.size) return false;
    return true;
  }
  bool fits(const SpawnPlan& plan) const { return fits(plan.count(), plan.bytes()); }
  // The records a plan reserves at the end of the log, or frees when it is written.
  void reserve(const RecordPlan& plan) {
    teardown_records_ += plan.count();
    teardown_bytes_ += plan.bytes();
  }
  void release(const RecordPlan& plan) {
    teardown_records_ -= plan.count();
    teardown_bytes_ -= plan.bytes();
  }

  void setup();
  // Starts `program` as planned (RecordPlanner::spawn) and reserves its exit. parent: index
  // into procs_, or ~0u for the shell.
  void spawn(uint32_t parent, uint32_t program, const SpawnPlan& plan);
  void write_spawn_record(const PlannedRecord& r, const Proc& p, uint32_t parent);
  void exit_proc(size_t i);
  void write_exit_record(const PlannedRecord& r, const Proc& p);
  bool sample();
  void ibs_parts(std::vector<uint64_t>& frames, bool kernel);
  void context_switch(Proc& p);
  void thread_create(Proc& p);
  void thread_exit(Proc& p);

  const SynthOptions& opt_;
  Abi abi_;
  World world_;
  Rng rng_;
  CpuBuffers out_;
  RecordStream& stream_;
  RecordPlanner planner_;
  RecordValue rv_;
  std::vector<Event> events_;
  std::vector<uint32_t> pmcids_;  // event_pmcid(e, cpu) at e * cpus + cpu
  std::vector<Proc> procs_;
  uint32_t hdr_ = 12;
  uint64_t epoch_ = 0, tsc0_ = 0, now_ns_ = 0;
  uint32_t next_pid_ = 0, next_tid_ = 0;
  uint64_t teardown_records_ = 0, teardown_bytes_ = 0;
};

void Model::setup() {
  const Machine& m = world_.machine();
  start(Kind::initialize);
  rv_[Field::version] = m.version;
  rv_[Field::arch] = m.cputype;
  if (modern()) {
    rv_[Field::tsc_freq] = m.tsc_freq;
    rv_[Field::init_ts_sec] = epoch_;
    rv_[Field::init_ts_nsec] = rng_.below(1000000000u);
    rv_.text = m.cpuid;
  }
  emit(0);

  // Events: the machine's hardware counters (taken again from the first when --events asks
  // for more than it has), and with two or more a software clock where the generation has
  // PMCALLOCATEDYN.
  const bool dyn = abi_.generation == Generation::L3 || modern();
  const uint32_t soft_class = modern() ? 0x0F : 13;  // SOFT (format.md §9.3)
  for (uint32_t e = 0; e < opt_.events; ++e) {
    if (dyn && opt_.events >= 2 && e + 1 == opt_.events) {
      events_.push_back({kSoftCode, soft_class, true, kSoftName});
    } else {
      const HwEvent& h = m.events[e % m.events.size()];
      events_.push_back({h.code, h.klass, false, ""});
    }
  }
  for (uint32_t e = 0; e < events_.size(); ++e)
    for (uint32_t c = 0; c < opt_.cpus; ++c) pmcids_.push_back(pmcid(c, events_[e].klass, e));
  const uint32_t flags = abi_.generation == Generation::L1 ? 0x00020000u : 0x00020080u;
  for (uint32_t e = 0; e < events_.size(); ++e) {
    for (uint32_t c = 0; c < opt_.cpus; ++c) {
      tick(2000);
      start(events_[e].soft ? Kind::pmcallocatedyn : Kind::pmcallocate);
      rv_[Field::pmcid] = event_pmcid(e, c);
      rv_[Field::event] = events_[e].code;
      rv_[Field::flags] = flags;
      rv_[Field::rate] = 65536;
      rv_.text = events_[e].name;
      emit(0);
      out_.despatch(0);  // PMCALLOCATE ends with a synchronous despatch (format.md §11)
    }
  }
  if (has_maps()) {
    for (const Mapping& km : world_.kernel_maps()) {
      tick(1000);
      start(Kind::map_in);
      rv_[Field::pid] = kKernelPid;
      rv_[Field::start] = km.base;
      rv_.text = world_.objects()[km.object].path;
      emit(0);
    }
  }
  out_.despatch(0);

  // The shell was running before logging began: it is announced, not forked.
  spawn(~0u, world_.shell_program(), planner_.spawn(world_.shell_program(), false));
  for (uint32_t i = 1; i < opt_.processes; ++i) {
    const uint32_t prog = 1 + rng_.below(static_cast<uint32_t>(world_.programs().size()) - 1);
    const SpawnPlan plan = planner_.spawn(prog, true);
    if (!fits(plan)) break;
    spawn(0, prog, plan);
  }
  if (!fits(0, 0)) {
    // The budget asked for the impossible: a usage error. The setup is a few KiB, still in
    // memory: nothing has reached the output.
    throw tools::UsageError(
        (opt_.records ? "-n/--records " + std::to_string(opt_.records)
                      : "-s/--size " + std::to_string(opt_.size)) +
        ": the log cannot be that small: the setup alone takes " +
        std::to_string(records() + teardown_records_) + " records and " +
        std::to_string(bytes() + teardown_bytes_) + " bytes");
  }
}

void Model::spawn(uint32_t parent, uint32_t program, const SpawnPlan& plan) {
  const Program& prog = world_.programs()[program];
  Proc p;
  next_pid_ += 1 + rng_.below(8);
  p.pid = next_pid_;
  p.program = program;
  p.cpu = rng_.below(opt_.cpus);
  p.maps = world_.place(program, rng_);
  p.tids.push_back(next_tid_++);
  p.comm = parent == ~0u ? prog.comm : procs_[parent].comm;  // fork copies p_comm
  tick(plan.spawn.tick_ns);
  for (const PlannedRecord& r : plan.spawn.records) {
    if (r.tick_ns) tick(r.tick_ns);
    write_spawn_record(r, p, parent);
  }
  p.comm = prog.comm;  // exec names it after the image (the shell already was)
  reserve(plan.exit);
  procs_.push_back(std::move(p));
}

void Model::write_spawn_record(const PlannedRecord& r, const Proc& p, uint32_t parent) {
  uint32_t cpu = p.cpu;
  start(r.kind);
  switch (r.kind) {
    case Kind::procfork:
      rv_[Field::oldpid] = procs_[parent].pid;
      rv_[Field::newpid] = p.pid;
      cpu = procs_[parent].cpu;  // the parent forks
      break;
    case Kind::proc_create:
      rv_[Field::pid] = p.pid;
      rv_[Field::flags] = kProcFlags;
      rv_.text = p.comm;
      break;
    case Kind::thr_create:
      rv_[Field::tid] = p.tids[0];
      rv_[Field::pid] = p.pid;
      rv_[Field::flags] = kProcFlags;
      rv_.text = p.comm;
      break;
    case Kind::procexec: {
      rv_[Field::pid] = p.pid;
      rv_[Field::pmcid] = kPmcIdInvalid;
      // The runtime linker's entry point (AT_BASE side); M10 adds the executable's base.
      const Mapping& rtld = p.maps[1];
      rv_[Field::entryaddr] = rtld.base + world_.objects()[rtld.object].func_start[0];
      rv_[Field::dynaddr] = p.maps[0].base;
      rv_.text = *r.path;
      break;
    }
    case Kind::map_in:
      rv_[Field::pid] = p.pid;
      rv_[Field::start] = p.maps[r.index].base;
      rv_.text = *r.path;
      break;
    default:
      break;
  }
  emit(cpu);
}

void Model::exit_proc(size_t i) {
  const Proc& p = procs_[i];
  const RecordPlan plan = planner_.exit(p.tids.size(), p.maps.size());
  release(plan);
  tick(plan.tick_ns);
  for (const PlannedRecord& r : plan.records) {
    if (r.tick_ns) tick(r.tick_ns);
    write_exit_record(r, p);
  }
  procs_.erase(procs_.begin() + static_cast<long>(i));
}

void Model::write_exit_record(const PlannedRecord& r, const Proc& p) {
  start(r.kind);
  switch (r.kind) {
    case Kind::thr_exit:
      rv_[Field::tid] = p.tids[r.index];
      break;
    case Kind::map_out:
      rv_[Field::pid] = p.pid;
      rv_[Field::start] = p.maps[r.index].base;
      rv_[Field::end] = p.maps[r.index].end();
      break;
    case Kind::procexit:
      rv_[Field::pmcid] = event_pmcid(0, p.cpu);
      rv_[Field::pid] = p.pid;
      rv_[Field::value] = p.counter;
      break;
    case Kind::sysexit:
      rv_[Field::pid] = p.pid;
      break;
    default:
      break;
  }
  emit(p.cpu);
}

bool Model::sample() {
  Proc& p = procs_[rng_.below(static_cast<uint32_t>(procs_.size()))];
  const bool kernel = rng_.below(100) < 25;
  const uint32_t e = rng_.below(100) < 70 ? 0 : rng_.below(static_cast<uint32_t>(events_.size()));
  const uint32_t depth = rng_.between(opt_.depth_min, opt_.depth_max);
  std::vector<uint64_t>& frames = rv_.pcs;  // filled in place; start() keeps it
  world_.chain(kernel ? world_.kernel_maps() : p.maps, kernel ? World::kKernelSpace : p.program,
               depth, rng_, frames);
  const uint32_t tid = p.tids[rng_.below(static_cast<uint32_t>(p.tids.size()))];
  p.counter += 1000 + rng_.below(100000);
  if (abi_.generation == Generation::L1) {
    if (!fits(1, fixed(Kind::pcsample))) return false;
    const uint64_t pc = frames[0];
    tick(100000 / opt_.cpus);
    start(Kind::pcsample);
    rv_[Field::pid] = p.pid;
    rv_[Field::pc] = pc;
    rv_[Field::pmcid] = event_pmcid(e, p.cpu);
    rv_[Field::usermode] = kernel ? 0 : 1;
    emit(p.cpu);
    return true;
  }
  const bool multipart = opt_.ibs && rng_.below(100) < 60;
  if (multipart) ibs_parts(frames, kernel);
  if (!fits(1, fixed(Kind::callchain) + frames.size() * abi_.slot_width())) return false;
  tick(100000 / opt_.cpus);
  stamp(Kind::callchain);  // keeps the frames
  rv_[Field::pid] = p.pid;
  rv_[Field::tid] = tid;
  rv_[Field::pmcid] = event_pmcid(e, p.cpu);
  rv_[Field::cpuflags] = p.cpu << 16 | (kernel ? 0 : kCallchainUserspace) |
                         (multipart ? kCallchainMultipart : 0);
  out_.emit_callchain(rv_, p.cpu);
  return true;
}

// Turns the frames into a multipart callchain (format.md §17): an IBS_OP part (or, one time
// in four, IBS_FETCH) whose RIP / linear address is the leaf, then the frames as the CALLCHAIN
// part (at most 255 slots, a u8 length, and within the generation's depth).
void Model::ibs_parts(std::vector<uint64_t>& frames, bool kernel) {
  const uint8_t w = abi_.address_width;
  const uint32_t per = slots_per_u64(w);
  const bool fetch = rng_.below(4) == 0;
  const uint32_t nvals = fetch ? 4 : 8;
  const uint64_t leaf = frames[0];
  const uint64_t data_addr =
      kernel ? 0xfffff80000000000ull + (uint64_t{rng_.below(1u << 30)} << 3)
             : 0x0000000800000000ull + (uint64_t{rng_.below(1u << 28)} << 3);
  const uint64_t phys = uint64_t{rng_.below(1u << 30)} << 6;
  uint64_t vals[8] = {};
  if (fetch) {
    // CTL: valid (bit 49), completed (bit 50), a latency in bits 47..32, the max count
    vals[0] = (uint64_t{3} << 49) | (uint64_t{rng_.below(400)} << 32) | 0xFFFFu;
    vals[1] = rng_.below(64);  // EXTCTL: the instruction tag
    vals[2] = leaf;            // LINADDR: the fetched instruction
    vals[3] = phys;
  } else {
    vals[0] = (uint64_t{1} << 18) | (uint64_t{1} << 17) | 0x1000u;  // CTL: valid, enabled
    vals[1] = leaf;                                                  // RIP
    vals[2] = uint64_t{rng_.below(200)} | (uint64_t{rng_.below(2)} << 35);  // DATA
    vals[3] = rng_.below(8);                                        // DATA2
    vals[4] = rng_.below(2) ? 1u | (uint64_t{rng_.below(300)} << 32) : 2u;  // DATA3
    vals[5] = data_addr;
    vals[6] = phys;
    vals[7] = 0;  // TGT_RIP: never written by the kernel
  }
  // w == 4: the values' upper halves are what a 32-bit producer's MSR reads would give;
  // addresses there are 32-bit.
  if (w == 4) {
    for (uint32_t k : {fetch ? 2u : 1u, fetch ? 3u : 5u, 6u}) vals[k] &= 0xFFFFFFFFu;
  }
  std::array<PartSpec, 2> spec;
  spec[0].type = static_cast<uint8_t>(fetch ? PartType::ibs_fetch : PartType::ibs_op);
  spec[0].slots.resize(nvals * per);
  for (uint32_t k = 0; k < nvals; ++k) split_u64(abi_.byte_order, w, vals[k], &spec[0].slots[k * per]);
  const uint32_t room = abi_.callchain_depth_max() - per - nvals * per;
  const size_t keep = std::min<size_t>({frames.size(), 255, room});
  spec[1].type = static_cast<uint8_t>(PartType::callchain);
  spec[1].slots.assign(frames.begin(), frames.begin() + static_cast<long>(keep));
  frames = build_multipart(abi_.byte_order, w, spec);
}

void Model::context_switch(Proc& p) {
  tick(10000);
  start(Kind::proccsw);
  rv_[Field::pmcid] = event_pmcid(0, p.cpu);
  rv_[Field::value] = p.counter;  // grows: the counter only goes up
  rv_[Field::pid] = p.pid;
  rv_[Field::tid] = p.tids[rng_.below(static_cast<uint32_t>(p.tids.size()))];
  emit(p.cpu);
}

void Model::thread_create(Proc& p) {
  tick(10000);
  p.tids.push_back(next_tid_++);
  start(Kind::thr_create);
  rv_[Field::tid] = p.tids.back();
  rv_[Field::pid] = p.pid;
  rv_[Field::flags] = kProcFlags;
  rv_.text = p.comm;
  emit(p.cpu);
  teardown_records_ += 1;
  teardown_bytes_ += fixed(Kind::thr_exit);
}

void Model::thread_exit(Proc& p) {
  tick(10000);
  const size_t t = 1 + rng_.below(static_cast<uint32_t>(p.tids.size()) - 1);  // not the main one
  start(Kind::thr_exit);
  rv_[Field::tid] = p.tids[t];
  emit(p.cpu);
  p.tids.erase(p.tids.begin() + static_cast<long>(t));
  teardown_records_ -= 1;
  teardown_bytes_ -= fixed(Kind::thr_exit);
}

void Model::run() {
  setup();
  for (;;) {
    const uint32_t r = rng_.below(1000000);
    bool done = false;
    if (r < 2) {  // DROPNOTIFY: the kernel ran out of buffers (rare)
      if (fits(1, fixed(Kind::dropnotify))) {
        tick(1000);
        start(Kind::dropnotify);
        emit(rng_.below(opt_.cpus));
        done = true;
      }
    } else if (r < 400 && procs_.size() > 1) {  // a process exits; the shell starts another
      exit_proc(1 + rng_.below(static_cast<uint32_t>(procs_.size()) - 1));
      done = true;
    } else if (r < 1200 && procs_.size() < opt_.processes) {
      const uint32_t prog = 1 + rng_.below(static_cast<uint32_t>(world_.programs().size()) - 1);
      const SpawnPlan plan = planner_.spawn(prog, true);
      if (fits(plan)) {
        spawn(rng_.below(static_cast<uint32_t>(procs_.size())), prog, plan);
        done = true;
      }
    } else if (r < 4000 && modern()) {
      Proc& p = procs_[rng_.below(static_cast<uint32_t>(procs_.size()))];
      if (p.tids.size() < 8 && rng_.below(2) == 0) {
        if (fits(1 + 1, fixed(Kind::thr_create) + fixed(Kind::thr_exit))) {
          thread_create(p);
          done = true;
        }
      } else if (p.tids.size() > 1) {
        thread_exit(p);
        done = true;
      }
    } else if (r < 25000) {
      if (fits(1, fixed(Kind::proccsw))) {
        context_switch(procs_[rng_.below(static_cast<uint32_t>(procs_.size()))]);
        done = true;
      }
    }
    if (!done && !sample()) break;
  }
  // Teardown: every process exits, the buffers are flushed, CLOSELOG is last.
  while (!procs_.empty()) exit_proc(procs_.size() - 1);
  out_.finish();
  tick(1000);
  start(Kind::closelog);
  const auto len = encode(rv_, abi_, stream_.pending());
  if (!len.ok()) throw tools::Failure(tools::Exit::io, "internal error: " + len.error().message);
  stream_.added();
}

}  // namespace

void check_synth_options(const SynthOptions& opt) {
  const auto range = [](const char* option, uint64_t v, uint64_t lo, uint64_t hi) {
    if (v < lo || v > hi)
      throw tools::UsageError(fmt::format("{}: '{}' is not {} to {}", option, v, lo, hi));
  };
  range("--events", opt.events, 1, kMaxSynthEvents);
  range("--cpus", opt.cpus, 1, kMaxSynthCpus);
  range("--processes", opt.processes, 1, kMaxSynthProcesses);
  if (opt.records && opt.size)
    throw tools::UsageError("-n/--records and -s/--size cannot be used together: one sets the "
                            "number of records, the other a byte budget");
  const auto depth = fmt::format("{}..{}", opt.depth_min, opt.depth_max);
  if (opt.depth_min == 0 || opt.depth_min > opt.depth_max)
    throw tools::UsageError("--depth: '" + depth + "' is not MIN..MAX with 1 <= MIN <= MAX");
  if (opt.abi.generation != Generation::L1 && opt.depth_max > opt.abi.callchain_depth_max())
    throw tools::UsageError(fmt::format("--depth: '{}' is too deep: generation {} allows at most "
                                        "{} frames", depth, generation_name(opt.abi.generation),
                                        opt.abi.callchain_depth_max()));
  if (opt.ibs && opt.abi.legacy())
    throw tools::UsageError("--ibs: multipart callchains exist only in modern logs "
                            "(--generation M9 or M10)");
}

void run_synth(const SynthOptions& opt, RecordStream& stream) {
  check_synth_options(opt);
  Model m(opt, stream);
  m.run();
}

}  // namespace pmclog::write
