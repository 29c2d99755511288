#include "synth_world.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace pmclog::write {

namespace {

struct ObjectDecl {
  const char* path;
  uint32_t nfuncs;
};

// Plausible FreeBSD objects. Indices below are used by the program table.
constexpr ObjectDecl kObjects[] = {
    {"/boot/kernel/kernel", 3000},                   // 0
    {"/boot/kernel/zfs.ko", 1200},                   // 1
    {"/boot/kernel/tmpfs.ko", 150},                  // 2
    {"/boot/kernel/nullfs.ko", 80},                  // 3
    {"/libexec/ld-elf.so.1", 300},                   // 4
    {"/lib/libc.so.7", 1500},                        // 5
    {"/lib/libthr.so.3", 300},                       // 6
    {"/lib/libm.so.5", 400},                         // 7
    {"/lib/libz.so.6", 150},                         // 8
    {"/usr/lib/libc++.so.1", 1200},                  // 9
    {"/lib/libcxxrt.so.1", 200},                     // 10
    {"/lib/libgcc_s.so.1", 150},                     // 11
    {"/lib/libutil.so.9", 120},                      // 12
    {"/usr/lib/libssl.so.111", 700},                 // 13
    {"/lib/libcrypto.so.111", 2000},                 // 14
    {"/usr/local/lib/libpython3.11.so.1.0", 3000},   // 15
    {"/lib/libedit.so.8", 250},                      // 16
    {"/lib/libncursesw.so.9", 400},                  // 17
    {"/lib/liblzma.so.5", 300},                      // 18
    {"/usr/lib/libpmc.so.5", 200},                   // 19
    {"/lib/libelf.so.2", 200},                       // 20
    {"/bin/sh", 250},                                // 21
    {"/usr/bin/make", 400},                          // 22
    {"/usr/bin/cc", 4000},                           // 23
    {"/usr/local/bin/python3.11", 40},               // 24
    {"/usr/sbin/sshd", 600},                         // 25
    {"/usr/bin/grep", 150},                          // 26
    {"/usr/local/bin/postgres", 3500},               // 27
    {"/usr/bin/xz", 120},                            // 28
    {"/usr/sbin/pmcstat", 300},                      // 29
    {"/usr/local/bin/nginx", 1100},                  // 30
};
constexpr uint32_t kKernelObjects = 4;  // kernel and modules come first
constexpr uint32_t kRtld = 4;

struct ProgramDecl {
  uint32_t object;
  const char* comm;
  std::vector<uint32_t> libs;
};

const std::vector<ProgramDecl>& program_decls() {
  static const std::vector<ProgramDecl> p = {
      {21, "sh", {16, 17, 5}},  // the shell comes first: it forks the others
      {22, "make", {5}},
      {23, "cc", {9, 10, 11, 7, 8, 6, 5}},
      {24, "python3.11", {15, 12, 7, 6, 5}},
      {25, "sshd", {14, 8, 12, 5}},
      {26, "grep", {8, 5}},
      {27, "postgres", {13, 14, 7, 6, 5}},
      {28, "xz", {18, 6, 5}},
      {29, "pmcstat", {19, 20, 7, 9, 10, 11, 5}},
      {30, "nginx", {13, 14, 8, 6, 5}},
  };
  return p;
}

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// One multiplication per hash for the per-frame choices; the high half is well mixed.
uint64_t quick_hash(uint64_t a, uint64_t b) {
  const uint64_t z = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xD6E8FEB86659FD93ull;
  return z ^ (z >> 29);
}

// A hash reduced to [0, n) by multiply-shift: no division on the per-frame path.
uint32_t reduce(uint64_t h, uint32_t n) {
  return static_cast<uint32_t>(((h >> 32) * n) >> 32);
}

// Event codes (enum pmc_event of the era, format.md §12.1) with the class that counts them.
// Legacy classes are 9.3's implicit enum order (TSC 0, IAF 6, IAP 7: the golden log's ids),
// modern ones explicit (K8 2, format.md §9.3).
constexpr uint32_t kTsc = 0x1000;
constexpr uint32_t kClassTsc = 0, kClassK8 = 2, kClassIaf = 6, kClassIap = 7;
constexpr uint32_t kIap = 0x10080;  // + the event's index in 9.3's IAP list (event_names)

// The programmable Intel codes are named only through the Core i7 alias table; the
// fixed-function ones (IAF) whatever the CPU (format.md §12.1).
constexpr HwEvent kCoreI7Events[] = {
    {0x10000, kClassIaf},     // INSTR_RETIRED_ANY
    {kIap + 200, kClassIap},  // unhalted-core-cycles
    {kIap + 193, kClassIap},  // llc-misses
    {kIap + 531, kClassIap},  // branch-misses-retired
    {0x10001, kClassIaf},     // CPU_CLK_UNHALTED_CORE
    {kIap + 521, kClassIap},  // branch-instruction-retired
    {kIap + 194, kClassIap},  // llc-reference
    {0x10002, kClassIaf},     // CPU_CLK_UNHALTED_REF
};
// 12.x and main name AMD K8 codes from their static table (0x2080 + index); the Intel ones
// only through pmu-events, which a CPU without a pmu-events match does not use (format.md §12.1).
constexpr HwEvent kK8Events[] = {
    {0x2098, kClassK8},  // BU_CPU_CLK_UNHALTED
    {0x20a6, kClassK8},  // FR_RETIRED_X86_INSTRUCTIONS
    {0x208c, kClassK8},  // DC_MISS
    {0x20a9, kClassK8},  // FR_RETIRED_BRANCHES_MISPREDICTED
    {0x209d, kClassK8},  // IC_MISS
    {0x20a8, kClassK8},  // FR_RETIRED_BRANCHES
    {0x208b, kClassK8},  // DC_ACCESS
    {0x20a7, kClassK8},  // FR_RETIRED_UOPS
};
// Our L1 table names only the TSC (L1's own block layout is not in it).
constexpr HwEvent kL1Events[] = {{kTsc, kClassTsc}};

// One machine per generation, whatever the byte order and width: the tables hold no
// PowerPC or MIPS events, so a big-endian log is an x86 machine's log in that byte order.
Machine machine_of(Generation g) {
  constexpr uint32_t kPiv = 8;        // PMC_CPU_INTEL_PIV in L1's implicit enum (format.md §9.4)
  constexpr uint32_t kCoreI7 = 0x8B;  // PMC_CPU_INTEL_COREI7 (L2/L3)
  constexpr uint32_t kAmdK8 = 0x01;   // PMC_CPU_AMD_K8: every AMD64 CPU hwpmc drives as K8
  constexpr uint64_t kTscFreq = 2400000000ull;  // the model's clock (synth_model.cpp)
  switch (g) {
    case Generation::L1: return {0x01020003, kPiv, "", 0, kL1Events};
    case Generation::L2:
    case Generation::L3: return {0x03010000, kCoreI7, "", 0, kCoreI7Events};
    case Generation::M9:
    case Generation::M10:
      // A family 0x10 (K10) CPU: the kernel writes an AMD cpuid string only for family 0x17
      // and later (format.md §8), so the cpuid is empty and no pmu-events table applies.
      return {g == Generation::M9 ? 0x09030000u : 0x0A000000u, kAmdK8, "", kTscFreq,
              kK8Events};
  }
  return {};
}

}  // namespace

