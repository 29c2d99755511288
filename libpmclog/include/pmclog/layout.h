// The one definition of every record layout: a layout is written down once, here. Decoder,
// encoder, printers, the JSON reader and the annotated-word view all derive from these tables.
// format.md §7 (legacy) and §8 (modern).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "pmclog/abi.h"
#include "pmclog/kind.h"

namespace pmclog {

// Every named field of every record. Scalars come first so that they index Record::v.
enum class Field : uint8_t {
  pid, tid, pmcid, cpuflags, event, flags, rate, value, version, arch, tsc_freq,
  init_ts_sec, init_ts_nsec, oldpid, newpid, userdata, start, end, entryaddr, dynaddr,
  maptype, pc, usermode, pageshift,
  // text fields (a record has at most one)
  path, evname, cpuid, tdname, pcomm,
  // the address array of CALLCHAIN
  pcs,
};
inline constexpr int kScalarFieldCount = static_cast<int>(Field::pageshift) + 1;
// A decoded record's scalar slots: every Field, then one that no Field names, where the fast
// path's fixed-count word copy puts the words a short layout does not have.
inline constexpr int kDecoderScratch = kScalarFieldCount;
inline constexpr int kScalarSlots = kScalarFieldCount + 1;
inline constexpr int kFieldCount = static_cast<int>(Field::pcs) + 1;

std::string_view field_name(Field f);  // stable JSON/text name, e.g. "entryaddr"
std::optional<Field> parse_field(std::string_view s);
inline constexpr bool is_scalar(Field f) { return static_cast<int>(f) < kScalarFieldCount; }
inline constexpr bool is_text(Field f) { return !is_scalar(f) && f != Field::pcs; }

enum class FieldType : uint8_t {
  u32,        // one 32-bit word
  u64_words,  // EMIT64: low 32-bit word first, then the high word, each in file byte order
  native,     // one native integer of `size` bytes (4 or 8), producer byte order: the modern
              // INITIALIZE timespec members (time_t tv_sec, long tv_nsec)
  addr,       // EMITADDR: a u32 (A=4) or a u64_words (A=8)
  pad,        // 4 bytes the kernel writes as zero
  u8,         // one byte, then pad bytes to `size` (M10 MAP_IN's pl_pageshift, format.md §16)
  unwritten,  // 4 bytes the kernel never writes (stale buffer contents, format.md §5)
  chars,      // fixed char[size]; NUL-terminated unless the text fills it
  path,       // NUL-terminated string running to the end of the record (variable length)
  addrs,      // address array running to the end of the record (variable length)
};

struct FieldSpec {
  Field id;          // meaningless for pad/unwritten
  FieldType type;
  uint16_t offset;   // from the record start, header included
  uint16_t size;     // bytes; for path/addrs the size of one element (1 or A)
};

struct Layout {
  Kind kind = Kind::unknown;
  uint8_t type = 0;           // type number in this generation
  uint16_t header_size = 12;
  // Size of a fixed record, or the length before the path/addrs (what offsetof gives the
  // kernel; for a path after narrow addresses, more than the path's offset).
  uint16_t fixed_size = 0;
  bool variable = false;      // ends with a path or an address array
  uint8_t nfields = 0;
  // Bytes per address slot (Abi::slot_width()): a CALLCHAIN holds (length - frames' offset)
  // / addr_slot frames of the field's size each, packed, with the rest of the record unwritten.
  uint8_t addr_slot = 8;
  std::array<FieldSpec, 10> fields{};

  const FieldSpec* begin() const { return fields.data(); }
  const FieldSpec* end() const { return fields.data() + nfields; }
  const FieldSpec* find(Field f) const;
  bool has(Field f) const { return find(f) != nullptr; }
  bool ends_with_path() const { return variable && fields[nfields - 1].type == FieldType::path; }
  // Smallest valid length: fixed_size, plus the NUL (rounded up to 4) for a path.
  uint16_t min_length() const {
    return ends_with_path() ? static_cast<uint16_t>((fixed_size + 1 + 3) & ~3) : fixed_size;
  }
};

// nullptr when the ABI's generation has no such kind.
const Layout* layout_for(const Abi& abi, Kind k);
// nullptr when the generation does not define the type number.
const Layout* layout_for_type(const Abi& abi, uint8_t type);

inline constexpr uint32_t kHeaderMagic = 0xEE;
inline constexpr uint16_t kMaxRecordLength = 65532;  // 16-bit length rounded down to 4
inline constexpr uint32_t kPathMax = 1024;           // PATH_MAX (format.md §10)
inline constexpr uint32_t kKernelPid = 0xFFFFFFFFu;  // the pid of kernel objects' MAP_IN records
// CALLCHAIN's cpuflags: the cpu in bits 16 and up, these flags below (format.md §9.1).
inline constexpr uint32_t kCallchainUserspace = 0x01;  // PMC_CC_F_USERSPACE
inline constexpr uint32_t kCallchainMultipart = 0x02;  // PMC_CC_F_MULTIPART (AMD fork)

}  // namespace pmclog
