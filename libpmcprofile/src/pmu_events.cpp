// The pmu-events tables of a FreeBSD libpmc, read through libelf (see pmu_events.h for the
// shape of the data and format.md §12.2 for the rules).
#include "pmcprofile/pmu_events.h"

#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pmcprofile/sysroot.h"

namespace pmcprofile {

namespace {

constexpr size_t kMaxTables = 1u << 16;    // far above any libpmc's, against loops on junk
constexpr size_t kMaxEntries = 1u << 20;
constexpr unsigned kLayouts[] = {11, 12};  // pointers per struct pmu_event (format.md §12.2)

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// A place in the file's sections: section index and offset (index 0: nowhere).
struct Loc {
  size_t sec = 0;
  uint64_t off = 0;
  bool operator==(const Loc&) const = default;
};

// A pointer slot after relocation: NULL, a place, or what went wrong.
struct Pointer {
  bool null = false;
  Loc at;
  std::string error;
};

// One ELF object (the shared library, or one member of the archive) as the reader needs it:
// section bytes, symbols, and the relocation that applies to each pointer slot.
class Image {
 public:
  // `file_size`: the object's bytes (the member's, in an archive).
  Image(Elf* e, uint64_t file_size) : e_(e), file_size_(file_size) {}

  std::string load() {
    GElf_Ehdr eh;
    if (!gelf_getehdr(e_, &eh)) return "not an ELF file (" + std::string(elf_errmsg(-1)) + ")";
    if (eh.e_type != ET_DYN && eh.e_type != ET_REL && eh.e_type != ET_EXEC)
      return "ELF type " + std::to_string(eh.e_type) + " is neither a shared object nor an object";
    relocatable_ = eh.e_type == ET_REL;
    big_endian_ = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    ptr_ = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
    machine_ = eh.e_machine;
    const uint64_t file_size = file_size_;
    const uint64_t headers_end = eh.e_shoff + uint64_t{eh.e_shnum} * eh.e_shentsize;
    if (eh.e_shoff == 0 || headers_end > file_size)
      return "the file is cut short or damaged: its section headers (" + std::to_string(eh.e_shnum) +
             " at offset " + std::to_string(eh.e_shoff) + ") are not within its " +
             std::to_string(file_size) + " bytes";
    size_t n = 0, strndx = 0;
    if (elf_getshdrnum(e_, &n) != 0 || elf_getshdrstrndx(e_, &strndx) != 0)
      return "its section headers cannot be read (" + std::string(elf_errmsg(-1)) + ")";
    secs_.resize(n);
    for (size_t i = 1; i < n; ++i) {
      Elf_Scn* scn = elf_getscn(e_, i);
      GElf_Shdr sh;
      if (!scn || !gelf_getshdr(scn, &sh)) return "section " + std::to_string(i) + " cannot be read";
      Sec& s = secs_[i];
      s.addr = sh.sh_addr;
      s.size = sh.sh_size;
      s.alloc = (sh.sh_flags & SHF_ALLOC) != 0;
      if (const char* nm = elf_strptr(e_, strndx, sh.sh_name)) s.name = nm;
      // Only program data holds the tables and their strings; libelf converts the rest.
      if (sh.sh_type != SHT_PROGBITS || sh.sh_size == 0) continue;
      if (sh.sh_offset > file_size || file_size - sh.sh_offset < sh.sh_size)
        return "section " + s.name + " (" + std::to_string(sh.sh_size) + " bytes at offset " +
               std::to_string(sh.sh_offset) + ") runs past the end of the file (" +
               std::to_string(file_size) + " bytes)";
      Elf_Data* d = elf_rawdata(scn, nullptr);
      if (!d || d->d_size < sh.sh_size)
        return "section " + s.name + " runs past the end of the file (" + elf_errmsg(-1) + ")";
      s.data = static_cast<const unsigned char*>(d->d_buf);
    }
    // Symbols need every section's place; relocations need the symbols.
    for (const bool relocations : {false, true}) {
      for (size_t i = 1; i < n; ++i) {
        Elf_Scn* scn = elf_getscn(e_, i);
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        std::string err;
        if (!relocations && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
          err = load_symbols(scn, sh, i);
        if (relocations && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL))
          err = load_relocations(scn, sh);
        if (!err.empty()) return err;
      }
    }
    return {};
  }