World::World(const Abi& abi, uint64_t seed) : abi_(abi), seed_(seed) {
  Rng rng(mix(seed, 0x5eed0001));
  const bool wide = abi.address_width == 8;
  machine_ = machine_of(abi.generation);

  // Function tables: sizes 32 B .. 4 KiB, 16-byte aligned, skewed towards small functions.
  for (const ObjectDecl& d : kObjects) {
    Object o;
    o.path = d.path;
    o.func_start.reserve(d.nfuncs);
    uint32_t off = 0x1000;  // past the ELF headers
    for (uint32_t i = 0; i < d.nfuncs; ++i) {
      o.func_start.push_back(off);
      const uint32_t size = 32u << rng.below(8);  // 32 .. 4096
      off += (size + rng.below(size)) & ~15u;
    }
    o.text_size = static_cast<uint32_t>(round_up(off, 0x1000));
    if (o.text_size >= (1u << 24)) throw std::logic_error("object text above 16 MiB");
    // by_rank_ holds 16-bit functions; up_ serves a library's non-entry functions (from
    // nfuncs / 8 + 1 on) as a program's only if they all are 3 or more.
    if (d.nfuncs < 16 || d.nfuncs > UINT16_MAX)
      throw std::logic_error("an object's functions must number 16 to 65535");
    uint32_t stride = static_cast<uint32_t>(mix(seed, objects_.size()) % d.nfuncs) | 1;
    while (std::gcd(stride, d.nfuncs) != 1) stride += 2;
    std::vector<uint16_t> by_rank(d.nfuncs);
    for (uint32_t r = 0; r < d.nfuncs; ++r)
      by_rank[r] = static_cast<uint16_t>((uint64_t{r} * stride + 7) % d.nfuncs);
    by_rank_.push_back(std::move(by_rank));
    objects_.push_back(std::move(o));
  }
  for (const ProgramDecl& d : program_decls()) programs_.push_back({d.object, d.comm, d.libs});
  rtld_ = kRtld;

  // Kernel text: amd64 at KERNBASE + 2 MiB, i386 at 0xc0400000 (powerpc: similar upper half).
  uint64_t k = wide ? 0xffffffff80200000ull : 0xc0400000ull;
  for (uint32_t i = 0; i < kKernelObjects; ++i) {
    kernel_maps_.push_back({i, k, objects_[i].text_size});
    k = round_up(k + objects_[i].text_size, wide ? 0x200000 : 0x100000);
    if (i == 0) k += wide ? 0x1800000 : 0x800000;  // modules load above the kernel's data
  }

  // Zipf(1) weights in integers: the i-th most popular function has weight 2^32/(i+1).
  uint32_t maxf = 0;
  for (const Object& o : objects_) maxf = std::max(maxf, o.nfuncs());
  zipf_cdf_.resize(maxf);
  uint64_t acc = 0;
  for (uint32_t i = 0; i < maxf; ++i) {
    acc += (uint64_t{1} << 32) / (i + 1);
    zipf_cdf_[i] = acc;
  }
  for (const Object& o : objects_) {
    const uint64_t total = zipf_cdf_[o.nfuncs() - 1];
    std::vector<uint16_t> guide(kGuide);
    uint32_t i = 0;
    for (uint32_t k = 0; k < kGuide; ++k) {
      const uint64_t lo = static_cast<uint64_t>((static_cast<unsigned __int128>(total) * k) / kGuide);
      while (zipf_cdf_[i] <= lo) ++i;
      guide[k] = i;
    }
    zipf_guide_.push_back(std::move(guide));
  }

  // Every function's caller in its own object. caller() picks it as func - 1 - (0..2) both
  // for a program's (or the kernel's) functions and for a library's non-entry ones, so one
  // table serves either role.
  for (uint32_t obj = 0; obj < objects_.size(); ++obj) {
    const Object& o = objects_[obj];
    const std::vector<Mapping> alone{{obj, 0, o.text_size}};
    std::vector<Up> up(o.nfuncs(), Up{0, 0});
    for (uint32_t f = 1; f < o.nfuncs(); ++f) {
      Frame c;
      caller(alone, false, Frame{0, f}, c);
      up[f] = {c.func, static_cast<uint32_t>(call_site(alone, c, Frame{0, f}))};
    }
    up_.push_back(std::move(up));
  }
}

