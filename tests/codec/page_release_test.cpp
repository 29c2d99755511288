// A span reader over a file mapping gives pages back behind its position, but not from the
// offset keep_from() names on: checked page by page with /proc/self/pagemap's present bit.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>

#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;

namespace {

// A 40 MiB log of callchains, written to a file.
std::vector<uint8_t> big_log(const pmclog::Abi& abi) {
  std::vector<uint8_t> log;
  log.reserve(41u << 20);
  std::mt19937_64 rng(7);
  pmclog::RecordValue cc;
  cc.kind = pmclog::Kind::callchain;
  cc[pmclog::Field::pid] = 1234;
  cc[pmclog::Field::pmcid] = 0x00201701;
  for (uint64_t i = 0; log.size() < (40u << 20); ++i) {
    cc.pcs.resize(8 + rng() % 25);
    for (auto& pc : cc.pcs) pc = 0x400000 + (rng() & 0xffffff);
    cc.tsc = i;
    EXPECT_TRUE(pmclog::encode(cc, abi, log).ok());
  }
  return log;
}

// Whether the page holding p is mapped in (bit 63 of its pagemap entry); nullopt if unknown.
std::optional<bool> present(const uint8_t* p) {
  static const long page = ::sysconf(_SC_PAGESIZE);
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  uint64_t e = 0;
  const off_t at = static_cast<off_t>(reinterpret_cast<uintptr_t>(p) / page * sizeof e);
  const bool ok = ::pread(fd, &e, sizeof e, at) == sizeof e;
  ::close(fd);
  if (!ok) return std::nullopt;
  return (e >> 63) != 0;
}

struct Read {
  size_t records = 0;
  bool kept_record_intact = false;
};

// Reads the whole mapped log, calling keep_from() once at the first record at `keep` or
// after (never when keep is 0).
Read read_all(const pmclog::MappedFile& m, const pmclog::Abi& abi,
              const std::vector<uint8_t>& log, uint64_t keep) {
  auto rd = pmclog::LogReader::over(m.bytes(), abi);
  rd.release_pages_behind(true);
  Read out;
  std::span<const uint8_t> kept;
  uint64_t kept_at = 0;
  pmclog::Error err;
  const pmclog::Step st = rd.for_each(
      [&](const pmclog::Record& r) {
        ++out.records;
        if (keep != 0 && kept.empty() && r.offset >= keep) {
          rd.keep_from(r.offset);
          kept = r.raw;
          kept_at = r.offset;
        }
      },
      err);
  EXPECT_EQ(st, pmclog::Step::end) << err.message;
  out.kept_record_intact =
      !kept.empty() && std::equal(kept.begin(), kept.end(), log.begin() + static_cast<ptrdiff_t>(kept_at));
  return out;
}

class PageRelease : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = big_log(abi_);
    write_file(dir_ / "big.pmclog", log_);
    auto m = pmclog::MappedFile::open(dir_.file("big.pmclog"));
    ASSERT_TRUE(m.ok()) << m.error().message;
    map_.emplace(std::move(m).value());
    if (!present(map_->bytes().data())) GTEST_SKIP() << "no /proc/self/pagemap";
  }
  const uint8_t* at(uint64_t offset) const { return map_->bytes().data() + offset; }
  const pmclog::Abi abi_ = pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little);
  ScratchDir dir_;
  std::vector<uint8_t> log_;
  std::optional<pmclog::MappedFile> map_;
};

TEST_F(PageRelease, KeptOffsetHoldsItsPages) {
  constexpr uint64_t kKeep = 4u << 20;
  const Read r = read_all(*map_, abi_, log_, kKeep);
  EXPECT_GT(r.records, 100000u);
  EXPECT_TRUE(r.kept_record_intact);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  // Behind the kept offset: given back.
  for (uint64_t o = 0; o + page <= kKeep; o += page) ASSERT_EQ(present(at(o)), false) << "offset " << o;
  // From the page after it on, far past where the reader alone would have released: read
  // and still there.
  for (uint64_t o = kKeep + page; o < (28u << 20); o += page)
    ASSERT_EQ(present(at(o)), true) << "offset " << o;
}

TEST_F(PageRelease, WithoutKeepEverythingBehindGoes) {
  const Read r = read_all(*map_, abi_, log_, 0);
  EXPECT_GT(r.records, 100000u);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  for (uint64_t o = 0; o < (28u << 20); o += page) ASSERT_EQ(present(at(o)), false) << "offset " << o;
}

}  // namespace