  std::optional<Loc> symbol(const std::string& name) const {
    auto it = defined_.find(name);
    if (it == defined_.end()) return std::nullopt;
    return it->second;
  }
  bool calls(const std::string& name) const { return undefined_.count(name) != 0; }

  // Where the object that starts at `l` ends: its symbol's size, else the next thing known to
  // start after it in its section (a symbol or one of `starts`), else the section's end.
  uint64_t extent(Loc l, const std::vector<Loc>& starts) const {
    uint64_t end = secs_[l.sec].size;
    if (l.off >= end) return 0;  // a damaged symbol's value
    if (auto it = sizes_.find(key(l)); it != sizes_.end()) return it->second;
    auto next = [&](Loc o) {
      if (o.sec == l.sec && o.off > l.off) end = std::min(end, o.off);
    };
    for (const Loc& o : starts) next(o);
    for (const auto& [k, size] : sizes_) next({static_cast<size_t>(k >> 40), k & kOffMask});
    return end - l.off;
  }

  unsigned pointer_size() const { return ptr_; }
  std::string where(Loc l) const { return secs_[l.sec].name + "+" + hex(l.off); }

  // NULL with no relocation: a slot the generator left out.
  bool is_null(Loc slot) const {
    return relocs_.find(key(slot)) == relocs_.end() && raw(slot).value_or(1) == 0;
  }

  Pointer pointer(Loc slot) const {
    const auto word = raw(slot);
    if (!word) return {false, {}, "the slot at " + where(slot) + " is outside its section"};
    auto it = relocs_.find(key(slot));
    if (it == relocs_.end()) {
      if (*word == 0) return {true, {}, {}};
      if (relocatable_)
        return {false, {}, "the slot at " + where(slot) + " holds " + hex(*word) + " but no relocation"};
      return at_address(*word);
    }
    const Reloc& r = it->second;
    const uint64_t addend = r.rela ? r.addend : *word;
    if (r.relative) return at_address(addend);
    if (r.sym == 0) return at_address(addend);
    const auto& table = syms_.at(r.symtab);
    if (r.sym >= table.size())
      return {false, {}, "the relocation of " + where(slot) + " names symbol " + std::to_string(r.sym) +
                             ", beyond its symbol table"};
    const GElf_Sym& s = table[r.sym];
    if (s.st_shndx == SHN_UNDEF)
      return {false, {}, "the slot at " + where(slot) + " points into another library"};
    if (s.st_shndx == SHN_ABS || !relocatable_) return at_address(s.st_value + addend);
    if (s.st_shndx >= secs_.size())
      return {false, {}, "the relocation of " + where(slot) + " names section " +
                             std::to_string(s.st_shndx) + ", which the file lacks"};
    return checked({s.st_shndx, s.st_value + addend});
  }

  std::optional<std::string> c_string(Loc l, std::string& error) const {
    const Sec& s = secs_[l.sec];
    if (!s.data || l.off >= s.size) {
      error = "a string at " + where(l) + " is outside the file's data";
      return std::nullopt;
    }
    const auto* p = s.data + l.off;
    const auto* nul = static_cast<const unsigned char*>(std::memchr(p, 0, s.size - l.off));
    if (!nul) {
      error = "the string at " + where(l) + " runs to the end of its section";
      return std::nullopt;
    }
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(nul - p));
  }

 private:
  static constexpr uint64_t kOffMask = (uint64_t{1} << 40) - 1;
  static uint64_t key(Loc l) { return uint64_t{l.sec} << 40 | (l.off & kOffMask); }

  struct Sec {
    uint64_t addr = 0, size = 0;
    bool alloc = false;
    const unsigned char* data = nullptr;  // nullptr: no bytes in the file (NOBITS)
    std::string name;
  };
  struct Reloc {
    bool relative = false;  // the value is the addend (plus the load base, which is 0 here)
    bool rela = false;      // the addend is in the relocation, not in the slot
    size_t symtab = 0;
    uint64_t sym = 0;
    uint64_t addend = 0;
  };

