#include "dwarf_unwinder.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "pmcprofile/find_debuginfo.h"
#include "proc_info.h"

namespace record {

namespace {

// perf's x86 register numbers (asm/perf_regs.h): AX BX CX DX SI DI BP SP IP = 0..8,
// R8..R15 = 16..23.
constexpr int kPerfIp = 8, kPerfSp = 7;
// DWARF's x86-64 numbering (the psABI) is RAX RDX RCX RBX RSI RDI RBP RSP, R8..R15, RIP:
// the perf register behind each DWARF one.
constexpr int kPerfOfDwarf[17] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, kPerfIp};

// The kernel's own code, the vDSO, has no file: this process's copy (the same kernel's) is
// written once to an anonymous file that libdwfl can open.
int vdso_fd() {
  static const int fd = [] {
    const auto base = static_cast<uintptr_t>(getauxval(AT_SYSINFO_EHDR));
    if (base == 0) return -1;
    for (const ProcMapping& m : read_proc_maps(getpid())) {
      if (m.path != "[vdso]") continue;
      if (m.start != base || m.end <= m.start) return -1;
      const int f = memfd_create("vdso", MFD_CLOEXEC);
      if (f < 0) return -1;
      const size_t n = m.end - m.start;
      if (::write(f, reinterpret_cast<const void*>(m.start), n) != static_cast<ssize_t>(n)) {
        ::close(f);
        return -1;
      }
      return f;
    }
    return -1;
  }();
  return fd;
}

// Debug files (for .debug_frame) by build id and .gnu_debuglink, on this machine only unless
// DEBUGINFOD_URLS names a server: the standard search would load a debuginfod client
// (libcurl and some thirty libraries) into the recorder at its first missing debug file.
char* g_debuginfo_path = nullptr;
const Dwfl_Callbacks kDwflCallbacks = {
    dwfl_build_id_find_elf, pmcprofile::find_local_debuginfo, dwfl_offline_section_address,
    &g_debuginfo_path};

}  // namespace

const char* unwind_stop_name(UnwindStop s) {
  switch (s) {
    case UnwindStop::complete: return "complete";
    case UnwindStop::no_cfi: return "no CFI for this address";
    case UnwindStop::no_object: return "address in no known object";
    case UnwindStop::unreadable: return "object unreadable";
    case UnwindStop::stack_too_small: return "stack copy too small";
    case UnwindStop::depth_limit: return "depth limit";
    case UnwindStop::no_registers: return "no user registers";
    case UnwindStop::other: return "unwinding failed";
  }
  return "?";
}

uint64_t unwind_register_mask() {
  uint64_t m = 0;
  for (int r = 0; r <= kPerfIp; ++r) m |= uint64_t{1} << r;
  for (int r = 16; r <= 23; ++r) m |= uint64_t{1} << r;
  return m;
}

uint64_t UserRegisters::ip() const { return perf[kPerfIp]; }
uint64_t UserRegisters::sp() const { return perf[kPerfSp]; }

UserRegisters user_registers(uint64_t abi, std::span<const uint64_t> words) {
  UserRegisters r;
  constexpr uint64_t kAbi64 = 2;  // PERF_SAMPLE_REGS_ABI_64
  if (abi != kAbi64) return r;
  const uint64_t mask = unwind_register_mask();
  size_t k = 0;
  for (int bit = 0; bit < 24 && k < words.size(); ++bit)
    if (mask >> bit & 1) r.perf[static_cast<size_t>(bit)] = words[k++];
  r.valid = k == static_cast<size_t>(__builtin_popcountll(mask));
  return r;
}

struct DwarfUnwinder::Process {
  struct Map {
    uint64_t end, pgoff;
    std::string path;
    bool readable = true;
  };
  uint32_t pid = 0;
  std::map<uint64_t, Map> maps;  // by start
  Dwfl* dwfl = nullptr;
  bool stale = true;  // maps changed since dwfl was built
  std::unordered_map<uint64_t, bool> has_cfi;  // by looked-up address, for this dwfl
  // The sample being unwound.
  uint32_t tid = 0;
  const UserRegisters* regs = nullptr;
  std::span<const uint8_t> stack;
  uint64_t missed = 0;  // an address read outside the copy (0: none)

