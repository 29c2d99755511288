// SymbolIndex gives libdwfl's own answer at every address: checked against
// dwfl_module_addrinfo on real objects (this test program, libc, libstdc++, the test
// libraries and one of overlapping symbols), at each symbol's edges and at random addresses in random order, so that an
// interval whose answer would differ anywhere inside it shows.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <gelf.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../../libpmcprofile/src/symbol_index.h"
#include "mutant_support.h"

namespace {

struct Object {
  Dwfl* dwfl = nullptr;
  Dwfl_Module* mod = nullptr;
  explicit Object(const std::string& path) {
    static const Dwfl_Callbacks cb{dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                   dwfl_offline_section_address, nullptr};
    dwfl = dwfl_begin(&cb);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (dwfl != nullptr && fd >= 0) mod = dwfl_report_elf(dwfl, "x", path.c_str(), fd, 0, false);
    dwfl_report_end(dwfl, nullptr, nullptr);
  }
  ~Object() { dwfl_end(dwfl); }
};

// The path of a loaded shared object whose name contains `part`.
std::string loaded(const char* part) {
  std::string found;
  std::pair<const char*, std::string*> want{part, &found};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* want = static_cast<std::pair<const char*, std::string*>*>(data);
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, want->first) != nullptr)
          *want->second = info->dlpi_name;
        return 0;
      },
      &want);
  return found;
}

size_t compare_everywhere(const std::string& path) {
  Object o(path);
  EXPECT_NE(o.mod, nullptr) << path;
  if (o.mod == nullptr) return 0;
  const int n = dwfl_module_getsymtab(o.mod);
  EXPECT_GT(n, 0) << path;
  // Probes: the edges of every section and of up to 600 symbols (each call of the reference
  // walks the whole table, so the big libraries get a sample), and 2,000 random addresses.
  std::mt19937_64 rng(42);
  std::vector<uint64_t> probes;
  const auto edges = [&](uint64_t at) {
    for (uint64_t a : {at - 1, at, at + 1}) probes.push_back(a);
  };
  Dwarf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(o.mod, &bias);
  for (Elf_Scn* scn = nullptr; elf != nullptr && (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr) continue;
    edges(sh.sh_addr + bias);
    edges(sh.sh_addr + bias + sh.sh_size);
  }
  uint64_t lo = UINT64_MAX, hi = 0;
  for (int i = 0; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr v = 0;
    if (dwfl_module_getsym_info(o.mod, i, &sym, &v, nullptr, nullptr, nullptr) == nullptr) continue;
    if (v != 0) lo = std::min(lo, v), hi = std::max(hi, v + sym.st_size);
    if (n > 600 && rng() % static_cast<uint64_t>(n) >= 600) continue;
    edges(v);
    edges(v + sym.st_size);
    probes.push_back(v + sym.st_size / 2);
  }
  for (int i = 0; i < 2000 && lo < hi; ++i) probes.push_back(lo + rng() % (hi - lo + 64));
  std::shuffle(probes.begin(), probes.end(), rng);

  struct Want {
    const char* name;
    GElf_Off offset;
  };
  std::vector<Want> wants;
  for (uint64_t at : probes) {
    GElf_Off off = 0;
    GElf_Sym sym;
    const char* want = dwfl_module_addrinfo(o.mod, at, &off, &sym, nullptr, nullptr, nullptr);
    wants.push_back({want, want != nullptr ? off : 0});
  }
  size_t differ = 0;
  const auto check = [&](size_t k, const pmcprofile::SymbolIndex::Found& got, const char* how) {
    const Want& w = wants[k];
    const bool same = w.name == nullptr ? got.name == nullptr
                                        : got.name != nullptr && std::strcmp(w.name, got.name) == 0 &&
                                              got.offset == w.offset;
    if (!same && ++differ <= 5)
      ADD_FAILURE() << path << " at 0x" << std::hex << probes[k] << ": libdwfl "
                    << (w.name ? w.name : "(none)") << "+0x" << w.offset << ", " << how << " "
                    << (got.name ? got.name : "(none)") << "+0x" << got.offset;
  };
  pmcprofile::SymbolIndex index(o.mod);
  for (size_t k = 0; k < probes.size(); ++k) check(k, index.find(probes[k]), "index");
  // Most addresses lie in one function, or in a gap no label below can name: the index
  // answers them without libdwfl's walk. (Counting a label that a symbol above it reaches
  // past left a thousand gaps of libc's and of this program to libdwfl, a walk each.)
  EXPECT_LT(index.libdwfl_lookups() * 20, probes.size()) << path;

  // The same addresses a few at a time, each few announced to a new index: settled together
  // in one walk, or left to libdwfl.
  const size_t few = pmcprofile::SymbolIndex::kWalksBeforeIndex;
  for (size_t from = 0; from < probes.size(); from += few) {
    const size_t to = std::min(probes.size(), from + few);
    pmcprofile::SymbolIndex together(o.mod);
    together.expect({probes.begin() + static_cast<ptrdiff_t>(from),
                     probes.begin() + static_cast<ptrdiff_t>(to)});
    for (size_t k = from; k < to; ++k) check(k, together.find(probes[k]), "together");
  }
  EXPECT_EQ(differ, 0u) << path << ": " << probes.size() << " addresses";
  return probes.size();
}

