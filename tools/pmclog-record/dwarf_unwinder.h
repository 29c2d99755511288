// User-space call stacks from a copy of the stack and the registers at a sample (perf's
// PERF_SAMPLE_STACK_USER and PERF_SAMPLE_REGS_USER), unwound with elfutils' libdwfl over the
// CFI of each object (.eh_frame, .debug_frame, a separate debug file found by build id).
//
// A chain never goes on with a guessed frame: libdwfl falls back to the frame pointer where
// an address has no CFI, so the unwinder stops at such an address itself (it is the last
// frame) and says why. Each process's objects are reported to one Dwfl, which keeps what it
// parsed (ELF, CFI) from one sample to the next until the process's mappings change.
//
// x86-64 only (the registers asked for and their DWARF numbers); elsewhere available() is
// false and the recorder keeps frame-pointer chains. Not thread-safe: one recorder thread.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace record {

// Why a chain stopped; `complete` when the unwinder reached the outermost frame.
enum class UnwindStop : uint8_t {
  complete,
  no_cfi,          // an address with no CFI in its object (and no frame pointer is trusted)
  no_object,       // an address in no known executable mapping
  unreadable,      // the object's file could not be opened or read
  stack_too_small, // the CFI needs stack beyond the copy (--call-graph dwarf,BYTES)
  depth_limit,     // the chain reached --depth
  no_registers,    // the sample has no user registers (a kernel thread, a process exiting)
  other,           // libdwfl gave up for another reason (a bad CFI, a loop)
};
inline constexpr size_t kUnwindStops = 8;
const char* unwind_stop_name(UnwindStop s);  // "no CFI for this address", ...

// The registers perf is asked for (sample_regs_user), in perf's order (PERF_REG_X86_*):
// AX BX CX DX SI DI BP SP IP, then R8..R15. The kernel writes them in mask bit order.
uint64_t unwind_register_mask();

struct UserRegisters {
  // By perf register number (PERF_REG_X86_*): the values the kernel wrote for the mask.
  std::array<uint64_t, 24> perf{};
  bool valid = false;  // the sample carried user registers (PERF_SAMPLE_REGS_ABI_64)
  uint64_t ip() const;
  uint64_t sp() const;
};
// The sample's REGS_USER words (after the ABI word) in mask bit order, into `out`.
UserRegisters user_registers(uint64_t abi, std::span<const uint64_t> words);

class DwarfUnwinder {
 public:
  DwarfUnwinder();
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  static bool available();  // this architecture is supported

  // An executable mapping of `path` at [start, end) from file offset pgoff in process pid.
  void map(uint32_t pid, uint64_t start, uint64_t end, uint64_t pgoff, const std::string& path);
  void fork(uint32_t parent, uint32_t child);  // the child starts with the parent's mappings
  void forget(uint32_t pid);                    // exec or exit: the mappings are gone

  // The pcs from the sampled one outwards (return addresses after the first), at most
  // `max` of them, into `out` (cleared first). `stack` is the copy of the stack from the
  // sampled SP up.
  UnwindStop unwind(uint32_t pid, uint32_t tid, const UserRegisters& regs,
                    std::span<const uint8_t> stack, size_t max, std::vector<uint64_t>& out);

  struct Process;

 private:
  Process& process(uint32_t pid);
  std::unordered_map<uint32_t, std::unique_ptr<Process>> procs_;
};

}  // namespace record
