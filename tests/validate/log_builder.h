// Building logs for the validator tests with the library's encoder, then damaging them on
// purpose: a valid baseline for every ABI, and byte surgery helpers for crafted files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/endian_io.h"
#include "pmclog/encode.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"
#include "scan.h"

namespace validate_test {

using namespace pmclog;

// PMC_VERSION of each generation (format.md §2).
inline uint32_t version_of(Generation g) {
  switch (g) {
    case Generation::L1: return 0x01020003;
    case Generation::L2:
    case Generation::L3: return 0x03010000;
    case Generation::M9: return 0x09030000;
    case Generation::M10: return 0x0A000000;
  }
  return 0;
}

// A process-mode (PMC_CPU_ANY) TS pmc id, class 7 row `row`, in the era's layout (format.md §9.3).
inline uint32_t process_pmcid(Generation g, uint32_t row = 0) {
  switch (g) {
    case Generation::M9: return 0xFFF02700u | row;
    case Generation::M10: return 0xFFF20700u | row;
    default: return 0xFF020700u | row;
  }
}

class LogBuilder {
 public:
  explicit LogBuilder(Abi abi) : abi_(abi) {}

  const Abi& abi() const { return abi_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }
  size_t count() const { return offsets_.size(); }
  size_t offset(size_t rec) const { return offsets_.at(rec); }
  bool legacy() const { return abi_.legacy(); }

  // Appends a record (timestamps filled in, increasing); returns its index.
  size_t add(RecordValue v, bool check_limits = true) {
    const size_t i = offsets_.size();
    if (legacy()) {
      // Default times go forward from the last one, whatever a test set before.
      if (v.ts_sec == 0) v.ts_sec = last_sec_ + 1;
      if (v.ts_nsec == 0) v.ts_nsec = 1000u * static_cast<uint32_t>(i);
      last_sec_ = v.ts_sec;
    } else if (v.tsc == 0) {
      v.tsc = 100000u + 10u * i;
    }
    offsets_.push_back(bytes_.size());
    EncodeOptions opt;
    opt.check_limits = check_limits;
    auto r = encode(v, abi_, bytes_, opt);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return i;
  }

  size_t initialize(uint32_t version = 0) {
    RecordValue v;
    v.kind = Kind::initialize;
    v[Field::version] = version ? version : version_of(abi_.generation);
    v[Field::arch] = 0x91;
    if (!legacy()) {
      v[Field::tsc_freq] = 3000000000u;
      v[Field::init_ts_sec] = 1700000000u;
      v.text = "GenuineIntel-6-3C";
    }
    return add(v);
  }
  size_t simple(Kind k) {
    RecordValue v;
    v.kind = k;
    return add(v);
  }
  size_t pmcallocate(uint32_t pmcid) {
    RecordValue v;
    v.kind = Kind::pmcallocate;
    v[Field::pmcid] = pmcid;
    v[Field::event] = 0x1000;
    v[Field::flags] = 0x84;
    return add(v);
  }
  size_t sample(uint32_t pid, uint32_t pmcid, std::vector<uint64_t> pcs = {0x401000, 0x401200},
                uint32_t cpu = 1, bool check_limits = true) {
    RecordValue v;
    if (abi_.generation == Generation::L1) {
      v.kind = Kind::pcsample;
      v[Field::pid] = pid;
      v[Field::pmcid] = pmcid;
      v[Field::pc] = pcs.empty() ? 0 : pcs[0];
      v[Field::usermode] = 1;
      return add(v);
    }
    v.kind = Kind::callchain;
    v[Field::pid] = pid;
    v[Field::tid] = pid + 100000;
    v[Field::pmcid] = pmcid;
    v[Field::cpuflags] = (cpu << 16) | 1u;
    v.pcs = std::move(pcs);
    return add(v, check_limits);
  }
  size_t map_in(uint32_t pid, uint64_t start, std::string path, bool check_limits = true) {
    RecordValue v;
    v.kind = Kind::map_in;
    v[Field::pid] = pid;
    v[Field::start] = start;
    v.text = std::move(path);
    return add(v, check_limits);
  }
  size_t map_out(uint32_t pid, uint64_t start, uint64_t end) {
    RecordValue v;
    v.kind = Kind::map_out;
    v[Field::pid] = pid;
    v[Field::start] = start;
    v[Field::end] = end;
    return add(v);
  }
  size_t procexec(uint32_t pid, uint32_t pmcid, std::string path) {
    RecordValue v;
    v.kind = Kind::procexec;
    v[Field::pid] = pid;
    v[Field::pmcid] = pmcid;
    v[Field::entryaddr] = 0x80600140;
    v.text = std::move(path);
    return add(v);
  }
  size_t userdata(uint32_t value) {
    RecordValue v;
    v.kind = Kind::userdata;
    v[Field::userdata] = value;
    return add(v);
  }
  size_t proccsw(uint32_t pmcid, uint32_t pid) {
    RecordValue v;
    v.kind = Kind::proccsw;
    v[Field::pmcid] = pmcid;
    v[Field::pid] = pid;
    v[Field::value] = 7;
    return add(v);
  }
  size_t procfork(uint32_t oldpid, uint32_t newpid) {
    RecordValue v;
    v.kind = Kind::procfork;
    v[Field::oldpid] = oldpid;
    v[Field::newpid] = newpid;
    return add(v);
  }
  size_t sysexit(uint32_t pid) {
    RecordValue v;
    v.kind = Kind::sysexit;
    v[Field::pid] = pid;
    return add(v);
  }
  size_t procexit(uint32_t pmcid, uint32_t pid) {
    RecordValue v;
    v.kind = Kind::procexit;
    v[Field::pmcid] = pmcid;
    v[Field::pid] = pid;
    v[Field::value] = 99;
    return add(v);
  }
  // A USERDATA with a chosen legacy time (sec 0: the next default second).
  size_t legacy_time(uint32_t sec, uint32_t nsec) {
    RecordValue v;
    v.kind = Kind::userdata;
    v.ts_sec = sec;
    v.ts_nsec = nsec;
    return add(v);
  }