  // RELATIVE relocation types of the machines FreeBSD runs on.
  bool relative_type(uint64_t type) const {
    switch (machine_) {
      case EM_X86_64: return type == 8;    // R_X86_64_RELATIVE
      case EM_386: return type == 8;       // R_386_RELATIVE
      case EM_AARCH64: return type == 1027;  // R_AARCH64_RELATIVE
      case EM_ARM: return type == 23;      // R_ARM_RELATIVE
      case EM_PPC:
      case EM_PPC64: return type == 22;    // R_PPC(64)_RELATIVE
      case EM_RISCV: return type == 3;     // R_RISCV_RELATIVE
      default: return false;
    }
  }

  std::optional<uint64_t> raw(Loc l) const {
    const Sec& s = secs_[l.sec];
    if (l.off > s.size || s.size - l.off < ptr_) return std::nullopt;
    if (!s.data) return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < ptr_; ++i)
      v = v << 8 | s.data[l.off + (big_endian_ ? i : ptr_ - 1 - i)];
    return v;
  }

  Pointer checked(Loc l) const {
    if (l.sec >= secs_.size() || l.off >= secs_[l.sec].size)
      return {false, {}, "a pointer leads past the end of section " + secs_[l.sec].name};
    return {false, l, {}};
  }

  std::optional<Loc> loc_of(uint64_t addr) const {
    for (size_t i = 1; i < secs_.size(); ++i) {
      const Sec& s = secs_[i];
      if (s.alloc && s.data && addr >= s.addr && addr - s.addr < s.size) return Loc{i, addr - s.addr};
    }
    return std::nullopt;
  }

  Pointer at_address(uint64_t addr) const {
    if (auto l = loc_of(addr)) return {false, *l, {}};
    return {false, {}, "address " + hex(addr) + " is in no section of the file that holds data"};
  }

  std::string load_symbols(Elf_Scn* scn, const GElf_Shdr& sh, size_t index) {
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d) return "symbol table " + secs_[index].name + " cannot be read";
    const size_t count = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    auto& table = syms_[index];
    table.resize(count);
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym& s = table[i];
      if (!gelf_getsym(d, static_cast<int>(i), &s)) return "symbol " + std::to_string(i) + " cannot be read";
      const char* nm = elf_strptr(e_, sh.sh_link, s.st_name);
      if (!nm) continue;
      if (s.st_shndx == SHN_UNDEF) {
        if (*nm) undefined_.insert(nm);
        continue;
      }
      if (s.st_shndx >= SHN_LORESERVE || s.st_shndx >= secs_.size()) continue;
      std::optional<Loc> at = relocatable_ ? std::optional<Loc>(Loc{s.st_shndx, s.st_value})
                                           : loc_of(s.st_value);
      if (!at) continue;
      if (GELF_ST_TYPE(s.st_info) == STT_OBJECT && s.st_size) {
        uint64_t& size = sizes_[key(*at)];
        size = std::max<uint64_t>(size, s.st_size);
      }
      if (*nm) defined_.insert({nm, *at});
    }
    return {};
  }

  std::string load_relocations(Elf_Scn* scn, const GElf_Shdr& sh) {
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d) return "relocation section cannot be read";
    const bool rela = sh.sh_type == SHT_RELA;
    const size_t count = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; i < count; ++i) {
      Reloc r;
      r.rela = rela;
      r.symtab = sh.sh_link;
      uint64_t offset = 0, info = 0;
      if (rela) {
        GElf_Rela x;
        if (!gelf_getrela(d, static_cast<int>(i), &x)) return "relocation " + std::to_string(i) + " cannot be read";
        offset = x.r_offset;
        info = x.r_info;
        r.addend = static_cast<uint64_t>(x.r_addend);
      } else {
        GElf_Rel x;
        if (!gelf_getrel(d, static_cast<int>(i), &x)) return "relocation " + std::to_string(i) + " cannot be read";
        offset = x.r_offset;
        info = x.r_info;
      }
      const uint64_t type = ptr_ == 8 ? GELF_R_TYPE(info) : ELF32_R_TYPE(info);
      r.sym = ptr_ == 8 ? GELF_R_SYM(info) : ELF32_R_SYM(info);
      r.relative = relative_type(type);
      if (!r.relative && syms_.find(r.symtab) == syms_.end()) continue;  // no symbols to use
      std::optional<Loc> at;
      if (relocatable_) {
        if (sh.sh_info == 0 || sh.sh_info >= secs_.size()) continue;
        at = Loc{sh.sh_info, offset};
      } else {
        at = loc_of(offset);
      }
      if (at) relocs_[key(*at)] = r;
    }
    return {};
  }

  Elf* e_;
  uint64_t file_size_;
  bool relocatable_ = false, big_endian_ = false;
  unsigned ptr_ = 8;
  unsigned machine_ = 0;
  std::vector<Sec> secs_;
  std::map<size_t, std::vector<GElf_Sym>> syms_;  // by symbol table section
  std::unordered_map<std::string, Loc> defined_;
  std::unordered_set<std::string> undefined_;
  std::unordered_map<uint64_t, uint64_t> sizes_;  // object symbols' sizes by start
  std::unordered_map<uint64_t, Reloc> relocs_;    // by the slot they fill
};

