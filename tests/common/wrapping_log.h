// An L3 log whose header times wrap (docs/format.md §3.5): INITIALIZE part-way into a second,
// then a sample every 10 ms for several seconds, each header masked as the kernel masks it.
// The tools' tests compare what they say of its times with the true times kept here.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pmclog/encode.h"

namespace wrapping_log {

inline constexpr uint64_t kSecond = 1000000000;
inline constexpr uint32_t kPid = 100, kPmc = 0xFF020700;  // a process-mode TS pmc, legacy layout

struct Log {
  std::string bytes;
  uint64_t start_ns = 0;            // INITIALIZE's true time
  std::vector<uint64_t> sample_ns;  // each sample's true time, in file order
  double seconds(size_t i) const {  // sample i in seconds after INITIALIZE
    return static_cast<double>(sample_ns[i] - start_ns) / 1e9;
  }
  // How many samples lie in [from, to) seconds after INITIALIZE.
  size_t between(double from, double to) const {
    size_t n = 0;
    for (size_t i = 0; i < sample_ns.size(); ++i) n += seconds(i) >= from && seconds(i) < to;
    return n;
  }
};

// INITIALIZE at `start_ns` (0.6 s into its second: two wraps already), then `samples`
// samples 5 ms + 10 ms * i later, none on a round hundredth of a second.
inline Log make(uint64_t start_ns = 1700000000 * kSecond + 600000000, size_t samples = 650) {
  Log log;
  log.start_ns = start_ns;
  const pmclog::Abi abi = pmclog::Abi::make(pmclog::Generation::L3, 8, pmclog::ByteOrder::little);
  std::vector<uint8_t> out;
  auto add = [&](pmclog::RecordValue v, uint64_t at) {
    const auto [sec, nsec] = pmclog::legacy_timestamp(at / kSecond, at % kSecond);
    v.ts_sec = sec;
    v.ts_nsec = nsec;
    const auto r = pmclog::encode(v, abi, out);
    if (!r.ok()) throw std::runtime_error("wrapping_log: " + r.error().message);
  };
  pmclog::RecordValue init;
  init.kind = pmclog::Kind::initialize;
  init[pmclog::Field::version] = 0x03010000;
  init[pmclog::Field::arch] = 0x91;
  add(init, start_ns);
  pmclog::RecordValue alloc;
  alloc.kind = pmclog::Kind::pmcallocatedyn;
  alloc[pmclog::Field::pmcid] = kPmc;
  alloc[pmclog::Field::event] = 0x20000;
  alloc[pmclog::Field::flags] = 0x80;
  alloc.text = "cpu-clock";
  add(alloc, start_ns + 1000000);
  for (size_t i = 0; i < samples; ++i) {
    pmclog::RecordValue s;
    s.kind = pmclog::Kind::callchain;
    s[pmclog::Field::pid] = kPid;
    s[pmclog::Field::pmcid] = kPmc;
    s[pmclog::Field::cpuflags] = 1;  // cpu 0, user mode
    s.pcs = {0x401000 + 16 * (i % 4)};
    const uint64_t at = start_ns + 5000000 + 10000000 * i;
    log.sample_ns.push_back(at);
    add(s, at);
  }
  log.bytes.assign(out.begin(), out.end());
  return log;
}

}  // namespace wrapping_log
