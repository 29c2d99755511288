#include "symbol_index.h"

#include <gelf.h>

#include <algorithm>

namespace pmcprofile {

namespace {

// An edge, and the address after it: libdwfl counts some ends in (a sizeless symbol last in
// its section still names the address one past the section's end), so either side may be
// where the answer changes.
void add_edge(uint64_t at, std::vector<uint64_t>& out) {
  out.push_back(at);
  out.push_back(at + 1);
}

// Every section of `elf`, at module addresses: libdwfl's sizeless-symbol fallback asks which
// section of the symbol's ELF file holds the address (all sections, allocated or not).
void add_sections(Elf* elf, Dwarf_Addr bias, std::vector<uint64_t>& out) {
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr) continue;
    add_edge(shdr.sh_addr + bias, out);
    add_edge(shdr.sh_addr + bias + shdr.sh_size, out);
  }
}

// A symbol libdwfl would consider for an address it covers (dwfl_module_addrsym: named,
// defined, and not a section, file or thread-local symbol).
bool candidate(const char* name, const GElf_Sym& sym) {
  const int type = GELF_ST_TYPE(sym.st_info);
  return name != nullptr && name[0] != '\0' && sym.st_shndx != SHN_UNDEF && type != STT_SECTION &&
         type != STT_FILE && type != STT_TLS;
}

// A label (sizeless symbol) libdwfl may fall back on away from its own address: one in a
// section. Sections from SHN_LORESERVE up are none, except the escape to the extended index.
bool section_label(const GElf_Sym& sym) {
  return sym.st_size == 0 && (sym.st_shndx < SHN_LORESERVE || sym.st_shndx == SHN_XINDEX);
}

// libdwfl's preference among symbols at the same address: global, then weak, then local.
int binding_rank(const GElf_Sym& sym) {
  switch (GELF_ST_BIND(sym.st_info)) {
    case STB_GLOBAL: return 3;
    case STB_WEAK: return 2;
    case STB_LOCAL: return 1;
    default: return 0;
  }
}

// libdwfl's fallback for an address no sized symbol covers (its min_label): the highest label
// at or below the address in its section, unless a symbol at or below the address reaches
// past that label. Given every symbol libdwfl considers, this tells which of some ascending
// addresses no label can name.
class LabelReach {
 public:
  explicit LabelReach(const std::vector<uint64_t>& at)
      : at_(at), reach_(at.size(), 0), label_(at.size(), 0), labelled_(at.size(), 0) {}
  // A symbol libdwfl considers; `label`: sizeless, in a section. Returns the index of the
  // first address at or above its value.
  size_t add(uint64_t value, uint64_t size, bool label) {
    const auto k =
        static_cast<size_t>(std::lower_bound(at_.begin(), at_.end(), value) - at_.begin());
    if (k == at_.size()) return k;  // above every address
    reach_[k] = std::max<uint64_t>(reach_[k], value + size);
    if (label) {
      label_[k] = labelled_[k] ? std::max(label_[k], value) : value;
      labelled_[k] = 1;
    }
    return k;
  }
  // Per address: no label can name it.
  std::vector<char> unnamed() const {
    std::vector<char> out(at_.size());
    uint64_t reached = 0, highest = 0;
    bool any = false;
    for (size_t k = 0; k < at_.size(); ++k) {
      reached = std::max(reached, reach_[k]);
      if (labelled_[k]) highest = any ? std::max(highest, label_[k]) : label_[k];
      any = any || labelled_[k];
      out[k] = !any || reached > highest;
    }
    return out;
  }

 private:
  const std::vector<uint64_t>& at_;
  // Of the symbols whose value is above at_[k - 1] and at most at_[k]: how far they reach, and
  // the highest label among them.
  std::vector<uint64_t> reach_, label_;
  std::vector<char> labelled_;
};

}  // namespace

// A sized symbol's range, and which symbol libdwfl names there when this range alone covers
// an address.
struct SymbolIndex::Range {
  uint64_t from, to;
  int index;             // in the module's table: libdwfl's search order
  int rank;              // binding_rank
  bool local;            // searched only when no global symbol covers
  bool candidate;
  Answer answer;
};

