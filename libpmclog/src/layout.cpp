// The record layouts of every generation, written down once (format.md §7, §8). Offsets are
// not written by hand: they follow from the field order and the ABI's widths, as the kernel's
// packed structs do.
#include "pmclog/layout.h"

#include <array>
#include <initializer_list>
#include <vector>

namespace pmclog {

namespace {

constexpr uint8_t bit(Generation g) { return uint8_t(1u << static_cast<int>(g)); }
constexpr uint8_t kL1 = bit(Generation::L1), kL2 = bit(Generation::L2), kL3 = bit(Generation::L3);
constexpr uint8_t kM9 = bit(Generation::M9), kM10 = bit(Generation::M10);
constexpr uint8_t kLegacy = kL1 | kL2 | kL3, kModern = kM9 | kM10;

// How wide a declared field is where its type alone does not say.
enum class Size : uint8_t {
  natural,        // from the type (and `chars` for FieldType::chars)
  time_t_width,   // Abi::time_width
  long_width,     // the producer's `long`: the address slot width (FreeBSD is ILP32 or LP64)
  // 4 bytes of C struct padding in `struct timespec {time_t; long;}`, only where the two
  // widths differ; absent (no field) otherwise.
  pad_if_long_wider,  // between tv_sec and tv_nsec
  pad_if_time_wider,  // after tv_nsec (32-bit arm, powerpc, mips: 8-byte time_t)
};

struct Decl {
  Field id;
  FieldType type;
  uint16_t chars = 0;  // for FieldType::chars
  Size size = Size::natural;
};

struct KindDecl {
  Kind kind;
  uint8_t generations;  // where this body applies (the kind must also exist there, kind.cpp)
  std::vector<Decl> body;  // fields after the header, in order
};

using F = Field;
using T = FieldType;

// Field names in the unused slots of pad/unwritten entries do not matter.
const std::vector<KindDecl>& declarations() {
  static const std::vector<KindDecl> decls = {
      {Kind::closelog, kLegacy | kModern, {}},
      {Kind::dropnotify, kLegacy | kModern, {}},
      {Kind::initialize, kLegacy, {{F::version, T::u32}, {F::arch, T::u32}}},
      // Modern INITIALIZE embeds a native struct timespec {time_t tv_sec; long tv_nsec;},
      // copied whole from the kernel's stack: its padding holds stale bytes (format.md §8.1).
      // i386: 4 + 4; LP64: 8 + 8; 32-bit arm/powerpc/mips: 8 + 4 + 4 bytes of padding.
      {Kind::initialize, kModern,
       {{F::version, T::u32}, {F::arch, T::u32}, {F::tsc_freq, T::u64_words},
        {F::init_ts_sec, T::native, 0, Size::time_t_width},
        {F::init_ts_nsec, T::unwritten, 0, Size::pad_if_long_wider},
        {F::init_ts_nsec, T::native, 0, Size::long_width},
        {F::init_ts_nsec, T::unwritten, 0, Size::pad_if_time_wider},
        {F::cpuid, T::chars, 64}}},
      {Kind::mappingchange, kLegacy,
       {{F::maptype, T::u32}, {F::start, T::addr}, {F::end, T::addr}, {F::pid, T::u32},
        {F::path, T::path}}},
      {Kind::pcsample, kLegacy,
       {{F::pid, T::u32}, {F::pc, T::addr}, {F::pmcid, T::u32}, {F::usermode, T::u32}}},
      {Kind::pmcallocate, kLegacy, {{F::pmcid, T::u32}, {F::event, T::u32}, {F::flags, T::u32}}},
      {Kind::pmcallocate, kModern,
       {{F::pmcid, T::u32}, {F::event, T::u32}, {F::flags, T::u32}, {F::pmcid, T::pad},
        {F::rate, T::u64_words}}},
      {Kind::pmcattach, kLegacy | kModern, {{F::pmcid, T::u32}, {F::pid, T::u32}, {F::path, T::path}}},
      {Kind::pmcdetach, kLegacy | kModern, {{F::pmcid, T::u32}, {F::pid, T::u32}}},
      {Kind::proccsw, kLegacy, {{F::pmcid, T::u32}, {F::value, T::u64_words}, {F::pid, T::u32}}},
      {Kind::proccsw, kModern,
       {{F::value, T::u64_words}, {F::pmcid, T::u32}, {F::pid, T::u32}, {F::tid, T::u32},
        {F::pid, T::pad}}},
      {Kind::procexec, kLegacy,
       {{F::pid, T::u32}, {F::entryaddr, T::addr}, {F::pmcid, T::u32}, {F::path, T::path}}},
      {Kind::procexec, kM9,
       {{F::pid, T::u32}, {F::pmcid, T::u32}, {F::entryaddr, T::addr}, {F::path, T::path}}},
      // PMC_VERSION 0x0A added the PIE load base after the entry address (format.md §8, §20).
      {Kind::procexec, kM10,
       {{F::pid, T::u32}, {F::pmcid, T::u32}, {F::entryaddr, T::addr}, {F::dynaddr, T::addr},
        {F::path, T::path}}},
      {Kind::procexit, kLegacy, {{F::pmcid, T::u32}, {F::value, T::u64_words}, {F::pid, T::u32}}},
      {Kind::procexit, kModern, {{F::pmcid, T::u32}, {F::pid, T::u32}, {F::value, T::u64_words}}},
      {Kind::procfork, kLegacy | kModern, {{F::oldpid, T::u32}, {F::newpid, T::u32}}},
      {Kind::sysexit, kLegacy, {{F::pid, T::u32}}},
      {Kind::sysexit, kModern, {{F::pid, T::u32}, {F::pid, T::unwritten}}},
      {Kind::userdata, kLegacy, {{F::userdata, T::u32}}},
      {Kind::userdata, kModern, {{F::userdata, T::u32}, {F::userdata, T::unwritten}}},
      {Kind::map_in, kLegacy, {{F::pid, T::u32}, {F::start, T::addr}, {F::path, T::path}}},
      {Kind::map_in, kM9,
       {{F::pid, T::u32}, {F::pid, T::pad}, {F::start, T::addr}, {F::path, T::path}}},
      // main's pad word became a union: u8 pl_pageshift, then 3 pad bytes (format.md §16).
      {Kind::map_in, kM10,
       {{F::pid, T::u32}, {F::pageshift, T::u8}, {F::start, T::addr}, {F::path, T::path}}},
      {Kind::map_out, kLegacy, {{F::pid, T::u32}, {F::start, T::addr}, {F::end, T::addr}}},
      {Kind::map_out, kModern,
       {{F::pid, T::u32}, {F::pid, T::pad}, {F::start, T::addr}, {F::end, T::addr}}},
      {Kind::callchain, kLegacy,
       {{F::pid, T::u32}, {F::pmcid, T::u32}, {F::cpuflags, T::u32}, {F::pcs, T::addrs}}},
      {Kind::callchain, kModern,
       {{F::pid, T::u32}, {F::tid, T::u32}, {F::pmcid, T::u32}, {F::cpuflags, T::u32},
        {F::pcs, T::addrs}}},
      {Kind::pmcallocatedyn, kL3,
       {{F::pmcid, T::u32}, {F::event, T::u32}, {F::flags, T::u32}, {F::evname, T::chars, 64}}},
      // The modern writer puts the rate at 32 and the 64-byte name at 40 in a 96-byte
      // record, so only 56 name bytes reach the file (format.md §11).
      {Kind::pmcallocatedyn, kModern,
       {{F::pmcid, T::u32}, {F::event, T::u32}, {F::flags, T::u32}, {F::pmcid, T::pad},
        {F::rate, T::u64_words}, {F::evname, T::chars, 56}}},
      {Kind::thr_create, kModern,
       {{F::tid, T::u32}, {F::pid, T::u32}, {F::flags, T::u32}, {F::pid, T::pad},
        {F::tdname, T::chars, 20}}},
      {Kind::thr_exit, kModern, {{F::tid, T::u32}, {F::tid, T::unwritten}}},
      {Kind::proc_create, kModern, {{F::pid, T::u32}, {F::flags, T::u32}, {F::pcomm, T::chars, 20}}},
  };
  return decls;
}

// The address forms: value width / slot width (Abi::address_width, Abi::slot_width()).
struct Form {
  int value, slot;
};
constexpr std::array<Form, 3> kForms = {{{4, 4}, {8, 8}, {4, 8}}};
constexpr int kTimeWidths = 2;

int form_index(int value, int slot) {
  for (size_t i = 0; i < kForms.size(); ++i)
    if (kForms[i].value == value && kForms[i].slot == slot) return static_cast<int>(i);
  return -1;
}

size_t table_index(Generation g, int form, int time_width, Kind k) {
  const size_t gi = static_cast<size_t>(g);
  const size_t ti = time_width == 4 ? 0 : 1;
  return ((gi * kForms.size() + static_cast<size_t>(form)) * kTimeWidths + ti) * kKindCount +
         static_cast<size_t>(k);
}

// 0 for a padding declaration that does not apply to these widths. An address takes its
// value's width here; the rest of its slot is added at the end of the record (build_table).
uint16_t field_size(const Decl& d, Form form, int time_width) {
  const int long_width = form.slot;  // `long` is as wide as uintfptr_t (ILP32 or LP64)
  switch (d.size) {
    case Size::natural: break;
    case Size::time_t_width: return static_cast<uint16_t>(time_width);
    case Size::long_width: return static_cast<uint16_t>(long_width);
    case Size::pad_if_long_wider: return long_width > time_width ? 4 : 0;
    case Size::pad_if_time_wider: return time_width > long_width ? 4 : 0;
  }
  switch (d.type) {
    case T::u32:
    case T::u8:
    case T::pad:
    case T::unwritten: return 4;
    case T::u64_words: return 8;
    case T::native: return 0;  // always declared with its Size
    case T::addr: return static_cast<uint16_t>(form.value);
    case T::chars: return d.chars;
    case T::path: return 1;
    case T::addrs: return static_cast<uint16_t>(form.value);
  }
  return 0;
}

using Table = std::array<Layout, kGenerationCount * kForms.size() * kTimeWidths * kKindCount>;

Table build_table() {
  Table table{};
  for (int gi = 0; gi < kGenerationCount; ++gi) {
    const auto g = static_cast<Generation>(gi);
    for (size_t fi = 0; fi < kForms.size(); ++fi) {
      const Form form = kForms[fi];
      for (int tw : {4, 8}) {
        for (const KindDecl& d : declarations()) {
          if (!(d.generations & bit(g))) continue;
          const auto type = type_of_kind(g, d.kind);
          if (!type) continue;
          Layout& l = table[table_index(g, static_cast<int>(fi), tw, d.kind)];
          l.kind = d.kind;
          l.type = *type;
          l.header_size = gi <= static_cast<int>(Generation::L3) ? 12 : 16;
          l.addr_slot = static_cast<uint8_t>(form.slot);
          uint16_t off = l.header_size;
          // Slot bytes the writer sized for but did not fill: with narrow addresses each
          // later field follows the 4-byte value directly, and the record's length still
          // counts the whole slots (format.md §19 "writer/struct mismatch").
          uint16_t unfilled = 0;
          for (const Decl& f : d.body) {
            const uint16_t size = field_size(f, form, tw);
            if (size == 0) continue;  // padding these widths do not have
            l.fields[l.nfields++] = FieldSpec{f.id, f.type, off, size};
            if (f.type == T::path || f.type == T::addrs) {
              l.variable = true;
              break;  // the variable part runs to the end of the record
            }
            if (f.type == T::addr) unfilled = static_cast<uint16_t>(unfilled + form.slot - form.value);
            off = static_cast<uint16_t>(off + size);
          }
          if (l.variable) {
            // A path's record is sized from the slot offset: the unfilled bytes follow its NUL.
            off = static_cast<uint16_t>(off + unfilled);
          } else {
            for (; unfilled > 0; unfilled = static_cast<uint16_t>(unfilled - 4)) {
              l.fields[l.nfields++] = FieldSpec{Field::pid, T::unwritten, off, 4};
              off = static_cast<uint16_t>(off + 4);
            }
          }
          l.fixed_size = off;
        }
      }
    }
  }
  return table;
}

const Table& table() {
  static const Table t = build_table();
  return t;
}

constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "pid", "tid", "pmcid", "cpuflags", "event", "flags", "rate", "value", "version", "arch",
    "tsc_freq", "init_ts_sec", "init_ts_nsec", "oldpid", "newpid", "userdata", "start", "end",
    "entryaddr", "dynaddr", "maptype", "pc", "usermode", "pageshift", "path", "evname", "cpuid", "tdname",
    "pcomm", "pcs"};

}  // namespace

const FieldSpec* Layout::find(Field f) const {
  for (const FieldSpec& s : *this) {
    if (s.id == f && s.type != FieldType::pad && s.type != FieldType::unwritten) return &s;
  }
  return nullptr;
}

const Layout* layout_for(const Abi& abi, Kind k) {
  const int form = form_index(abi.address_width, abi.slot_width());
  if (k == Kind::unknown || form < 0) return nullptr;
  const int tw = abi.time_width == 4 ? 4 : 8;
  const Layout& l = table()[table_index(abi.generation, form, tw, k)];
  return l.kind == k ? &l : nullptr;  // never-filled slots keep Kind::unknown
}

const Layout* layout_for_type(const Abi& abi, uint8_t type) {
  const auto k = kind_of_type(abi.generation, type);
  return k ? layout_for(abi, *k) : nullptr;
}

std::string_view field_name(Field f) { return kFieldNames[static_cast<size_t>(f)]; }

std::optional<Field> parse_field(std::string_view s) {
  for (size_t i = 0; i < kFieldNames.size(); ++i) {
    if (kFieldNames[i] == s) return static_cast<Field>(i);
  }
  return std::nullopt;
}

}  // namespace pmclog
