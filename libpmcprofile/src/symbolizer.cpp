#include "pmcprofile/symbolizer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <fstream>
#include <optional>
#include <unordered_map>

#include "pmcprofile/find_debuginfo.h"
#include "pmcprofile/kallsyms.h"
#include "symbol_index.h"

namespace pmcprofile {

// One object's symbol source: a Dwfl with the object reported at its own addresses (base 0),
// or the sorted text symbols of /proc/kallsyms, or nothing.
struct Symbolizer::Module {
  bool ready = false;
  Dwfl* dwfl = nullptr;
  Dwfl_Module* mod = nullptr;
  bool has_symbols = false;
  std::optional<SymbolIndex> symbols;  // with has_symbols
  std::shared_ptr<const KernelSymbols> kallsyms;  // the process's one copy, sorted by address
  // The compile units by address range, built on first need: libdw finds an address's unit
  // only through .debug_aranges, which clang does not emit unless asked (-gdwarf-aranges).
  struct UnitRange {
    uint64_t lo, hi;  // [lo, hi) in the DWARF's addresses
    Dwarf_Die* cu;
    Dwarf_Addr bias;
  };
  std::vector<UnitRange> units;
  bool units_built = false;
};

struct Symbolizer::State {
  Dwfl_Callbacks callbacks{};
  char* debuginfo_path = nullptr;
  std::vector<Module> modules;  // by ObjectId
  struct Key {
    uint64_t address;
    uint32_t object;
    bool caller;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = k.address * 0x9E3779B97F4A7C15ull ^ (uint64_t{k.object} << 1 | k.caller);
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<Key, Symbolized, KeyHash> cache;
  size_t opened = 0;
};

namespace {

// The compile unit holding `at` (and its bias): libdw's aranges lookup, else the unit ranges.
Dwarf_Die* unit_of(Symbolizer::Module& m, uint64_t at, Dwarf_Addr& bias) {
  if (Dwarf_Die* cu = dwfl_module_addrdie(m.mod, at, &bias)) return cu;
  if (!m.units_built) {
    m.units_built = true;
    Dwarf_Addr b = 0;
    for (Dwarf_Die* cu = nullptr; (cu = dwfl_module_nextcu(m.mod, cu, &b)) != nullptr;) {
      Dwarf_Addr base, lo, hi;
      for (ptrdiff_t off = 0; (off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0;)
        if (lo < hi) m.units.push_back({lo, hi, cu, b});
    }
    std::sort(m.units.begin(), m.units.end(),
              [](const auto& x, const auto& y) { return x.lo < y.lo; });
  }
  // The last range starting at or below the address (ranges of distinct units do not overlap).
  auto it = std::upper_bound(m.units.begin(), m.units.end(), at,
                             [](uint64_t a, const auto& u) { return a < u.lo + u.bias; });
  if (it == m.units.begin()) return nullptr;
  --it;
  if (at - it->bias >= it->hi) return nullptr;
  bias = it->bias;
  return it->cu;
}

// The DIEs holding `pc` below `parent`, innermost first: subprograms, inlined calls and
// blocks, looking into namespaces and classes. For units where dwarf_getscopes finds nothing
// (clang's: elfutils 0.188 does not look inside their namespaces).
bool scopes_below(Dwarf_Die* parent, Dwarf_Addr pc, std::vector<Dwarf_Die>& chain) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    const int tag = dwarf_tag(&child);
    const bool container = tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
                           tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
    const bool code = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
                      tag == DW_TAG_lexical_block;
    if (container && scopes_below(&child, pc, chain)) return true;
    if (code && dwarf_haspc(&child, pc) > 0) {
      scopes_below(&child, pc, chain);
      chain.push_back(child);
      return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

const char* die_name(Dwarf_Die* die, bool prefer_linkage) {
  Dwarf_Attribute a;
  if (prefer_linkage) {
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) != nullptr ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a) != nullptr)
      return dwarf_formstring(&a);
  }
  if (dwarf_attr_integrate(die, DW_AT_name, &a) != nullptr) return dwarf_formstring(&a);
  return nullptr;
}

}  // namespace

Symbolizer::Symbolizer(ObjectTable& objects, SymbolOptions opt)
    : objects_(objects), opt_(std::move(opt)), s_(std::make_unique<State>()) {
  // Separate debug files: the user's directories, the sysroot's, then the host's (an empty
  // element is the object's own directory, for .gnu_debuglink).
  for (const auto& d : opt_.debug_dirs) {
    debuginfo_path_ += d;
    debuginfo_path_ += ':';
  }
  if (!objects_.options().sysroot.empty()) {
    debuginfo_path_ += objects_.options().sysroot;
    debuginfo_path_ += "/usr/lib/debug:";
  }
  debuginfo_path_ += ":.debug:/usr/lib/debug";
  s_->debuginfo_path = debuginfo_path_.data();
  s_->callbacks.find_elf = dwfl_build_id_find_elf;
  s_->callbacks.find_debuginfo = find_local_debuginfo;
  s_->callbacks.section_address = dwfl_offline_section_address;
  s_->callbacks.debuginfo_path = &s_->debuginfo_path;
}

Symbolizer::~Symbolizer() {
  for (Module& m : s_->modules)
    if (m.dwfl != nullptr) dwfl_end(m.dwfl);
}

void Symbolizer::expect_lookups(ObjectId object, std::vector<uint64_t> bytes) {
  Module& m = module(object);
  if (m.symbols) m.symbols->expect(std::move(bytes));
}

size_t Symbolizer::objects_opened() const { return s_->opened; }
size_t Symbolizer::addresses_looked_up() const { return s_->cache.size(); }

Symbolizer::Module& Symbolizer::module(ObjectId id) {
  if (s_->modules.size() <= id) s_->modules.resize(id + 1);
  Module& m = s_->modules[id];
  if (m.ready) return m;
  m.ready = true;
  ObjectInfo& o = objects_.info_mutable(id);
  const std::string& kallsyms = objects_.options().kallsyms_path();
  if (o.kallsyms && !kallsyms_describes(kallsyms, o.kallsyms_mapped)) {
    // Another boot or machine: this kallsyms does not describe that kernel.
    o.kallsyms = false;
    o.missing = Missing::not_found;
  }
  if (o.kallsyms) {
    m.kallsyms = shared_kernel_code_symbols(kallsyms);
    m.has_symbols = !m.kallsyms->empty();
    ++s_->opened;
    return m;
  }
  if (o.file.empty()) return m;
  const int fd = open(o.file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return m;
  m.dwfl = dwfl_begin(&s_->callbacks);
  if (m.dwfl == nullptr) {
    close(fd);
    return m;
  }
  // libdwfl owns the descriptor from here on.
  m.mod = dwfl_report_elf(m.dwfl, o.name.c_str(), o.file.c_str(), fd, 0, false);
  dwfl_report_end(m.dwfl, nullptr, nullptr);
  if (m.mod != nullptr) {  // find_local_debuginfo's path
    void** user = nullptr;
    dwfl_module_info(m.mod, &user, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (user != nullptr) *user = &debuginfo_path_;
  }
  if (m.mod != nullptr) m.has_symbols = dwfl_module_getsymtab(m.mod) > 0;
  if (m.has_symbols) m.symbols.emplace(m.mod);
  ++s_->opened;
  return m;
}

const Symbolized& Symbolizer::lookup(ObjectId object, uint64_t address, bool caller) {
  const State::Key key{address, object, caller};
  auto it = s_->cache.find(key);
  if (it != s_->cache.end()) return it->second;
  Symbolized& out = s_->cache[key];
  const uint64_t at = lookup_byte(address, caller);
  const ObjectInfo& o = objects_.info(object);
  Module& m = module(object);
  if (m.kallsyms && !m.kallsyms->empty()) {
    const KernelSymbols& ks = *m.kallsyms;
    const size_t k = ks.upper_bound(at);
    // Past its symbol's end (kernel_symbol_end): in no function the table names, rather than
    // in the one before, which would be a plausible wrong name.
    if (k == 0 || at >= kernel_symbol_end(ks, k - 1)) {
      out.why = Unresolved::no_symbols;
    } else {
      const KernelSymbol s = ks[k - 1];
      out.frames.push_back({std::string(s.name), "", 0, 0, address - s.address});
    }
    return out;
  }
  if (m.mod == nullptr) {
    out.why = o.file.empty() && !o.kallsyms ? Unresolved::object_missing : Unresolved::no_symbols;
    return out;
  }
  const SymbolIndex::Found sym =
      m.symbols ? m.symbols->find(at) : SymbolIndex::Found{};
  const char* name = sym.name;
  const uint64_t off = sym.offset;
  if (name == nullptr) {
    out.why = Unresolved::no_symbols;
    return out;
  }
  const auto pretty = [&](const char* n) {
    std::string raw(n);
    const size_t at_sign = raw.find('@');  // symbol versions (memcpy@@GLIBC_2.14) are not names
    if (at_sign != std::string::npos && at_sign > 0) raw.resize(at_sign);
    return opt_.demangle ? demangle(raw) : raw;
  };
  // `off` is from the byte looked up: the return address itself is one further.
  SymbolFrame outer{pretty(name), "", 0, 0, off + (address - at)};
  std::string leaf_file;
  int leaf_line = 0;
  if (opt_.lines || opt_.inlines) {
    if (Dwfl_Line* line = dwfl_module_getsrc(m.mod, at)) {
      const char* f = dwfl_lineinfo(line, nullptr, &leaf_line, nullptr, nullptr, nullptr);
      if (f != nullptr) leaf_file = f;
    } else {
      Dwarf_Addr bias = 0;
      Dwarf_Die* cu = unit_of(m, at, bias);
      if (Dwarf_Line* l = cu != nullptr ? dwarf_getsrc_die(cu, at - bias) : nullptr) {
        dwarf_lineno(l, &leaf_line);
        if (const char* f = dwarf_linesrc(l, nullptr, nullptr)) leaf_file = f;
      }
    }
  }
  std::vector<SymbolFrame> inl;  // innermost first while collecting
  if (opt_.inlines) {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = unit_of(m, at, bias);
    Dwarf_Die* found = nullptr;
    const int n = cu != nullptr ? dwarf_getscopes(cu, at - bias, &found) : 0;
    std::vector<Dwarf_Die> scopes(found, found + std::max(n, 0));
    std::free(found);
    if (scopes.empty() && cu != nullptr) scopes_below(cu, at - bias, scopes);
    Dwarf_Files* files = nullptr;
    size_t nfiles = 0;
    if (cu != nullptr && dwarf_getsrcfiles(cu, &files, &nfiles) != 0) files = nullptr;
    std::string file = leaf_file;
    int lineno = leaf_line;
    for (size_t i = 0; i < scopes.size(); ++i) {
      const int tag = dwarf_tag(&scopes[i]);
      if (tag == DW_TAG_subprogram) break;
      if (tag != DW_TAG_inlined_subroutine) continue;
      const char* nm = die_name(&scopes[i], opt_.demangle);
      inl.push_back({nm != nullptr ? pretty(nm) : "[inlined]", file,
                     static_cast<uint32_t>(lineno), 0, outer.offset});
      // The outer frame's position is this inlined call's call site.
      Dwarf_Attribute a;
      Dwarf_Word w = 0;
      file.clear();
      lineno = 0;
      if (dwarf_attr(&scopes[i], DW_AT_call_file, &a) != nullptr && dwarf_formudata(&a, &w) == 0 &&
          files != nullptr && w < nfiles) {
        const char* f = dwarf_filesrc(files, w, nullptr, nullptr);
        if (f != nullptr) file = f;
      }
      if (dwarf_attr(&scopes[i], DW_AT_call_line, &a) != nullptr && dwarf_formudata(&a, &w) == 0)
        lineno = static_cast<int>(w);
    }
    leaf_file = file;
    leaf_line = lineno;
  }
  if (opt_.lines) {
    outer.file = leaf_file;
    outer.line = static_cast<uint32_t>(leaf_line);
  } else {
    for (auto& f : inl) {
      f.file.clear();
      f.line = 0;
    }
  }
  out.frames.push_back(std::move(outer));
  for (auto r = inl.rbegin(); r != inl.rend(); ++r) {
    r->inline_depth = static_cast<uint16_t>(out.frames.size());
    out.frames.push_back(std::move(*r));
  }
  return out;
}

}  // namespace pmcprofile