  ~Process() { drop(); }
  void drop() {
    if (dwfl) dwfl_end(dwfl);
    dwfl = nullptr;
    has_cfi.clear();
    stale = true;
  }
  bool build();
  const Map* map_of(uint64_t pc) const {
    auto it = maps.upper_bound(pc);
    if (it == maps.begin()) return nullptr;
    --it;
    return pc < it->second.end ? &it->second : nullptr;
  }
  bool cfi_at(Dwfl_Module* m, uint64_t at);
};

namespace {

using Process = DwarfUnwinder::Process;

pid_t next_thread(Dwfl*, void* arg, void** thread_arg) {
  if (*thread_arg != nullptr) return 0;
  *thread_arg = arg;
  return static_cast<pid_t>(static_cast<Process*>(arg)->tid);
}

bool get_thread(Dwfl*, pid_t tid, void* arg, void** thread_arg) {
  if (static_cast<uint32_t>(tid) != static_cast<Process*>(arg)->tid) return false;
  *thread_arg = arg;
  return true;
}

bool memory_read(Dwfl*, Dwarf_Addr addr, Dwarf_Word* result, void* arg) {
  auto& p = *static_cast<Process*>(arg);
  const uint64_t sp = p.regs->sp();
  if (addr >= sp && addr - sp + sizeof(Dwarf_Word) <= p.stack.size()) {
    std::memcpy(result, p.stack.data() + (addr - sp), sizeof(Dwarf_Word));
    return true;
  }
  p.missed = addr == 0 ? 1 : addr;
  return false;
}

bool set_initial_registers(Dwfl_Thread* thread, void* arg) {
  const auto& p = *static_cast<Process*>(arg);
  Dwarf_Word dw[17];
  for (size_t d = 0; d < 17; ++d) dw[d] = p.regs->perf[static_cast<size_t>(kPerfOfDwarf[d])];
  if (!dwfl_thread_state_registers(thread, 0, 17, dw)) return false;
  dwfl_thread_state_register_pc(thread, p.regs->ip());
  return true;
}

const Dwfl_Thread_Callbacks kThreadCallbacks = {next_thread, get_thread, memory_read,
                                                set_initial_registers, nullptr, nullptr};

}  // namespace

bool DwarfUnwinder::Process::build() {
  drop();
  stale = false;
  dwfl = dwfl_begin(&kDwflCallbacks);
  if (dwfl == nullptr) return false;
  dwfl_report_begin(dwfl);
  std::set<std::string> reported;  // a file's several executable mappings are one module
  for (auto& [start, m] : maps) {
    if (reported.count(m.path)) continue;
    Dwfl_Module* mod = nullptr;
    if (m.path == "[vdso]") {
      const int fd = vdso_fd();
      if (fd >= 0) mod = dwfl_report_elf(dwfl, "[vdso]", "[vdso]", dup(fd), start, false);
    } else if (!m.path.empty() && m.path[0] == '/') {
      mod = dwfl_report_elf(dwfl, m.path.c_str(), m.path.c_str(), -1, start - m.pgoff, false);
    }
    m.readable = mod != nullptr;
    if (mod) reported.insert(m.path);
  }
  dwfl_report_end(dwfl, nullptr, nullptr);
  if (!dwfl_attach_state(dwfl, nullptr, static_cast<pid_t>(pid), &kThreadCallbacks, this)) {
    drop();
    stale = false;  // nothing to unwind with until the mappings change
    return false;
  }
  return true;
}

// Whether the CFI of `m` describes `at`: if not, libdwfl would take the frame pointer for
// the caller's frame, which in code built without one is a guess.
bool DwarfUnwinder::Process::cfi_at(Dwfl_Module* m, uint64_t at) {
  auto [it, fresh] = has_cfi.try_emplace(at, false);
  if (!fresh) return it->second;
  for (int k = 0; k < 2 && !it->second; ++k) {
    Dwarf_Addr bias = 0;
    Dwarf_CFI* cfi = k == 0 ? dwfl_module_eh_cfi(m, &bias) : dwfl_module_dwarf_cfi(m, &bias);
    Dwarf_Frame* frame = nullptr;
    if (cfi && dwarf_cfi_addrframe(cfi, at - bias, &frame) == 0) {
      std::free(frame);
      it->second = true;
    }
  }
  return it->second;
}

DwarfUnwinder::DwarfUnwinder() = default;
DwarfUnwinder::~DwarfUnwinder() = default;

