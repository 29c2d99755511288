// LogReader::for_each: its inline fast path is a second decoder for the common records, so it
// must give exactly what next() gives, in every ABI, on clean and damaged logs, and it must
// stop, resume and report errors like next().
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <stdexcept>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/encode.h"
#include "pmclog/open.h"
#include "random_records.h"
#include "test_util.h"

using namespace codec_test;
using pmclog::Step;

namespace {

std::vector<Owned> via_for_each(pmclog::LogReader rd, pmclog::Error* err = nullptr) {
  std::vector<Owned> out;
  pmclog::Error e;
  const Step st = rd.for_each([&](const pmclog::Record& r) { out.push_back(own(r, rd.abi())); }, e);
  if (st == Step::error && err) *err = e;
  EXPECT_NE(st, Step::record) << "for_each stopped although f never asked it to";
  return out;
}

// A record as one line: offset, header and every value (so a field decoded differently shows).
std::string line(const pmclog::Record& r, const Abi& abi) {
  const pmclog::RecordValue v = pmclog::to_value(r, abi);
  std::string s = "rec";
  const auto num = [&](uint64_t x) {
    s += ' ';
    s += std::to_string(x);
  };
  num(r.offset);
  num(r.header.length);
  num(v.ts_sec);
  num(v.ts_nsec);
  num(v.tsc);
  for (uint64_t x : v.v) num(x);
  s += " text=";
  s += v.text;
  for (uint64_t pc : v.pcs) num(pc);
  return s;
}

// A log of every kind of the ABI, many times, in random order: the fast path (words and
// frames) and the general path (text, 64-bit fields) interleave.
std::vector<uint8_t> mixed_log(const Abi& abi, uint64_t seed) {
  RandomRecords gen(abi, seed);
  std::mt19937_64 rng(seed);
  const auto kinds = kinds_of(abi.generation);
  std::vector<uint8_t> out;
  for (int i = 0; i < 400; ++i) {
    auto v = gen.make(kinds[rng() % kinds.size()]);
    if (v) {
      EXPECT_TRUE(pmclog::encode(*v, abi, out).ok());
    }
  }
  return out;
}

TEST(ForEach, SameRecordsAsNextInEveryAbi) {
  for (const Abi& abi : fixture_abis()) {
    SCOPED_TRACE(fixture_stem(abi));
    for (const auto& b : {slurp_bytes(fixtures_dir() + "/" + fixture_relpath(abi) + ".pmclog"),
                          mixed_log(abi, 7)}) {
      auto rd = pmclog::LogReader::over(b, abi);
      pmclog::Error e1, e2;
      const auto want = read_all(rd, &e1);
      ASSERT_EQ(e1.code, pmclog::Errc::none) << e1.message;
      ASSERT_GT(want.size(), 10u);
      EXPECT_EQ(via_for_each(pmclog::LogReader::over(b, abi), &e2), want);
      EXPECT_EQ(via_for_each(pmclog::LogReader::stream(pmclog::span_source(b, 333), abi)), want);
    }
  }
}

TEST(ForEach, GoldenLogsAsNext) {
  for (const char* name : {"seed-lp64-le", "modern-lp64-le"}) {
    SCOPED_TRACE(name);
    const auto b = slurp_bytes(fixtures_dir() + "/golden/" + name + ".pmclog");
    ASSERT_FALSE(b.empty());
    const auto det = pmclog::detect_abi(b);
    ASSERT_TRUE(det.ok());
    auto rd = pmclog::LogReader::over(b, det->abi);
    const auto want = read_all(rd);
    EXPECT_EQ(via_for_each(pmclog::LogReader::over(b, det->abi)), want);
  }
}

// f returning false stops after that record; the next call resumes right behind it.
TEST(ForEach, StopsAndResumes) {
  const Abi abi = Abi::make(Generation::M10, 8, pmclog::ByteOrder::big);
  const auto b = mixed_log(abi, 11);
  auto ref = pmclog::LogReader::over(b, abi);
  const auto want = read_all(ref);

  auto rd = pmclog::LogReader::over(b, abi);
  std::vector<Owned> got;
  pmclog::Error e;
  int calls = 0;
  for (;;) {
    size_t taken = 0;
    const Step st = rd.for_each([&](const pmclog::Record& r) {
      got.push_back(own(r, abi));
      return ++taken < 7;
    }, e);
    ++calls;
    if (st == Step::end) break;
    ASSERT_EQ(st, Step::record);
    ASSERT_EQ(taken, 7u);
    EXPECT_EQ(rd.offset(), got.back().offset + got.back().header.length);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(calls, static_cast<int>(want.size() / 7) + 1);
}

// An exception from f leaves the reader just past the record f threw on, as a loop over
// next() would (the inline loop keeps the position in a local copy and must write it back).
TEST(ForEach, ExceptionFromFLeavesReaderPastThatRecord) {
  const Abi abi = Abi::make(Generation::L3, 4, pmclog::ByteOrder::little);
  const auto b = mixed_log(abi, 5);
  auto ref = pmclog::LogReader::over(b, abi);
  const auto want = read_all(ref);
  ASSERT_GT(want.size(), 100u);
  for (bool streaming : {false, true}) {
    SCOPED_TRACE(streaming ? "stream reader" : "span reader");
    auto rd = streaming ? pmclog::LogReader::stream(pmclog::span_source(b, 333), abi)
                        : pmclog::LogReader::over(b, abi);
    std::vector<Owned> got;
    pmclog::Error e;
    for (size_t throw_at : {5u, 40u, 41u, 99u}) {
      try {
        rd.for_each([&](const pmclog::Record& r) {
          got.push_back(own(r, abi));
          if (got.size() == throw_at) throw std::runtime_error("stop");
        }, e);
        FAIL() << "f threw, for_each returned";
      } catch (const std::runtime_error&) {
      }
      ASSERT_EQ(got.size(), throw_at);
      EXPECT_EQ(rd.offset(), got.back().offset + got.back().header.length);
    }
    EXPECT_EQ(rd.for_each([&](const pmclog::Record& r) { got.push_back(own(r, abi)); }, e), Step::end);
    EXPECT_EQ(got, want);
  }
}

// On damage, for_each returns the same error as next() at the same offset, with the reader
// on the bad record, so that skip()/resync() and another for_each go on.
TEST(ForEach, ErrorsAndRecoveryAsNext) {
  std::mt19937_64 rng(99);
  for (const Abi& abi : fixture_abis()) {
    SCOPED_TRACE(fixture_stem(abi));
    auto b = mixed_log(abi, 3);
    for (int i = 0; i < 6; ++i) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    b.insert(b.begin() + static_cast<long>(rng() % b.size()), 5, uint8_t{0x5A});  // off the grid
    b.resize(b.size() - 3);                                                    // a truncated tail
    auto trace = [&](bool each) {
      std::vector<std::string> out;
      auto rd = pmclog::LogReader::over(b, abi);
      pmclog::Record r;
      pmclog::Error e;
      for (int guard = 0; guard < 100000; ++guard) {
        Step st;
        if (each) {
          st = rd.for_each([&](const pmclog::Record& x) { out.push_back(line(x, abi)); }, e);
        } else {
          while ((st = rd.next(r, e)) == Step::record) out.push_back(line(r, abi));
        }
        if (st == Step::end) break;
        out.push_back("err " + std::to_string(e.offset) + " " + e.message);
        if (!rd.skip()) rd.resync();
      }
      return out;
    };
    const auto want = trace(false);
    EXPECT_EQ(trace(true), want);
    const auto is_error = [](const std::string& s) { return s.rfind("err", 0) == 0; };
    EXPECT_NE(std::find_if(want.begin(), want.end(), is_error), want.end())
        << "the damage should give at least one error";
  }
}

// A mapped log larger than the page-release step: for_each gives back pages like next().
TEST(ForEach, MappedLogWithPageRelease) {
  const Abi abi = Abi::make(Generation::L3, 8, pmclog::ByteOrder::little);
  std::vector<uint8_t> b;
  pmclog::RecordValue init;
  init.kind = pmclog::Kind::initialize;
  init[pmclog::Field::version] = 0x03000000;
  ASSERT_TRUE(pmclog::encode(init, abi, b).ok());
  const size_t first = b.size();
  size_t records = 1;
  pmclog::RecordValue cc;
  cc.kind = pmclog::Kind::callchain;
  cc[pmclog::Field::pid] = 42;
  for (int i = 0; i < 24; ++i) cc.pcs.push_back(0x400000 + i);
  while (b.size() < (20u << 20)) {
    cc[pmclog::Field::cpuflags] = (b.size() - first) & 0xFFFF;
    ASSERT_TRUE(pmclog::encode(cc, abi, b).ok());
    ++records;
  }
  const ScratchDir d;
  const std::string path = d.file("for-each.log");
  write_file(path, b);
  auto log = pmclog::open_log(path);
  std::remove(path.c_str());
  ASSERT_TRUE(log.ok()) << log.error().message;
  size_t n = 0;
  uint64_t expect_off = 0, bad = 0;
  pmclog::Error e;
  const Step st = log->reader->for_each([&](const pmclog::Record& r) {
    if (r.offset >= first)
      bad += r.offset != expect_off ||
             r[pmclog::Field::cpuflags] != ((r.offset - first) & 0xFFFF) || r.pcs.size() != 24 ||
             r.pcs[23] != 0x400000 + 23;
    expect_off += r.header.length;
    ++n;
  }, e);
  EXPECT_EQ(st, Step::end) << e.message;
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(expect_off, b.size());
  EXPECT_EQ(n, records);
}

}  // namespace

namespace {

// AddrView::copy_to gives the frames that went in, in every ABI, and copies only what fits.
TEST(AddrView, CopyToGivesTheFramesInEveryAbi) {
  for (const Abi& abi : fixture_abis()) {
    if (pmclog::layout_for(abi, pmclog::Kind::callchain) == nullptr) continue;
    SCOPED_TRACE(fixture_stem(abi));
    pmclog::RecordValue cc;
    cc.kind = pmclog::Kind::callchain;
    cc[pmclog::Field::pid] = 7;
    const uint64_t top = abi.address_width == 8 ? 0xffffffff80000000u : 0x80000000u;
    for (uint64_t i = 0; i < 11; ++i) cc.pcs.push_back(top + i * 0x01020304 + (i << 3));
    std::vector<uint8_t> b;
    ASSERT_TRUE(pmclog::encode(cc, abi, b).ok());
    auto rd = pmclog::LogReader::over(b, abi);
    pmclog::Record r;
    pmclog::Error e;
    ASSERT_EQ(rd.next(r, e), Step::record) << e.message;
    std::vector<uint64_t> all(16, 0xAA);
    EXPECT_EQ(r.pcs.copy_to(all), 11u);
    EXPECT_EQ(std::vector<uint64_t>(all.begin(), all.begin() + 11), cc.pcs);
    EXPECT_EQ(all[11], 0xAAu) << "copied past the frames";
    std::vector<uint64_t> some(4, 0);
    EXPECT_EQ(r.pcs.copy_to(some), 4u);
    EXPECT_EQ(some, std::vector<uint64_t>(cc.pcs.begin(), cc.pcs.begin() + 4));
  }
  EXPECT_EQ(pmclog::AddrView().copy_to({}), 0u);
}

}  // namespace

namespace {

// Fields outside a record's layout read 0, whatever record came before, through next() and
// for_each (the fast path reuses one Record and clears it only when the kind changes).
void expect_unset_fields_zero(const pmclog::Record& r) {
  for (int f = 0; f < pmclog::kScalarFieldCount; ++f) {
    if (r.has(static_cast<pmclog::Field>(f))) continue;
    ASSERT_EQ(r.v[static_cast<size_t>(f)], 0u)
        << pmclog::kind_name(r.kind) << " at offset " << r.offset << ": field " << f;
  }
}

TEST(ForEach, FieldsOutsideTheLayoutAreZero) {
  for (const Abi& abi : fixture_abis()) {
    SCOPED_TRACE(fixture_stem(abi));
    const auto b = mixed_log(abi, 11);
    auto rd = pmclog::LogReader::over(b, abi);
    pmclog::Record r;
    pmclog::Error e;
    size_t n = 0;
    while (rd.next(r, e) == Step::record) {
      expect_unset_fields_zero(r);
      ++n;
    }
    ASSERT_GT(n, 100u);
    auto rd2 = pmclog::LogReader::over(b, abi);
    rd2.for_each([&](const pmclog::Record& x) { expect_unset_fields_zero(x); }, e);
    auto rd3 = pmclog::LogReader::stream(pmclog::span_source(b, 333), abi);
    rd3.for_each([&](const pmclog::Record& x) { expect_unset_fields_zero(x); }, e);
  }
}

}  // namespace
