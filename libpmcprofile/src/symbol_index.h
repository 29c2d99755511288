// The symbol at an address, with libdwfl's own answer but without its cost per lookup.
//
// dwfl_module_addrinfo (elfutils 0.188) walks the whole symbol table on every call, checking
// each symbol's section as well: on a synthetic log over a 30,000-symbol binary that is 70% of
// the report's time. Its answer depends only on which symbols start at or below the address,
// which of those still cover it (value + size), and which section the address lies in; it is
// therefore the same for every address between two consecutive such boundaries. This index
// sorts the boundaries once per module. An interval covered by one function's range (most of a
// program's text, under one or several alias names) gets its answer from libdwfl's rules; any
// other interval asks libdwfl once, so the names are libdwfl's wherever its rules (binding
// preference, sizeless labels) choose, and a lookup is a binary search.
//
// The index costs what 18 to 70 of libdwfl's walks cost (measured on libc, libstdc++ and
// ld.so: 3.4 ms for libc's 10,000 symbols against 65 us a walk), and a small report asks
// most objects for a handful of addresses. So the index is built only when an object is asked
// for more than kWalksBeforeIndex; a few addresses told in advance (expect) are answered from
// one walk of the table for all of them, and the others go to libdwfl's walk each.
#pragma once

#include <elfutils/libdwfl.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace pmcprofile {

class SymbolIndex {
 public:
  struct Found {
    const char* name = nullptr;  // owned by the Dwfl; nullptr: no symbol at the address
    uint64_t offset = 0;         // address - the symbol's value
  };

  // Lookups answered by libdwfl's walk before the index is built.
  static constexpr size_t kWalksBeforeIndex = 16;

  explicit SymbolIndex(Dwfl_Module* mod) : mod_(mod) {}
  // The same as dwfl_module_addrinfo(mod, at, &offset, ...).
  Found find(uint64_t at);
  // The addresses find() is asked next. More than the walks left before the index: the
  // index is built now, where those walks would have been spent first. A few: one walk of the
  // table settles those whose answer libdwfl's rules fix (the test of settle_single_ranges,
  // address by address), and only the others are left to a libdwfl walk each.
  void expect(std::vector<uint64_t> at);
  bool built() const { return !starts_.empty(); }
  size_t libdwfl_lookups() const { return asked_; }  // walks: before the index, and for it

 private:
  struct Answer {
    const char* name;
    uint64_t value;
  };
  struct Range;
  Found ask_libdwfl(uint64_t at);
  void build();
  void settle_single_ranges(std::vector<Range>& sized, std::vector<uint64_t>& sizeless,
                            const std::vector<char>& unnamed);
  void settle_together(std::vector<uint64_t>& at);
  Dwfl_Module* mod_;
  std::vector<uint64_t> starts_;  // sorted, unique, starts_[0] == 0: interval k is [starts_[k], starts_[k+1])
  std::vector<int32_t> answer_;   // per interval: index into answers_, -1 not asked yet
  std::vector<Answer> answers_;
  size_t asked_ = 0;
  std::vector<std::pair<uint64_t, Answer>> early_;  // settle_together's, by address
};

}  // namespace pmcprofile
