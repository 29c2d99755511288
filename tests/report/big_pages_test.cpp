// Large spans come on huge page boundaries with the huge page advice, keep what they hold as
// a vector grows through them, and are kept for reuse up to a bound; past it, and above the
// size of any table asked for again, they are unmapped. Small spans come from the heap.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pmcprofile/big_pages.h"

namespace {

namespace bp = pmcprofile::big_pages;
using pmcprofile::BigArray;
using pmcprofile::BigPages;

bool aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % bp::kHuge == 0; }

// Whether [p, p + n) is mapped at all (msync fails with ENOMEM on an unmapped range).
bool is_mapped(const void* p, size_t n) {
  return ::msync(const_cast<void*>(p), n, MS_ASYNC) == 0;
}

// The VmFlags of the mapping that holds `p`, from /proc/self/smaps ("" if none does).
std::string vm_flags(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find('-') < 17) {
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(BigPages, AVectorGrowingThroughLargeSpansKeepsItsItems) {
  std::vector<uint64_t, BigPages<uint64_t>> v;
  for (uint64_t i = 0; i < 3'000'000; ++i) v.push_back(i * 7);  // through 1, 2, 4, 8, 16 MiB...
  for (uint64_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 7) << i;
  if (!bp::kUsed) GTEST_SKIP() << "sanitizer build: the heap serves every span";
  EXPECT_TRUE(aligned(v.data()));
  if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage")) {
    EXPECT_NE(vm_flags(v.data()).find(" hg"), std::string::npos) << vm_flags(v.data());
  }
}

TEST(BigPages, SmallSpansComeFromTheHeap) {
  if (!bp::kUsed) GTEST_SKIP() << "sanitizer build: the heap serves every span";
  EXPECT_FALSE(bp::mapped(bp::kFrom - 1));
  EXPECT_TRUE(bp::mapped(bp::kFrom));
  // A heap span is not one of ours: no huge page advice on its mapping.
  std::vector<char, BigPages<char>> small(64 << 10, 'x');
  EXPECT_EQ(vm_flags(small.data()).find(" hg"), std::string::npos) << vm_flags(small.data());
}

TEST(BigPages, ASpanGivenBackServesTheNextAskOfItsSize) {
  if (!bp::kUsed) GTEST_SKIP() << "sanitizer build: the heap serves every span";
  bp::release_kept();
  const size_t n = (size_t{3} << 20) / sizeof(uint32_t);  // 3 MiB: a 4 MiB span
  const uint32_t* first = nullptr;
  {
    BigArray<uint32_t> a(n);
    first = a.data();
    a.data()[n - 1] = 42;  // the last byte asked for is there
  }
  EXPECT_TRUE(is_mapped(first, size_t{4} << 20));  // kept, not unmapped
  BigArray<uint32_t> b(n);
  EXPECT_EQ(b.data(), first);
  EXPECT_EQ(b.data()[n - 1], 42u);  // not zeroed: the same pages
}

TEST(BigPages, PastTheBoundSpansGivenBackAreUnmapped) {
  if (!bp::kUsed) GTEST_SKIP() << "sanitizer build: the heap serves every span";
  bp::release_kept();
  // Forty live 6 MiB spans (240 MiB), given back together: at most 64 MiB of them are kept.
  const size_t bytes = size_t{6} << 20;
  std::vector<BigArray<char>> spans;
  std::vector<const char*> where;
  for (int i = 0; i < 40; ++i) {
    spans.emplace_back(bytes);
    where.push_back(spans.back().data());
  }
  spans.clear();
  size_t still = 0;
  for (const char* p : where) still += is_mapped(p, bytes) ? 1 : 0;
  EXPECT_EQ(still, 64u / 6);  // as many as fit in the bound, the rest unmapped
  EXPECT_EQ(bp::kept_bytes(), still * bytes);
  bp::release_kept();
  for (const char* p : where) EXPECT_FALSE(is_mapped(p, bytes));
  // A span larger than any table asks for again (a grown array's old one) is not kept.
  const size_t large = size_t{16} << 20;
  const char* at = nullptr;
  {
    BigArray<char> a(large);
    at = a.data();
  }
  EXPECT_FALSE(is_mapped(at, large));
  EXPECT_EQ(bp::kept_bytes(), 0u);
}

}  // namespace