void SymbolIndex::build() {
  Dwfl_Module* const mod = mod_;
  std::vector<uint64_t> b{0};
  std::vector<Elf*> elves;
  std::vector<Range> sized;
  std::vector<uint64_t> sizeless;  // values of symbols without a size
  struct Considered {
    uint64_t value, size;
    bool label;
  };
  std::vector<Considered> considered;  // for LabelReach, once the intervals are known
  bool wraps = false;
  const int n = dwfl_module_getsymtab(mod);
  for (int i = 0; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr value = 0;
    GElf_Word shndx = 0;
    Elf* elf = nullptr;
    Dwarf_Addr bias = 0;
    const char* name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, &elf, &bias);
    if (name == nullptr) continue;
    if (candidate(name, sym))
      considered.push_back({value, sym.st_size, section_label(sym)});
    if (sym.st_size == 0) {
      sizeless.push_back(value);
    } else if (value + sym.st_size < value) {
      wraps = true;
    } else {
      sized.push_back({value, value + sym.st_size, i, binding_rank(sym),
                       GELF_ST_BIND(sym.st_info) == STB_LOCAL, candidate(name, sym), {name, value}});
    }
    // Where the symbol starts to count and where it stops covering (value + 1 is also the
    // end of the one address an absolute symbol matches).
    add_edge(value, b);
    add_edge(value + sym.st_size, b);
    if (elf != nullptr && std::find(elves.begin(), elves.end(), elf) == elves.end()) {
      elves.push_back(elf);
      add_sections(elf, bias, b);
    }
  }
  Dwarf_Addr bias = 0;
  if (Elf* main = dwfl_module_getelf(mod, &bias);
      main != nullptr && std::find(elves.begin(), elves.end(), main) == elves.end())
    add_sections(main, bias, b);
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  starts_ = std::move(b);
  answer_.assign(starts_.size(), -1);
  if (wraps) return;
  LabelReach reach(starts_);
  for (const Considered& c : considered) reach.add(c.value, c.size, c.label);
  settle_single_ranges(sized, sizeless, reach.unnamed());
}

// Where every sized symbol covering an interval has the same range (one function, often under
// several alias names), libdwfl's choice follows from its rules alone: the global symbols are
// searched first, and among symbols at one value the first of the strongest binding wins;
// the local ones only when no global one covers; sizeless labels only when nothing sized
// covers. One exception: a global sizeless symbol at exactly the address makes libdwfl skip
// the locals, so those one-address intervals are left to it, as is every interval with
// different ranges over it. Where no sized symbol covers, libdwfl falls back on the highest
// label at or below the address in its section (or, in no section, exactly at it) unless a
// symbol at or below the address reaches past that label: where one does, or no label lies
// below, and no sizeless symbol starts exactly there, the answer is none. That is most of a
// stripped program's text (its static functions are in no table). SymbolIndex's test checks
// the answers against libdwfl's.
void SymbolIndex::settle_single_ranges(std::vector<Range>& sized, std::vector<uint64_t>& sizeless,
                                       const std::vector<char>& unnamed) {
  std::sort(sized.begin(), sized.end(), [](const Range& x, const Range& y) {
    return x.from != y.from ? x.from < y.from : x.to != y.to ? x.to < y.to : x.index < y.index;
  });
  // One entry per distinct range, holding libdwfl's pick among its symbols.
  std::vector<Range> ranges;
  for (size_t i = 0; i < sized.size();) {
    size_t j = i;
    const Range* pick = nullptr;
    for (; j < sized.size() && sized[j].from == sized[i].from && sized[j].to == sized[i].to; ++j) {
      const Range& s = sized[j];
      if (!s.candidate) continue;
      const bool better = pick == nullptr || (pick->local && !s.local) ||
                          (pick->local == s.local && s.rank > pick->rank);
      if (better) pick = &s;
    }
    ranges.push_back(pick != nullptr ? *pick : sized[i]);
    ranges.back().candidate = pick != nullptr;
    i = j;
  }
  struct Event {
    uint64_t at;
    uint32_t id;
    int32_t delta;
  };
  std::vector<Event> events;
  events.reserve(ranges.size() * 2);
  for (uint32_t i = 0; i < ranges.size(); ++i) {
    events.push_back({ranges[i].from, i, +1});
    events.push_back({ranges[i].to, i, -1});
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.at < y.at; });
  std::sort(sizeless.begin(), sizeless.end());
  int32_t none = -1;  // the answer "no symbol", once
  // Every event is at an interval start. With one range covering, the XOR of the covering
  // ids is its id.
  size_t e = 0;
  int64_t covering = 0;
  uint32_t ids = 0;
  for (size_t k = 0; k < starts_.size(); ++k) {
    for (; e < events.size() && events[e].at == starts_[k]; ++e) {
      covering += events[e].delta;
      ids ^= events[e].id;
    }
    const bool label_here = std::binary_search(sizeless.begin(), sizeless.end(), starts_[k]);
    if (covering == 1 && ranges[ids].candidate && !label_here) {
      answer_[k] = static_cast<int32_t>(answers_.size());
      answers_.push_back(ranges[ids].answer);
    } else if (covering == 0 && !label_here && unnamed[k]) {
      if (none < 0) {
        none = static_cast<int32_t>(answers_.size());
        answers_.push_back({nullptr, 0});
      }
      answer_[k] = none;
    }
  }
}

