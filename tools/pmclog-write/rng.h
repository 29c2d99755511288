// A small deterministic random source for the synthetic model. Only integer arithmetic: the
// standard <random> distributions differ between standard libraries and floating-point
// results can differ between machines, and `synth` must give the same bytes everywhere.
#pragma once

#include <cstdint>

namespace pmclog::write {

// splitmix64: one 64-bit state, full period, good enough for workload shapes.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) for n > 0 (Lemire's multiply-shift; the tiny bias does not matter here).
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(next() >> 32) * n) >> 32);
  }
  // Uniform in [lo, hi].
  uint32_t between(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }
  // True with probability per_million / 1e6.
  bool chance(uint32_t per_million) { return below(1000000) < per_million; }

 private:
  uint64_t s_;
};

// A stateless mix of two values, for choices that must be the same every time they are
// asked (which call site a function calls another from).
inline uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ull;
  z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ull;
  return z ^ (z >> 32);
}

}  // namespace pmclog::write