std::vector<uint32_t> World::address_space(uint32_t program) const {
  const Program& p = programs_[program];
  std::vector<uint32_t> objs{p.object, rtld_};
  objs.insert(objs.end(), p.libs.begin(), p.libs.end());
  return objs;
}

std::vector<Mapping> World::place(uint32_t program, Rng& rng) const {
  const bool wide = abi_.address_width == 8;
  const std::vector<uint32_t> objs = address_space(program);
  std::vector<Mapping> maps;
  // Non-PIE executables at the traditional link address; shared objects from the rtld area.
  const uint64_t exec_base = wide ? 0x200000 : 0x08048000;
  maps.push_back({objs[0], exec_base, objects_[objs[0]].text_size});
  const uint64_t align = wide ? 0x200000 : 0x100000;
  uint64_t at = (wide ? 0x800200000ull : 0x28000000ull) + align * rng.below(4);
  for (size_t i = 1; i < objs.size(); ++i) {
    const uint32_t obj = objs[i];
    maps.push_back({obj, at, objects_[obj].text_size});
    at = round_up(at + objects_[obj].text_size, align) + align * rng.below(2);
  }
  return maps;
}

uint32_t World::zipf(uint32_t object, Rng& rng) const {
  const uint32_t n = objects_[object].nfuncs();
  const uint64_t total = zipf_cdf_[n - 1];
  const uint64_t r = rng.next();
  const uint64_t u = static_cast<uint64_t>((static_cast<unsigned __int128>(r) * total) >> 64);
  // The guide table gives the first candidate for u's slice of the total; a short forward
  // scan finishes (the same answer as a binary search, faster). The slice comes from r's top
  // bits, not from u / (total / kGuide): that slice k has total * k / kGuide <= u, so the scan
  // still starts at or before the answer, without a 128-bit division.
  uint32_t i = zipf_guide_[object][static_cast<size_t>(r >> (64 - kGuideBits))];
  while (zipf_cdf_[i] <= u) ++i;
  return i;
}

