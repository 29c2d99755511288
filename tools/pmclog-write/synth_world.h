// The static part of the synthetic model: the machine (cpu type, address ranges), the
// kernel and its modules, the programs and shared libraries a process may map, each with a
// deterministic table of functions, and the call graph that gives consistent caller chains.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "rng.h"

namespace pmclog::write {

// An executable, shared library or kernel image: its text is a run of functions.
struct Object {
  std::string path;
  std::vector<uint32_t> func_start;  // offsets; function i spans [start[i], start[i+1])
  uint32_t text_size = 0;            // = func_start.back() end, rounded to a page
  uint32_t nfuncs() const { return static_cast<uint32_t>(func_start.size()); }
  uint32_t func_end(uint32_t f) const {
    return f + 1 < nfuncs() ? func_start[f + 1] : text_size;
  }
};

struct Program {
  uint32_t object;            // index into World::objects()
  std::string comm;           // p_comm, at most 19 characters (MAXCOMLEN, format.md §10)
  std::vector<uint32_t> libs; // objects mapped after the runtime linker, in load order
};

// Where an object sits in one address space.
struct Mapping {
  uint32_t object;
  uint64_t base;
  uint64_t size;
  uint64_t end() const { return base + size; }  // one past the last byte
};

// A hardware event the simulated CPU samples: its code in the era's numbering (one that the
// era's libpmc names for the machine's cputype, pmclog/event_names.h; tests/write checks
// each) and the PMC class the kernel allocates it in (format.md §9.3).
struct HwEvent {
  uint32_t code;
  uint32_t klass;
};

// The simulated machine: the values INITIALIZE carries (format.md §8, §9.4) and the events
// its CPU has, so that cputype, cpuid and event codes always agree.
struct Machine {
  uint32_t version;    // PMC_VERSION of the generation
  uint32_t cputype;
  std::string cpuid;   // modern only
  uint64_t tsc_freq;   // 0 on non-x86 (format.md §8)
  std::span<const HwEvent> events;  // in the order --events takes them
};

class World {
 public:
  World(const Abi& abi, uint64_t seed);

  const Machine& machine() const { return machine_; }
  const std::vector<Object>& objects() const { return objects_; }
  const std::vector<Program>& programs() const { return programs_; }
  const std::vector<Mapping>& kernel_maps() const { return kernel_maps_; }
  uint32_t rtld() const { return rtld_; }
  uint32_t shell_program() const { return 0; }

  // The objects a process running `program` maps, in order: executable, runtime linker,
  // then its libraries.
  std::vector<uint32_t> address_space(uint32_t program) const;
  // Where they go in a new process: address_space() with a little per-process placement
  // jitter.
  std::vector<Mapping> place(uint32_t program, Rng& rng) const;

  // One sample's frames, innermost first. `maps` is the process's address space (or the
  // kernel's). Leaves follow a Zipf-like popularity over functions; callers are a fixed
  // function of the callee, so the same leaf always has the same chain; a chain shorter than
  // `depth` is lengthened by recursion of the leaf's caller, a longer one is cut (the
  // kernel's capture depth).
  // `space` names the layout of `maps`: the program index, or kKernelSpace.
  static constexpr uint32_t kKernelSpace = 0xFFFF;
  void chain(const std::vector<Mapping>& maps, uint32_t space, uint32_t depth, Rng& rng,
             std::vector<uint64_t>& out) const;

 private:
  struct Frame { uint32_t map; uint32_t func; };
  Frame pick_leaf(const std::vector<Mapping>& maps, bool kernel, Rng& rng) const;
  bool caller(const std::vector<Mapping>& maps, bool kernel, Frame f, Frame& up) const;
  uint64_t call_site(const std::vector<Mapping>& maps, Frame caller, Frame callee) const;
  uint32_t zipf(uint32_t object, Rng& rng) const;  // a popularity rank in the object
  // A function's caller inside its own object and the return address there (an offset in
  // the object): what caller() and call_site() give for it, made once. Most frames of a
  // chain are such calls: a lookup each instead of two hashes and four dependent loads.
  struct Up {
    uint32_t func;
    uint32_t ret;
  };
  std::vector<std::vector<Up>> up_;  // per object, per function (entry 0 unused)

  Abi abi_;
  uint64_t seed_;
  Machine machine_;
  std::vector<Object> objects_;
  std::vector<Program> programs_;
  std::vector<Mapping> kernel_maps_;
  uint32_t rtld_ = 0;
  // Per object: popularity rank -> function, a fixed permutation (rank * stride + 7) mod n
  // with the stride coprime with n, tabled (the division was a third of pick_leaf's time).
  std::vector<std::vector<uint16_t>> by_rank_;
  std::vector<uint64_t> zipf_cdf_;  // cumulative 2^32/(i+1) weights
  // Per object, the first rank of each 1/kGuide slice of the weights: zipf() scans on from
  // there, a rank or so.
  static constexpr uint32_t kGuideBits = 12;
  static constexpr uint32_t kGuide = 1u << kGuideBits;
  std::vector<std::vector<uint16_t>> zipf_guide_;
};

}  // namespace pmclog::write