TEST(SymbolIndex, SameAnswersAsLibdwflOnRealObjects) {
  std::vector<std::string> paths{"/proc/self/exe", LIB_HOT, FAKE_LIBC, FAKE_PROG, WORKLOAD_HOT_NOPIE,
                                 OVERLAPPING_SYMBOLS};
  for (const char* lib : {"libc.so", "libstdc++", "libdw", "libm.so"})
    if (std::string p = loaded(lib); !p.empty()) paths.push_back(p);
  ASSERT_GE(paths.size(), 7u) << "libc and libstdc++ not found among the loaded objects";
  for (const auto& p : paths) EXPECT_GT(compare_everywhere(p), 100u) << p;
}

// A report that asks an object for a few addresses gets libdwfl's answers without paying for
// the index (as much as 70 of libdwfl's walks); the index comes with the lookup after them,
// and answers as libdwfl does from there on.
TEST(SymbolIndex, BuiltOnlyWhenAnObjectIsAskedForMoreThanAFewAddresses) {
  const std::string libc = loaded("libc.so");
  ASSERT_FALSE(libc.empty());
  Object o(libc);
  ASSERT_NE(o.mod, nullptr);
  const int n = dwfl_module_getsymtab(o.mod);
  ASSERT_GT(n, 1000);
  std::vector<uint64_t> at;  // the middle of sized symbols, spread over the table
  for (int i = 0; i < n && at.size() < 3 * pmcprofile::SymbolIndex::kWalksBeforeIndex; i += 7) {
    GElf_Sym sym;
    GElf_Addr v = 0;
    if (dwfl_module_getsym_info(o.mod, i, &sym, &v, nullptr, nullptr, nullptr) != nullptr &&
        sym.st_size > 2)
      at.push_back(v + sym.st_size / 2);
  }
  ASSERT_EQ(at.size(), 3 * pmcprofile::SymbolIndex::kWalksBeforeIndex);
  pmcprofile::SymbolIndex index(o.mod);
  for (size_t k = 0; k < at.size(); ++k) {
    EXPECT_EQ(index.built(), k > pmcprofile::SymbolIndex::kWalksBeforeIndex) << k;
    GElf_Off off = 0;
    GElf_Sym sym;
    const char* want = dwfl_module_addrinfo(o.mod, at[k], &off, &sym, nullptr, nullptr, nullptr);
    const pmcprofile::SymbolIndex::Found got = index.find(at[k]);
    ASSERT_NE(want, nullptr);
    ASSERT_NE(got.name, nullptr) << k;
    EXPECT_STREQ(got.name, want) << k;
    EXPECT_EQ(got.offset, off) << k;
  }
  EXPECT_TRUE(index.built());

  // Told which lookups come: a few are settled in one walk, more build the index at once,
  // and the answers are libdwfl's either way.
  const auto first = [&](size_t n) {
    return std::vector<uint64_t>(at.begin(), at.begin() + static_cast<ptrdiff_t>(n));
  };
  pmcprofile::SymbolIndex few(o.mod), many(o.mod);
  few.expect(first(pmcprofile::SymbolIndex::kWalksBeforeIndex));
  EXPECT_FALSE(few.built());
  for (size_t k = 0; k < pmcprofile::SymbolIndex::kWalksBeforeIndex; ++k) {
    GElf_Off off = 0;
    GElf_Sym sym;
    const char* want = dwfl_module_addrinfo(o.mod, at[k], &off, &sym, nullptr, nullptr, nullptr);
    const pmcprofile::SymbolIndex::Found got = few.find(at[k]);
    ASSERT_NE(got.name, nullptr);
    EXPECT_STREQ(got.name, want);
    EXPECT_EQ(got.offset, off);
  }
  EXPECT_FALSE(few.built());
  // The middles of sized functions: the one walk settles (nearly) all of them.
  EXPECT_LT(few.libdwfl_lookups(), 4u);
  many.expect(first(pmcprofile::SymbolIndex::kWalksBeforeIndex + 1));
  EXPECT_TRUE(many.built());
  for (const uint64_t a : at) {
    GElf_Off off = 0;
    GElf_Sym sym;
    const char* want = dwfl_module_addrinfo(o.mod, a, &off, &sym, nullptr, nullptr, nullptr);
    const pmcprofile::SymbolIndex::Found got = many.find(a);
    ASSERT_NE(got.name, nullptr);
    EXPECT_STREQ(got.name, want);
    EXPECT_EQ(got.offset, off);
  }
  // Without the hint the first kWalksBeforeIndex lookups were walks; with it only intervals
  // the index cannot settle are asked.
  EXPECT_LT(many.libdwfl_lookups(), pmcprofile::SymbolIndex::kWalksBeforeIndex / 2);
}

