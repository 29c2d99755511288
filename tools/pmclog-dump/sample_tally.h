// --stats' CALLCHAIN samples counted by shape first: (pid, pmc, cpuflags) -> count, in a small
// direct-mapped table. A log's samples come in runs of one process on one cpu under one pmc,
// so most cost one counter here, and the summary's tables (process row, pmc, cpu, each split
// user/kernel) see a shape once per run: when another shape takes its slot, or when the tally
// is drained. The tables counted at every sample were a third of --stats' loop.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace dump {

class SampleTally {
 public:
  struct Shape {
    int32_t pid;
    uint32_t pmcid;
    uint32_t cpuflags;  // the cpu and the user bit (Record::cpuflags_cpu, cpuflags_user)
    uint64_t n;         // samples of this shape
  };

  // `flush(shape)` takes a shape's count when it leaves the table.
  template <class Flush>
  void add(uint32_t pid, uint32_t pmcid, uint32_t cpuflags, Flush&& flush) {
    const uint64_t a = uint64_t{pid} << 32 | pmcid;
    const uint64_t b = cpuflags;
    Slot& s = slots_[index(pid ^ pmcid ^ (cpuflags << 4 | cpuflags >> 16))];
    if (s.a == a && s.b == b) [[likely]] {
      ++s.n;
      return;
    }
    if (s.b == kEmpty) used_.push_back(static_cast<uint16_t>(&s - slots_.data()));
    else flush(shape(s));
    s = {a, b, 1};
  }

  // Every shape out to `flush`, leaving the table empty. Before anything changes what a
  // shape's samples count towards (a process renamed), and before the tables are read.
  template <class Flush>
  void drain(Flush&& flush) {
    for (const uint16_t i : used_) {
      flush(shape(slots_[i]));
      slots_[i] = Slot{};
    }
    used_.clear();
  }

 private:
  // No shape has this b: cpuflags is 32 bits.
  static constexpr uint64_t kEmpty = UINT64_MAX;
  static constexpr int kBits = 8;
  struct Slot {
    uint64_t a = 0, b = kEmpty, n = 0;
  };
  // Fibonacci hashing of the three fields folded into 32 bits: shapes of one process differ
  // in a few bits (the cpu, the user bit, the pmc's cpu), and the product's top bits depend
  // on every bit below them.
  static size_t index(uint32_t h) { return (h * 0x9E3779B1u) >> (32 - kBits); }
  static Shape shape(const Slot& s) {
    return {static_cast<int32_t>(static_cast<uint32_t>(s.a >> 32)), static_cast<uint32_t>(s.a),
            static_cast<uint32_t>(s.b), s.n};
  }
  std::array<Slot, size_t{1} << kBits> slots_{};
  std::vector<uint16_t> used_;  // slots holding a shape, to drain only those
};

}  // namespace dump
