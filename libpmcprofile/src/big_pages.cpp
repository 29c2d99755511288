#include "pmcprofile/big_pages.h"

#include <sys/mman.h>

#include <mutex>
#include <vector>

namespace pmcprofile::big_pages {

namespace {

size_t rounded(size_t bytes) { return (bytes + kHuge - 1) / kHuge * kHuge; }

// Spans given back, kept for the next ask of their size: the next log of a several-log
// report builds the same tables again, and a kept span's pages are already in (fresh ones
// cost their zeroing, 20 logs of 100,000 samples took 2% longer without this).
struct Kept {
  void* p;
  size_t size;
};
constexpr size_t kKeep = size_t{64} << 20;
// A larger span is a grown table's old array (a profile's index doubling), which nothing of
// its size asks for again: kept, it only added to the peak (78 MiB on a 100 MB log).
constexpr size_t kKeepEach = size_t{8} << 20;
std::mutex g_mu;
std::vector<Kept>* g_kept = new std::vector<Kept>;  // never freed: spans outlive statics
size_t g_kept_bytes = 0;

void* take_kept(size_t size) {
  std::lock_guard lock(g_mu);
  for (Kept& k : *g_kept) {
    if (k.size != size) continue;
    void* p = k.p;
    k = g_kept->back();
    g_kept->pop_back();
    g_kept_bytes -= size;
    return p;
  }
  return nullptr;
}

bool keep(void* p, size_t size) {
  if (size > kKeepEach) return false;
  std::lock_guard lock(g_mu);
  if (g_kept_bytes + size > kKeep) return false;
  g_kept->push_back({p, size});
  g_kept_bytes += size;
  return true;
}

}  // namespace

// Mapped a huge page larger than asked and trimmed to the boundary: the kernel gives huge
// pages only to aligned 2 MiB ranges. Where transparent huge pages are off, madvise fails
// and the span is ordinary pages, as from the heap.
void* map(size_t bytes) {
  const size_t size = rounded(bytes);
  if (void* p = take_kept(size)) return p;
  void* raw = ::mmap(nullptr, size + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHuge - 1) / kHuge * kHuge;
  if (aligned != start) ::munmap(raw, aligned - start);
  const uintptr_t end = start + size + kHuge, used = aligned + size;
  if (end != used) ::munmap(reinterpret_cast<void*>(used), end - used);
  auto* p = reinterpret_cast<void*>(aligned);
  ::madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void unmap(void* p, size_t bytes) {
  const size_t size = rounded(bytes);
  if (!keep(p, size)) ::munmap(p, size);
}

size_t kept_bytes() {
  std::lock_guard lock(g_mu);
  return g_kept_bytes;
}

void release_kept() {
  std::lock_guard lock(g_mu);
  for (const Kept& k : *g_kept) ::munmap(k.p, k.size);
  g_kept->clear();
  g_kept_bytes = 0;
}

}  // namespace pmcprofile::big_pages