bool DwarfUnwinder::available() {
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

DwarfUnwinder::Process& DwarfUnwinder::process(uint32_t pid) {
  auto& p = procs_[pid];
  if (!p) {
    p = std::make_unique<Process>();
    p->pid = pid;
  }
  return *p;
}

void DwarfUnwinder::map(uint32_t pid, uint64_t start, uint64_t end, uint64_t pgoff,
                        const std::string& path) {
  Process& p = process(pid);
  // A new mapping replaces what it overlaps, as mmap does.
  for (auto it = p.maps.lower_bound(start); it != p.maps.end() && it->first < end;)
    it = p.maps.erase(it);
  auto before = p.maps.lower_bound(start);
  if (before != p.maps.begin() && std::prev(before)->second.end > start)
    std::prev(before)->second.end = start;
  p.maps[start] = {end, pgoff, path};
  p.stale = true;
}

void DwarfUnwinder::fork(uint32_t parent, uint32_t child) {
  if (parent == child) return;
  auto it = procs_.find(parent);
  if (it == procs_.end()) return;
  Process& c = process(child);
  c.maps = it->second->maps;
  c.stale = true;
}

void DwarfUnwinder::forget(uint32_t pid) { procs_.erase(pid); }

namespace {

struct Walk {
  Process* p;
  size_t max;
  std::vector<uint64_t>* out;
  UnwindStop stop = UnwindStop::complete;
};

// Whether `at` lies in the first bytes of its object's entry point (the code before the
// entry's first call returns).
bool at_entry(Dwfl_Module* m, uint64_t at) {
  Dwarf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(m, &bias);
  GElf_Ehdr ehdr;
  if (elf == nullptr || gelf_getehdr(elf, &ehdr) == nullptr || ehdr.e_entry == 0) return false;
  const uint64_t entry = ehdr.e_entry + bias;
  return at >= entry && at < entry + 32;
}

int on_frame(Dwfl_Frame* state, void* arg) {
  Walk& w = *static_cast<Walk*>(arg);
  Dwarf_Addr pc = 0;
  bool activation = false;
  if (!dwfl_frame_pc(state, &pc, &activation)) {
    w.stop = UnwindStop::other;
    return DWARF_CB_ABORT;
  }
  w.out->push_back(pc);
  if (w.out->size() >= w.max) {
    w.stop = UnwindStop::depth_limit;
    return DWARF_CB_ABORT;
  }
  // The caller of this frame comes from the CFI at its pc (a return address: the call
  // instruction before it).
  const uint64_t at = activation ? pc : pc - 1;
  Dwfl_Module* m = dwfl_addrmodule(w.p->dwfl, at);
  if (m == nullptr) {
    const auto* map = w.p->map_of(at);
    w.stop = map && !map->readable ? UnwindStop::unreadable : UnwindStop::no_object;
    return DWARF_CB_ABORT;
  }
  if (!w.p->cfi_at(m, at)) {
    // The run-time linker's entry code has no CFI: it is the first frame of the process,
    // and a chain that reaches it is whole.
    w.stop = at_entry(m, at) ? UnwindStop::complete : UnwindStop::no_cfi;
    return DWARF_CB_ABORT;
  }
  return DWARF_CB_OK;
}

}  // namespace

UnwindStop DwarfUnwinder::unwind(uint32_t pid, uint32_t tid, const UserRegisters& regs,
                                 std::span<const uint8_t> stack, size_t max,
                                 std::vector<uint64_t>& out) {
  out.clear();
  if (!regs.valid) return UnwindStop::no_registers;
  if (max == 0) return UnwindStop::depth_limit;
  Process& p = process(pid);
  if (p.stale) p.build();
  if (p.dwfl == nullptr) {
    out.push_back(regs.ip());
    const auto* map = p.map_of(regs.ip());
    return map && !map->readable ? UnwindStop::unreadable : UnwindStop::no_object;
  }
  p.tid = tid;
  p.regs = &regs;
  p.stack = stack;
  p.missed = 0;
  Walk w{&p, max, &out};
  const int rc = dwfl_getthread_frames(p.dwfl, static_cast<pid_t>(tid), on_frame, &w);
  if (out.empty()) out.push_back(regs.ip());
  if (rc == DWARF_CB_ABORT) return w.stop;
  // libdwfl ends a walk whose next frame it cannot read as if it were complete: a read past
  // the copy's end says otherwise. (Reads just below the sampled SP also fail, at the end
  // of walks that reached the program's entry; no caller's frame lies below SP.)
  if (p.missed >= regs.sp() + stack.size()) return UnwindStop::stack_too_small;
  return rc == 0 ? w.stop : UnwindStop::other;
}

}  // namespace record