void SymbolIndex::expect(std::vector<uint64_t> at) {
  if (!starts_.empty()) return;
  if (asked_ + at.size() > kWalksBeforeIndex) return build();
  if (at.size() > 1) settle_together(at);
}

// libdwfl's walk for a few addresses at once, where its answer is a sized symbol (or none at
// all). dwfl_module_addrinfo (elfutils 0.188) searches the global symbols first and the local
// ones only when no global sized symbol covers the address (and no global label starts
// exactly there); among the sized symbols covering it, table order decides, with the rule of
// `consider`. Labels (sizeless symbols) only count when no sized symbol covers, and only a
// label in the address's section that no symbol at or below the address reaches past (an
// absolute one only at its own address): where one may count, the address is left to
// libdwfl; where none can, the answer is none. (libdwfl also tries a second start for a
// symbol read through a function descriptor, on 64-bit PowerPC's ELFv1: that start lies in
// .opd, data no sample is taken in.)
namespace {

struct Closest {
  const char* name = nullptr;
  uint64_t value = 0, size = 0;
  int rank = 0;
};

// A sized symbol replaces the kept one when it starts closer to the address or binds more
// strongly, or when it starts at the same place, binds as strongly and is shorter.
void consider(Closest& c, const char* name, uint64_t value, uint64_t size, int rank) {
  const bool better = c.name == nullptr || c.value < value || c.rank < rank ||
                      (c.value == value && c.rank == rank && c.size > size);
  if (better) c = {name, value, size, rank};
}

}  // namespace

void SymbolIndex::settle_together(std::vector<uint64_t>& at) {
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  const int n = dwfl_module_getsymtab(mod_);
  const int first_global = dwfl_module_getsymtab_first_global(mod_);
  if (n <= 0 || first_global < 0) return;
  std::vector<Closest> best(at.size());
  std::vector<char> label_here(at.size(), 0), searched(at.size(), 1), any_label_here(at.size(), 0);
  LabelReach reach(at);
  const auto search = [&](int from, int to, bool globals) {
    for (int i = from; i < to; ++i) {
      GElf_Sym sym;
      GElf_Addr value = 0;
      const char* name = dwfl_module_getsym_info(mod_, i, &sym, &value, nullptr, nullptr, nullptr);
      if (!candidate(name, sym)) continue;
      size_t k = reach.add(value, sym.st_size, section_label(sym));
      if (sym.st_size == 0) {
        if (k < at.size() && at[k] == value) {
          any_label_here[k] = 1;
          if (globals) label_here[k] = 1;
        }
        continue;
      }
      for (; k < at.size() && at[k] - value < sym.st_size; ++k)
        if (searched[k]) consider(best[k], name, value, sym.st_size, binding_rank(sym));
    }
  };
  ++asked_;  // one walk, as one of libdwfl's (and the locals, when searched, finish it)
  search(first_global == 0 ? 1 : first_global, n, true);
  bool locals = false;
  for (size_t k = 0; k < at.size(); ++k) {
    searched[k] = best[k].name == nullptr && !label_here[k];
    locals = locals || searched[k];
  }
  if (locals && first_global > 1) search(1, first_global, false);
  const std::vector<char> unnamed = reach.unnamed();
  for (size_t k = 0; k < at.size(); ++k) {
    if (best[k].name != nullptr)
      early_.emplace_back(at[k], Answer{best[k].name, best[k].value});
    else if (!any_label_here[k] && unnamed[k])  // no label to fall back on: none, as libdwfl finds
      early_.emplace_back(at[k], Answer{nullptr, 0});
  }
  std::sort(early_.begin(), early_.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
}

SymbolIndex::Found SymbolIndex::ask_libdwfl(uint64_t at) {
  GElf_Off off = 0;
  GElf_Sym sym;
  const char* name = dwfl_module_addrinfo(mod_, at, &off, &sym, nullptr, nullptr, nullptr);
  ++asked_;
  return {name, name != nullptr ? off : 0};
}

SymbolIndex::Found SymbolIndex::find(uint64_t at) {
  if (starts_.empty()) {
    const auto e = std::lower_bound(early_.begin(), early_.end(), at,
                                    [](const auto& x, uint64_t a) { return x.first < a; });
    if (e != early_.end() && e->first == at)
      return {e->second.name, e->second.name != nullptr ? at - e->second.value : 0};
    if (asked_ < kWalksBeforeIndex) return ask_libdwfl(at);
    build();
  }
  const size_t k = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), at) -
                                       starts_.begin()) - 1;
  if (answer_[k] < 0) {
    const Found f = ask_libdwfl(at);
    answer_[k] = static_cast<int32_t>(answers_.size());
    answers_.push_back({f.name, at - f.offset});
  }
  const Answer& a = answers_[static_cast<size_t>(answer_[k])];
  return {a.name, a.name != nullptr ? at - a.value : 0};
}

}  // namespace pmcprofile