// One entry of pmu_events_map: the cpuid string and where its table is.
struct MapEntry {
  std::string cpuid;
  Loc table;
};

// Reads pmu_events_map[] (four pointers per entry, ended by a NULL cpuid).
std::string read_map(const Image& img, Loc map, std::vector<MapEntry>& out) {
  const unsigned p = img.pointer_size();
  const uint64_t extent = img.extent(map, {});
  for (size_t i = 0;; ++i) {
    const Loc entry{map.sec, map.off + i * 4 * p};
    const std::string name = "pmu_events_map[" + std::to_string(i) + "]";
    if ((i + 1) * 4 * p > extent || i >= kMaxTables)
      return "pmu_events_map has no terminating entry (a NULL cpuid) within its " +
             std::to_string(extent) + " bytes";
    const Pointer cpuid = img.pointer(entry);
    if (!cpuid.error.empty()) return name + ".cpuid: " + cpuid.error;
    if (cpuid.null) return {};
    std::string err;
    auto text = img.c_string(cpuid.at, err);
    if (!text) return name + ".cpuid: " + err;
    const Pointer table = img.pointer({entry.sec, entry.off + 3 * p});
    if (!table.error.empty()) return name + ".table (cpuid \"" + *text + "\"): " + table.error;
    if (table.null) return name + ".table (cpuid \"" + *text + "\") is NULL";
    out.push_back({*text, table.at});
  }
}

// The index of a table's terminating entry (name, event and desc NULL) with `words` pointers
// per entry, if that entry ends where the table does (allowing alignment padding).
std::optional<size_t> terminator(const Image& img, Loc t, uint64_t extent, unsigned words) {
  const uint64_t size = uint64_t{words} * img.pointer_size();
  for (size_t i = 0; (i + 1) * size <= extent && i < kMaxEntries; ++i) {
    const uint64_t at = t.off + i * size;
    bool end = true;
    for (unsigned f = 0; f < 3 && end; ++f)
      end = img.is_null({t.sec, at + f * img.pointer_size()});
    if (end) return extent - (i + 1) * size < size ? std::optional<size_t>(i) : std::nullopt;
  }
  return std::nullopt;
}

std::string read_tables(const Image& img, Loc map, pmclog::PmuEvents& ev) {
  std::vector<MapEntry> entries;
  if (auto err = read_map(img, map, entries); !err.empty()) return err;
  std::vector<Loc> starts{map};
  for (const auto& e : entries) starts.push_back(e.table);
  // The layout that ends every table at its terminating entry.
  std::vector<unsigned> fits;
  for (unsigned words : kLayouts) {
    bool all = true;
    for (const auto& e : entries)
      all = all && terminator(img, e.table, img.extent(e.table, starts), words).has_value();
    if (all) fits.push_back(words);
  }
  if (fits.size() != 1) {
    std::string which;
    for (size_t i = 0; i < entries.size() && which.empty(); ++i) {
      const uint64_t extent = img.extent(entries[i].table, starts);
      int n = 0;
      for (unsigned words : kLayouts) n += terminator(img, entries[i].table, extent, words).has_value();
      if (n != 1)
        which = " (the table of cpuid \"" + entries[i].cpuid + "\" at " + img.where(entries[i].table) +
                ", " + std::to_string(extent) + " bytes, " +
                (n == 0 ? "has no terminating entry at its end with either" : "fits both") + ")";
    }
    if (entries.empty()) return {};
    return "cannot tell whether struct pmu_event holds 11 or 12 pointers" + which;
  }
  ev.pointers_per_event = fits[0];
  const uint64_t size = uint64_t{fits[0]} * img.pointer_size();
  for (const auto& e : entries) {
    pmclog::PmuEventTable t;
    t.cpuid = e.cpuid;
    const size_t n = *terminator(img, e.table, img.extent(e.table, starts), fits[0]);
    t.names.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const Loc slot{e.table.sec, e.table.off + i * size};
      const Pointer name = img.pointer(slot);
      const std::string what = "table of cpuid \"" + e.cpuid + "\", entry " + hex(i) + ": ";
      if (!name.error.empty()) return what + name.error;
      if (name.null) {
        t.names.emplace_back();
        continue;
      }
      std::string err;
      auto text = img.c_string(name.at, err);
      if (!text) return what + err;
      t.names.push_back(std::move(*text));
    }
    ev.tables.push_back(std::move(t));
  }
  return {};
}

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};
using ElfPtr = std::unique_ptr<Elf, ElfCloser>;

}  // namespace

