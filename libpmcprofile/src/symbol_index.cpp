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

}  // namespace

SymbolIndex::SymbolIndex(Dwfl_Module* mod) : mod_(mod) {
  std::vector<uint64_t> b{0};
  std::vector<Elf*> elves;
  const int n = dwfl_module_getsymtab(mod);
  for (int i = 0; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr value = 0;
    GElf_Word shndx = 0;
    Elf* elf = nullptr;
    Dwarf_Addr bias = 0;
    if (dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, &elf, &bias) == nullptr) continue;
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
}

SymbolIndex::Found SymbolIndex::find(uint64_t at) {
  const size_t k = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), at) -
                                       starts_.begin()) - 1;
  if (answer_[k] < 0) {
    GElf_Off off = 0;
    GElf_Sym sym;
    const char* name = dwfl_module_addrinfo(mod_, at, &off, &sym, nullptr, nullptr, nullptr);
    answer_[k] = static_cast<int32_t>(answers_.size());
    answers_.push_back({name, at - off});
  }
  const Answer& a = answers_[static_cast<size_t>(answer_[k])];
  return {a.name, a.name != nullptr ? at - a.value : 0};
}

}  // namespace pmcprofile