  // --- surgery: words in the log's byte order --------------------------------------------
  uint32_t word(size_t rec, size_t at) const {
    return pmclog::detail::load32(abi_.byte_order, bytes_.data() + offsets_.at(rec) + at);
  }
  void set_word(size_t rec, size_t at, uint32_t v) {
    pmclog::detail::store32(abi_.byte_order, bytes_.data() + offsets_.at(rec) + at, v);
  }
  uint16_t length(size_t rec) const { return static_cast<uint16_t>(word(rec, 0) & 0xFFFF); }
  void set_length(size_t rec, uint32_t len) {
    set_word(rec, 0, (word(rec, 0) & 0xFFFF0000u) | (len & 0xFFFF));
  }
  void set_type(size_t rec, uint8_t type) {
    set_word(rec, 0, (word(rec, 0) & 0xFF00FFFFu) | (uint32_t{type} << 16));
  }
  void set_magic(size_t rec, uint8_t magic) {
    set_word(rec, 0, (word(rec, 0) & 0x00FFFFFFu) | (uint32_t{magic} << 24));
  }
  // Inserts n bytes (value `fill`) at the end of record `rec` and grows its length.
  void grow(size_t rec, size_t n, uint8_t fill = 0) {
    const size_t end = offsets_.at(rec) + length(rec);
    bytes_.insert(bytes_.begin() + static_cast<std::ptrdiff_t>(end), n, fill);
    set_length(rec, length(rec) + static_cast<uint32_t>(n));
    for (size_t i = rec + 1; i < offsets_.size(); ++i) offsets_[i] += n;
  }
  void truncate(size_t n) { bytes_.resize(bytes_.size() - n); }
  void append_raw(const std::string& s) { bytes_.insert(bytes_.end(), s.begin(), s.end()); }

 private:
  Abi abi_;
  uint32_t last_sec_ = 1700000000u;
  std::vector<uint8_t> bytes_;
  std::vector<size_t> offsets_;
};

// Record indices of the baseline log, for tests that damage one of them.
struct Baseline {
  size_t init, alloc, exec, map_libc, map_libm, sample1, userdata, proccsw, map_out, fork,
      sample2, sysexit, procexit, closelog;
};

inline constexpr uint32_t kPid = 1234, kChild = 1240;
inline constexpr uint64_t kLibc = 0x800a0000, kLibm = 0x800b0000;

// A log with no problem at all, for any ABI: every rule stays quiet on it. `closelog`
// false leaves the CLOSELOG out (for tests that append after the last record).
inline Baseline build_valid(LogBuilder& b, bool closelog = true) {
  Baseline x{};
  const Generation g = b.abi().generation;
  const uint32_t pmc = process_pmcid(g);
  const bool maps = g != Generation::L1;
  x.init = b.initialize();
  x.alloc = b.pmcallocate(pmc);
  if (maps) b.map_in(0xFFFFFFFFu, 0xC0400000u, "/boot/kernel/kernel");
  x.exec = b.procexec(kPid, pmc, "/usr/bin/yes");
  if (maps) {
    x.map_libc = b.map_in(kPid, kLibc, "/lib/libc.so.7");
    x.map_libm = b.map_in(kPid, kLibm, "/lib/libm.so.5");
  }
  x.sample1 = b.sample(kPid, pmc);
  x.userdata = b.userdata(0xcafe);
  x.proccsw = b.proccsw(pmc, kPid);
  if (maps) x.map_out = b.map_out(kPid, kLibc, kLibc + 0x20000);
  x.fork = b.procfork(kPid, kChild);
  x.sample2 = b.sample(kChild, pmc, {0x401000, 0x402000, 0x403000}, 0);
  x.sysexit = b.sysexit(kChild);
  x.procexit = b.procexit(pmc, kChild);
  if (closelog) x.closelog = b.simple(Kind::closelog);
  return x;
}

inline pmclog::validate::FileResult check(const LogBuilder& b,
                                          const pmclog::validate::Config& cfg) {
  LogReader rd = LogReader::over(b.bytes(), b.abi());
  return pmclog::validate::validate_reader("test.pmclog", rd, cfg);
}

inline pmclog::validate::FileResult check(const LogBuilder& b) {
  return check(b, pmclog::validate::Config::defaults(false, std::nullopt));
}

inline std::vector<std::string> rule_ids(const pmclog::validate::FileResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.emplace_back(pmclog::validate::info(d.rule).id);
  return out;
}

inline std::string dump(const pmclog::validate::FileResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) {
    s += std::to_string(d.offset) + ": " + std::string(pmclog::validate::info(d.rule).id) +
         ": " + d.message + "\n";
  }
  return s;
}

inline Abi l3() { return Abi::make(Generation::L3, 8, ByteOrder::little); }
inline Abi m9() { return Abi::make(Generation::M9, 8, ByteOrder::little); }

}  // namespace validate_test
