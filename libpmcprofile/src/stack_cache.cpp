#include "stack_cache.h"

#include <algorithm>
#include <atomic>

namespace pmcprofile {
namespace {

std::atomic<uint64_t> g_epochs{0};  // epochs differ across caches: consumers key on them

// No early exit: stacks that hash alike are nearly always equal.
bool same(const uint64_t* a, const uint64_t* b, size_t n) {
  uint64_t d = 0;
  for (size_t i = 0; i < n; ++i) d |= a[i] ^ b[i];
  return d == 0;
}

}  // namespace

uint64_t StackCache::hash(uint32_t pid, uint32_t tid, bool user, const uint64_t* pcs, size_t n) {
  // Two lanes: half the multiply chain.
  uint64_t h0 = (uint64_t{pid} << 32 | tid) * 0x9E3779B97F4A7C15ull ^ user;
  uint64_t h1 = n * 0xC2B2AE3D27D4EB4Full;
  size_t i = 0;
  for (; i + 1 < n; i += 2) {
    h0 = (h0 ^ pcs[i]) * 0xFF51AFD7ED558CCDull;
    h1 = (h1 ^ pcs[i + 1]) * 0xC4CEB9FE1A85EC53ull;
  }
  if (i < n) h0 = (h0 ^ pcs[i]) * 0xFF51AFD7ED558CCDull;
  uint64_t h = (h0 ^ (h0 >> 29)) + (h1 ^ (h1 >> 32)) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 32;
  return h == kNoHash ? 1 : h;
}

StackCache::StackCache() : epoch_(++g_epochs) {}

// Reserving writes no page (only what is stored is faulted in), and the arena and frames
// then never copy themselves into fresh pages as they double (a 20,081-sample log: page
// faults 2,115 -> 1,981). A log of B bytes cannot fill more: each stack cached is one
// record of at least 24 bytes and 4 a frame, here its 6 header words, a word a pc and a
// frame id a pc. Bounded by the log, not fixed: under AddressSanitizer a reservation costs
// its whole size in shadow writes (3 ms for 12 MiB), paid by every small log.
void StackCache::reserve_for(uint64_t log_bytes) {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(log_bytes / 4, kMaxReserve));
  arena_.reserve(n);
  frames_.reserve(n);
}

bool StackCache::find(uint64_t hash, const StackKey& k, const uint64_t* pcs, size_t n, CachedStack& out) {
  if ((count_ + 1) * 2 > index_.size()) grow();
  const size_t mask = index_.size() - 1;
  const uint64_t w0 = uint64_t{k.pid} << 32 | k.tid;
  const uint64_t w1 = uint64_t{k.event} << 32 | k.comm;
  const uint64_t w2 = uint64_t{n} << 1 | k.user;
  size_t at = hash & mask;
  for (; index_[at].gen == gen_; at = (at + 1) & mask) {
    if (index_[at].hash != hash) continue;
    const uint64_t* c = arena_.data() + index_[at].off;
    if (c[0] == w0 && c[1] == w1 && c[2] == w2 && same(c + kHeader, pcs, n)) {
      const size_t kept = static_cast<size_t>(c[4] >> 32);
      const uint64_t* addresses = c[5] == kAddressesArePcs ? c + kHeader : addresses_.data() + c[5];
      out = {static_cast<uint32_t>(c[4]), {frames_.data() + c[3], kept}, {addresses, kept}};
      return true;
    }
  }
  miss_at_ = at;
  miss_hash_ = hash;
  return false;
}

uint32_t StackCache::add(const StackKey& k, const uint64_t* pcs, size_t n, std::span<const FrameId> frames,
                         std::span<const uint64_t> addresses) {
  const auto id = static_cast<uint32_t>(count_++);
  index_[miss_at_] = {miss_hash_, static_cast<uint32_t>(arena_.size()), gen_};
  const bool are_pcs = addresses.size() == n && std::equal(addresses.begin(), addresses.end(), pcs);
  arena_.insert(arena_.end(), {uint64_t{k.pid} << 32 | k.tid, uint64_t{k.event} << 32 | k.comm,
                               uint64_t{n} << 1 | k.user, frames_.size(), uint64_t{frames.size()} << 32 | id,
                               are_pcs ? kAddressesArePcs : addresses_.size()});
  arena_.insert(arena_.end(), pcs, pcs + n);
  frames_.insert(frames_.end(), frames.begin(), frames.end());
  if (!are_pcs) addresses_.insert(addresses_.end(), addresses.begin(), addresses.end());
  return id;
}

void StackCache::invalidate() {
  ++gen_;
  if (gen_ == 0) {  // wrapped: no old entry may look current
    for (Slot& e : index_) e.gen = 0;
    gen_ = 1;
  }
  count_ = 0;
  arena_.clear();
  frames_.clear();
  addresses_.clear();
  epoch_ = ++g_epochs;
}

void StackCache::grow() {
  std::vector<Slot, BigPages<Slot>> old = std::move(index_);
  index_.assign(std::max<size_t>(1024, old.size() * 2), Slot{});
  const size_t mask = index_.size() - 1;
  for (const Slot& e : old) {
    if (e.gen != gen_) continue;
    size_t at = e.hash & mask;
    while (index_[at].gen == gen_) at = (at + 1) & mask;
    index_[at] = e;
  }
}

void StackCache::prefetch(uint64_t hash, size_t n) const {
  if (index_.empty()) return;
  const Slot& e = index_[hash & (index_.size() - 1)];
  if (e.gen != gen_ || e.hash != hash) return;
  const auto c = reinterpret_cast<uintptr_t>(arena_.data() + e.off);
  const uintptr_t end = c + (kHeader + n) * sizeof(uint64_t);
  for (uintptr_t line = c & ~uintptr_t{63}; line < end; line += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}

}  // namespace pmcprofile