PmuEventsRead read_pmu_events(const std::string& file) {
  PmuEventsRead out;
  out.events.source = file;
  auto fail = [&](const std::string& why) {
    out.error = file + ": " + why;
    out.events.tables.clear();
    return out;
  };
  elf_version(EV_CURRENT);
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(std::strerror(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};
  struct stat st;
  const uint64_t file_size = fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  // elf_rawfile() is not used for sizes: on an archive member it copies the member, and
  // elf_end() does not free the copy.
  ElfPtr top(elf_begin(fd, ELF_C_READ, nullptr));
  if (!top) return fail(std::string("cannot be read as ELF (") + elf_errmsg(-1) + ")");
  bool found = false, regex = false;
  auto visit = [&](Elf* e, const std::string& member, uint64_t size) -> std::string {
    const std::string in = member.empty() ? "" : "member " + member + ": ";
    if (elf_kind(e) != ELF_K_ELF) return member.empty() ? "not an ELF file or an ar archive" : "";
    Image img(e, size);
    if (auto err = img.load(); !err.empty()) return in + err;
    regex = regex || img.calls("regexec");
    if (found) return {};
    const auto map = img.symbol("pmu_events_map");
    if (!map) return {};
    found = true;
    if (auto err = read_tables(img, *map, out.events); !err.empty()) return in + err;
    return {};
  };
  if (elf_kind(top.get()) == ELF_K_AR) {
    Elf_Cmd cmd = ELF_C_READ;
    while (Elf* m = elf_begin(fd, cmd, top.get())) {
      ElfPtr member(m);
      const Elf_Arhdr* ah = elf_getarhdr(m);
      const std::string name = ah && ah->ar_name ? ah->ar_name : "?";
      cmd = elf_next(m);
      if (name == "/" || name == "//" || name == "/SYM64/") continue;  // index and names
      if (auto err = visit(m, name, ah ? ah->ar_size : 0); !err.empty()) return fail(err);
    }
  } else if (auto err = visit(top.get(), "", file_size); !err.empty()) {
    return fail(err);
  }
  if (!found)
    return fail("no symbol pmu_events_map (a libpmc without pmu-events tables, or stripped "
                "of its symbols)");
  out.events.match = regex ? pmclog::CpuidMatch::regex : pmclog::CpuidMatch::exact;
  return out;
}

std::optional<std::string> libpmc_in_sysroot(const std::string& root) {
  for (const char* p : {"/usr/lib/libpmc.so.5", "/usr/lib/libpmc.a"})
    if (auto f = resolve_in_sysroot(root, p)) return f;
  return std::nullopt;
}

LibpmcOption load_libpmc(const std::string& sysroot, const std::string& libpmc) {
  LibpmcOption o;
  if (libpmc.empty() && sysroot.empty()) return o;
  const auto file = libpmc.empty() ? libpmc_in_sysroot(sysroot) : std::optional<std::string>(libpmc);
  if (!file) {
    o.missing = sysroot + " has no usr/lib/libpmc.so.5 or usr/lib/libpmc.a: --libpmc FILE";
    return o;
  }
  PmuEventsRead r = read_pmu_events(*file);
  if (r.error.empty()) o.events = std::move(r.events);
  else if (libpmc.empty()) o.missing = r.error;
  else o.error = r.error;
  return o;
}

}  // namespace pmcprofile
