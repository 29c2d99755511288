// Random record values within their fields' widths, for round-trip tests and big logs.
#pragma once

#include <random>

#include "format_rules.h"
#include "pmclog/layout.h"
#include "pmclog/record.h"

namespace codec_test {

class RandomRecords {
 public:
  RandomRecords(const Abi& abi, uint64_t seed) : abi_(abi), rng_(seed) {}

  uint64_t bits(int n) {
    const uint64_t v = rng_();
    return n >= 64 ? v : v & ((uint64_t{1} << n) - 1);
  }
  // Mostly small values, sometimes the extremes, so both ends of each width are hit.
  uint64_t value(int nbits) {
    switch (rng_() % 8) {
      case 0: return 0;
      case 1: return bits(nbits) | (uint64_t{1} << (nbits - 1));  // top bit set
      case 2: return nbits >= 64 ? ~uint64_t{0} : (uint64_t{1} << nbits) - 1;
      default: return bits(nbits);
    }
  }
  std::string text(size_t max_len) {
    size_t n = rng_() % (max_len + 1);
    if (rng_() % 16 == 0) n = max_len;
    std::string s(n, 'x');
    for (char& c : s) c = static_cast<char>(1 + rng_() % 255);  // any byte but NUL
    return s;
  }

  // A random record of kind k, or std::nullopt if the library has no layout for it.
  std::optional<pmclog::RecordValue> make(Kind k) {
    const pmclog::Layout* L = pmclog::layout_for(abi_, k);
    if (!L) return std::nullopt;
    pmclog::RecordValue v;
    v.kind = k;
    if (abi_.legacy()) {
      v.ts_sec = static_cast<uint32_t>(value(32));
      v.ts_nsec = static_cast<uint32_t>(value(28));  // the 28-bit field (format.md §3.2)
    } else {
      v.tsc = value(64);
    }
    for (const pmclog::FieldSpec& f : *L) {
      switch (f.type) {
        case pmclog::FieldType::u32: v[f.id] = value(32); break;
        case pmclog::FieldType::u8: v[f.id] = value(8); break;
        case pmclog::FieldType::u64_words: v[f.id] = value(64); break;
        case pmclog::FieldType::native: v[f.id] = value(8 * f.size); break;
        case pmclog::FieldType::addr: v[f.id] = value(8 * abi_.address_width); break;
        case pmclog::FieldType::chars: v.text = text(f.size - 1u); break;
        case pmclog::FieldType::path: v.text = text(rng_() % 8 == 0 ? 1023 : 64); break;
        case pmclog::FieldType::addrs: {
          const uint32_t max = abi_.callchain_depth_max();
          size_t n = 1 + rng_() % std::min<uint32_t>(max, 40);
          if (rng_() % 32 == 0) n = max;
          v.pcs.resize(n);
          for (auto& pc : v.pcs) pc = value(8 * abi_.address_width);
          break;
        }
        default: break;  // pad and unwritten words carry no value
      }
    }
    return v;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Abi abi_;
  std::mt19937_64 rng_;
};

}  // namespace codec_test
