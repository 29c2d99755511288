// The project's own reading of docs/format.md, written independently of libpmclog: which record
// kinds each generation has, their type numbers (format.md §6) and the length the kernel writer
// gives them (format.md §7, §8). The fixture generator and the tests use it as the oracle the
// encoder and decoder are checked against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/kind.h"

namespace codec_test {

using pmclog::Abi;
using pmclog::Generation;
using pmclog::Kind;

inline bool is_legacy(Generation g) {
  return g == Generation::L1 || g == Generation::L2 || g == Generation::L3;
}

// Type number of a kind in a generation (format.md §6). MAPPINGCHANGE counts only for L1:
// the L2/L3 readers reject type 3 and their headers no longer define the struct.
inline std::optional<int> type_code(Generation g, Kind k) {
  const int legacy_max = g == Generation::L1 ? 13 : g == Generation::L2 ? 16 : 17;
  if (is_legacy(g)) {
    int t = -1;
    switch (k) {
      case Kind::closelog: t = 0; break;
      case Kind::dropnotify: t = 1; break;
      case Kind::initialize: t = 2; break;
      case Kind::mappingchange: return g == Generation::L1 ? std::optional<int>(3) : std::nullopt;
      case Kind::pcsample: t = 4; break;
      case Kind::pmcallocate: t = 5; break;
      case Kind::pmcattach: t = 6; break;
      case Kind::pmcdetach: t = 7; break;
      case Kind::proccsw: t = 8; break;
      case Kind::procexec: t = 9; break;
      case Kind::procexit: t = 10; break;
      case Kind::procfork: t = 11; break;
      case Kind::sysexit: t = 12; break;
      case Kind::userdata: t = 13; break;
      case Kind::map_in: t = 14; break;
      case Kind::map_out: t = 15; break;
      case Kind::callchain: t = 16; break;
      case Kind::pmcallocatedyn: t = 17; break;
      default: return std::nullopt;
    }
    if (t > legacy_max) return std::nullopt;
    return t;
  }
  switch (k) {
    case Kind::closelog: return 1;
    case Kind::dropnotify: return 2;
    case Kind::initialize: return 3;
    case Kind::pmcallocate: return 5;
    case Kind::pmcattach: return 6;
    case Kind::pmcdetach: return 7;
    case Kind::proccsw: return 8;
    case Kind::procexec: return 9;
    case Kind::procexit: return 10;
    case Kind::procfork: return 11;
    case Kind::sysexit: return 12;
    case Kind::userdata: return 13;
    case Kind::map_in: return 14;
    case Kind::map_out: return 15;
    case Kind::callchain: return 16;
    case Kind::pmcallocatedyn: return 17;
    case Kind::thr_create: return 18;
    case Kind::thr_exit: return 19;
    case Kind::proc_create: return 20;
    default: return std::nullopt;
  }
}

// All kinds a generation defines, in Kind order.
inline std::vector<Kind> kinds_of(Generation g) {
  std::vector<Kind> out;
  for (int i = 0; i < pmclog::kKindCount; ++i) {
    const Kind k = static_cast<Kind>(i);
    if (type_code(g, k)) out.push_back(k);
  }
  return out;
}

// format.md names, spelled out here rather than taken from kind_name().
inline const char* format_name(Kind k) {
  switch (k) {
    case Kind::closelog: return "CLOSELOG";
    case Kind::dropnotify: return "DROPNOTIFY";
    case Kind::initialize: return "INITIALIZE";
    case Kind::mappingchange: return "MAPPINGCHANGE";
    case Kind::pcsample: return "PCSAMPLE";
    case Kind::pmcallocate: return "PMCALLOCATE";
    case Kind::pmcattach: return "PMCATTACH";
    case Kind::pmcdetach: return "PMCDETACH";
    case Kind::proccsw: return "PROCCSW";
    case Kind::procexec: return "PROCEXEC";
    case Kind::procexit: return "PROCEXIT";
    case Kind::procfork: return "PROCFORK";
    case Kind::sysexit: return "SYSEXIT";
    case Kind::userdata: return "USERDATA";
    case Kind::map_in: return "MAP_IN";
    case Kind::map_out: return "MAP_OUT";
    case Kind::callchain: return "CALLCHAIN";
    case Kind::pmcallocatedyn: return "PMCALLOCATEDYN";
    case Kind::thr_create: return "THR_CREATE";
    case Kind::thr_exit: return "THR_EXIT";
    case Kind::proc_create: return "PROC_CREATE";
    default: return "UNKNOWN";
  }
}

inline uint32_t round4(uint32_t n) { return (n + 3u) & ~3u; }

// The length the kernel writer gives a record: fixed sizes from the CTASSERTs, paths as
// offsetof(path) + strlen + 1 rounded up to 4, callchains as offsetof(pc) + n*A.
// `text_len` is strlen of the path, `npc` the callchain depth. A is the address's slot in
// the kernel's structs: 8 on powerpc64 even where the writer stores 4-byte values (format.md §19).
inline uint32_t kernel_length(const Abi& abi, Kind k, size_t text_len = 0, size_t npc = 0) {
  const uint32_t A = abi.slot_width();
  const uint32_t s = static_cast<uint32_t>(text_len) + 1;
  const uint32_t n = static_cast<uint32_t>(npc);
  if (is_legacy(abi.generation)) {  // format.md §7
    switch (k) {
      case Kind::closelog:
      case Kind::dropnotify: return 12;
      case Kind::initialize: return 20;
      case Kind::mappingchange: return round4(20 + 2 * A + s);
      case Kind::pcsample: return 24 + A;
      case Kind::pmcallocate: return 24;
      case Kind::pmcattach: return round4(20 + s);
      case Kind::pmcdetach: return 20;
      case Kind::proccsw: return 28;
      case Kind::procexec: return round4(20 + A + s);
      case Kind::procexit: return 28;
      case Kind::procfork: return 20;
      case Kind::sysexit:
      case Kind::userdata: return 16;
      case Kind::map_in: return round4(16 + A + s);
      case Kind::map_out: return 16 + 2 * A;
      case Kind::callchain: return 24 + n * A;
      case Kind::pmcallocatedyn: return 88;
      default: return 0;
    }
  }
  switch (k) {  // format.md §8
    case Kind::closelog:
    case Kind::dropnotify: return 16;
    case Kind::initialize: return 32 + 2u * abi.time_width + 64;  // 104 on i386, else 112
    case Kind::pmcallocate: return 40;
    case Kind::pmcattach: return round4(24 + s);
    case Kind::pmcdetach: return 24;
    case Kind::proccsw: return 40;
    case Kind::procexec:
      return round4(24 + (abi.generation == Generation::M10 ? 2 * A : A) + s);
    case Kind::procexit: return 32;
    case Kind::procfork:
    case Kind::sysexit:
    case Kind::userdata: return 24;
    case Kind::map_in: return round4(24 + A + s);
    case Kind::map_out: return 24 + 2 * A;
    case Kind::callchain: return 32 + n * A;
    case Kind::pmcallocatedyn: return 96;
    case Kind::thr_create: return 52;
    case Kind::thr_exit: return 24;
    case Kind::proc_create: return 44;
    default: return 0;
  }
}

// The 20 ABIs the committed fixtures cover, and their file stem, e.g. "L3-64-be".
// A 32-bit big-endian producer is powerpc, whose time_t is 64-bit: its modern INITIALIZE
// is 112 bytes, not i386's 104 (format.md §8.1).
inline Abi producer_abi(Generation g, uint8_t width, pmclog::ByteOrder order) {
  Abi abi = Abi::make(g, width, order);
  if (width == 4 && order == pmclog::ByteOrder::big) abi.time_width = 8;
  return abi;
}

inline std::vector<Abi> all_abis() {
  std::vector<Abi> out;
  for (Generation g : {Generation::L1, Generation::L2, Generation::L3, Generation::M9,
                       Generation::M10})
    for (uint8_t w : {4, 8})
      for (pmclog::ByteOrder o : {pmclog::ByteOrder::little, pmclog::ByteOrder::big})
        out.push_back(producer_abi(g, w, o));
  return out;
}

// powerpc64 before FreeBSD 13: 4-byte addresses in 8-byte slots (format.md §19), in
// the generations whose kernels wrote them (L3: 9.x to 11.x; M9: 12.x), big-endian.
inline std::vector<Abi> narrow_abis() {
  return {Abi::make_narrow(Generation::L3, pmclog::ByteOrder::big),
          Abi::make_narrow(Generation::M9, pmclog::ByteOrder::big)};
}

// "L3-64-be"; narrow ABIs "L3-32in64-be" (32-bit addresses in 64-bit slots).
inline std::string fixture_stem(const Abi& abi) {
  static const char* const gens[] = {"L1", "L2", "L3", "M9", "M10"};
  return std::string(gens[static_cast<int>(abi.generation)]) +
         (abi.narrow() ? "-32in64-" : abi.address_width == 4 ? "-32-" : "-64-") +
         (abi.byte_order == pmclog::ByteOrder::little ? "le" : "be");
}

// The 20 ABIs and the narrow ones: every committed fixture.
inline std::vector<Abi> fixture_abis() {
  std::vector<Abi> v = all_abis();
  for (const Abi& a : narrow_abis()) v.push_back(a);
  return v;
}

// The fixture's path under fixtures/: the narrow ones in a folder of their own, so that the
// tests taking every fixtures/*.pmclog as one of the 20 ABIs do not meet them.
inline std::string fixture_relpath(const Abi& abi) {
  return (abi.narrow() ? "narrow/" : "") + fixture_stem(abi);
}

}  // namespace codec_test