// A stripped library's static functions are in no symbol table: between the exported ones
// libdwfl finds nothing, after a walk of the whole table each time. The index settles those
// gaps when it is built (no label lies below them to fall back on), and so does one walk for
// a few addresses told in advance, so that a profile of a stripped program (most of its
// frames in such gaps) does not pay a walk per gap.
TEST(SymbolIndex, GapsOfAStrippedLibraryAreSettledWithoutAWalk) {
  const std::string lib = loaded("libstdc++");
  ASSERT_FALSE(lib.empty());
  Object o(lib);
  ASSERT_NE(o.mod, nullptr);
  Dwarf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(o.mod, &bias);
  ASSERT_NE(elf, nullptr);
  uint64_t lo = 0, hi = 0;  // .text
  size_t strndx = 0;
  ASSERT_EQ(elf_getshdrstrndx(elf, &strndx), 0);
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    const char* name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, strndx, sh.sh_name) : nullptr;
    if (name != nullptr && std::strcmp(name, ".text") == 0)
      lo = sh.sh_addr + bias, hi = lo + sh.sh_size;
  }
  ASSERT_LT(lo, hi);
  std::mt19937_64 rng(7);
  std::vector<uint64_t> gaps;  // where libdwfl finds no symbol
  for (int i = 0; i < 20000 && gaps.size() < 200; ++i) {
    const uint64_t a = lo + rng() % (hi - lo);
    GElf_Off off = 0;
    GElf_Sym sym;
    if (dwfl_module_addrinfo(o.mod, a, &off, &sym, nullptr, nullptr, nullptr) == nullptr)
      gaps.push_back(a);
  }
  ASSERT_GE(gaps.size(), 50u) << lib << ": its text is not stripped of static functions here";
  pmcprofile::SymbolIndex index(o.mod);
  index.expect(gaps);  // more than kWalksBeforeIndex: built at once
  ASSERT_TRUE(index.built());
  for (const uint64_t a : gaps) EXPECT_EQ(index.find(a).name, nullptr) << std::hex << a;
  EXPECT_EQ(index.libdwfl_lookups(), 0u);
  // Told a few at a time (no index), each few is settled by the one walk that reads them
  // all, where each was a walk of libdwfl's: the version names (GLIBCXX_3.4...) are labels
  // too, at 0, but libdwfl never falls back on a label a function above it reaches past.
  const size_t few = pmcprofile::SymbolIndex::kWalksBeforeIndex / 2;
  for (size_t from = 0; from + few <= gaps.size(); from += few) {
    pmcprofile::SymbolIndex together(o.mod);
    together.expect({gaps.begin() + static_cast<ptrdiff_t>(from),
                     gaps.begin() + static_cast<ptrdiff_t>(from + few)});
    ASSERT_FALSE(together.built());
    for (size_t k = from; k < from + few; ++k)
      EXPECT_EQ(together.find(gaps[k]).name, nullptr) << std::hex << gaps[k];
    EXPECT_EQ(together.libdwfl_lookups(), 1u) << "from " << from;
  }
}

// Independent of libdwfl's answers: on an object whose symbols are known by construction
// (known/known_code.h), each function covers exactly [value, value + size), whether the next
// byte starts another function or lies in a gap no symbol covers.
TEST(SymbolIndex, RangesEndWhereTheirSizeSays) {
  if (!known::available()) GTEST_SKIP() << "the known objects are x86-64 code";
  Object o(KNOWN_EXEC);
  ASSERT_NE(o.mod, nullptr);
  pmcprofile::SymbolIndex index(o.mod);
  const struct {
    const char* name;
    uint64_t at;
  } functions[] = {{"known_caller", KNOWN_CALLER}, {"known_next", KNOWN_NEXT},
                   {"known_leaf", KNOWN_LEAF},     {"known_rec", KNOWN_REC},
                   {"known_main", KNOWN_MAIN}};
  for (const auto& f : functions) {
    const uint64_t start = known::kExecText + f.at;
    for (uint64_t off : {uint64_t{0}, uint64_t{1}, uint64_t{KNOWN_SIZE - 1}}) {
      const auto got = index.find(start + off);
      ASSERT_NE(got.name, nullptr) << f.name << "+" << off;
      EXPECT_STREQ(got.name, f.name) << "+" << off;
      EXPECT_EQ(got.offset, off) << f.name;
    }
  }
  for (uint64_t at = KNOWN_GAP; at < KNOWN_GAP + KNOWN_SIZE; ++at) {
    const auto got = index.find(known::kExecText + at);
    EXPECT_EQ(got.name, nullptr) << "0x" << std::hex << known::kExecText + at << ": "
                                 << got.name << "+0x" << got.offset;
  }
}

}  // namespace