World::Frame World::pick_leaf(const std::vector<Mapping>& maps, bool kernel, Rng& rng) const {
  uint32_t m = 0;
  if (kernel) {
    m = rng.below(100) < 80 ? 0 : 1 + rng.below(static_cast<uint32_t>(maps.size()) - 1);
  } else {
    // Time goes mostly to the program itself and libc; the rest to the other libraries.
    const uint32_t r = rng.below(100);
    const uint32_t nlibs = static_cast<uint32_t>(maps.size()) - 1;
    if (r < 50) m = 0;
    else if (r < 75) m = static_cast<uint32_t>(maps.size()) - 1;  // libc loads last
    else m = 1 + rng.below(nlibs);
  }
  const uint32_t obj = maps[m].object;
  return {m, by_rank_[obj][zipf(obj, rng)]};
}

bool World::caller(const std::vector<Mapping>& maps, bool kernel, Frame f, Frame& up) const {
  const uint64_t h = quick_hash(seed_ ^ maps[f.map].object, f.func);
  if (f.map != 0) {
    // A library's low-numbered functions are its entry points, called from the program
    // (or, in the kernel, a module's from the kernel); the others from within the object.
    const uint32_t n = objects_[maps[f.map].object].nfuncs();
    if (f.func < n / 8 + 1) {
      up = {0, reduce(h, objects_[maps[0].object].nfuncs())};
      return true;
    }
    up = {f.map, f.func - 1 - reduce(h, 3)};
    return true;
  }
  (void)kernel;
  if (f.func == 0) return false;  // _start / the trap entry: the root of every chain
  up = {0, f.func - 1 - reduce(h, std::min<uint32_t>(f.func, 3))};
  return true;
}

uint64_t World::call_site(const std::vector<Mapping>& maps, Frame c, Frame callee) const {
  const Object& o = objects_[maps[c.map].object];
  const uint32_t start = o.func_start[c.func], end = o.func_end(c.func);
  const uint64_t h = quick_hash(seed_ ^ (uint64_t{maps[c.map].object} << 48 | uint64_t{c.func} << 24),
                                maps[callee.map].object * 65536ull + callee.func);
  // A return address: past the call instruction, inside the caller.
  return maps[c.map].base + start + 5 + reduce(h, end - start - 5);
}

void World::chain(const std::vector<Mapping>& maps, uint32_t space, uint32_t depth, Rng& rng,
                  std::vector<uint64_t>& out) const {
  const bool kernel = space == kKernelSpace;
  out.resize(depth);
  uint64_t* pcs = out.data();
  const Frame f = pick_leaf(maps, kernel, rng);
  uint32_t obj = maps[f.map].object;
  const Object& lo = objects_[obj];
  const uint32_t ls = lo.func_start[f.func], le = lo.func_end(f.func);
  pcs[0] = maps[f.map].base + ls + rng.below(le - ls);
  uint32_t n = 1;
  // Callers as caller() and call_site() define them: up_ for calls inside an object; a
  // library's entry points (below nfuncs / 8 + 1) are called from the program (map 0),
  // whose function 0 is the root.
  uint32_t map = f.map, func = f.func;
  uint32_t entries = map != 0 ? lo.nfuncs() / 8 + 1 : 1;
  uint64_t base = maps[map].base;
  const Up* up = up_[obj].data();
  while (n < depth) {
    if (func < entries) {
      if (map == 0) break;
      Frame into;
      caller(maps, kernel, Frame{map, func}, into);
      pcs[n++] = call_site(maps, into, Frame{map, func});
      map = 0;
      func = into.func;
      obj = maps[0].object;
      entries = 1;
      base = maps[0].base;
      up = up_[obj].data();
      continue;
    }
    pcs[n++] = base + up[func].ret;
    func = up[func].func;
  }
  if (n < depth) {
    // Recursion: the leaf's caller calls itself again, from the same call site.
    const uint32_t at = n >= 2 ? 1 : 0;
    const uint64_t pc = pcs[at];
    std::copy_backward(pcs + at, pcs + n, pcs + depth);
    std::fill(pcs + at, pcs + at + (depth - n), pc);
  }
}

}  // namespace pmclog::write
