// Random damage to the committed fixtures (fixed seeds): bit flips, byte overwrites,
// truncations, insertions and deletions. Readers, detection and the single-record decoder
// must never crash, never hang and always make progress with skip()/resync(). The lead
// runs the same binary under the sanitizers; here it runs in the normal build.
#include <gtest/gtest.h>

#include <random>

#include "format_rules.h"
#include "listing.h"
#include "pmclog/detect.h"
#include "pmclog/encode.h"
#include "test_util.h"

using namespace codec_test;

namespace {

std::vector<uint8_t> mutate(std::vector<uint8_t> b, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !b.empty(); ++e) {
    const size_t at = rng() % b.size();
    switch (rng() % 6) {
      case 0: b[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      case 1: b[at] = static_cast<uint8_t>(rng()); break;
      case 2: b.resize(at); break;
      case 3: b.insert(b.begin() + static_cast<long>(at), 1 + rng() % 9, static_cast<uint8_t>(rng())); break;
      case 4: b.erase(b.begin() + static_cast<long>(at), b.begin() + static_cast<long>(std::min(b.size(), at + 1 + rng() % 9))); break;
      case 5:  // a plausible-looking header word with a random length
        if (at + 4 <= b.size()) { b[at + 2] = static_cast<uint8_t>(rng() % 24); b[at + 3] = 0xEE; b[at] = static_cast<uint8_t>(rng()); b[at + 1] = static_cast<uint8_t>(rng()); }
        break;
    }
  }
  return b;
}

// Reads everything, recovering from each error; fails if an error does not lead to progress.
size_t drain(pmclog::LogReader& rd, size_t size) {
  pmclog::Record r;
  pmclog::Error e;
  size_t steps = 0;
  for (;;) {
    if (++steps > size + 16) {
      ADD_FAILURE() << "no progress: more steps than bytes";
      return steps;
    }
    const uint64_t before = rd.offset();
    const pmclog::Step s = rd.next(r, e);
    if (s == pmclog::Step::end) break;
    if (s == pmclog::Step::record) {
      EXPECT_GT(rd.offset(), before);
      EXPECT_LE(r.offset + r.raw.size(), size);
      continue;
    }
    EXPECT_NE(e.code, pmclog::Errc::none);
    EXPECT_FALSE(e.message.empty());
    EXPECT_EQ(e.offset, before);
    if (!rd.skip()) {
      const auto sk = rd.resync();
      if (sk.to == sk.from && rd.offset() == before) {
        ADD_FAILURE() << "resync did not move at " << before;
        return steps;
      }
    }
    EXPECT_GT(rd.offset(), before);
  }
  return steps;
}

TEST(Fuzz, MutatedFixturesNeverCrash) {
  std::mt19937_64 rng(20261129);
  const auto abis = all_abis();
  int runs = 0;
  for (int round = 0; round < 150; ++round) {
    for (const Abi& abi : abis) {
      const auto orig = slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog");
      ASSERT_FALSE(orig.empty());
      const auto b = mutate(orig, rng);
      (void)pmclog::detect_abi(b);
      auto rd = pmclog::LogReader::over(b, abi);
      drain(rd, b.size());
      if (round % 10 == 0) {
        auto st = pmclog::LogReader::stream(pmclog::span_source(b, 1 + rng() % 64), abi);
        drain(st, b.size());
      }
      // The single-record decoder at every offset, with every possible byte budget end.
      pmclog::Record r;
      pmclog::Error e;
      const size_t at = b.empty() ? 0 : rng() % b.size();
      for (size_t avail = 0; at + avail <= b.size() && avail < 200; avail += 1 + rng() % 8) {
        (void)pmclog::decode_record(abi, b.data() + at, avail, at, r, e);
        (void)pmclog::plausible_record(abi, b.data() + at, avail);
      }
      ++runs;
      if (HasFailure()) return;
    }
  }
  EXPECT_EQ(runs, 3000);
}

enum class Via { next, for_each };  // for_each's fast path is a second decoder of common records

// What a reader saw, event by event, recovering from every error the same way.
std::vector<std::string> trace(pmclog::LogReader rd, size_t size, Via via = Via::next) {
  std::vector<std::string> out;
  const auto seen = [&](const pmclog::Record& r) {
    out.push_back("rec " + std::to_string(r.offset) + " " + std::to_string(r.raw.size()));
  };
  pmclog::Record r;
  pmclog::Error e;
  for (size_t steps = 0; steps <= size + 16; ++steps) {
    pmclog::Step s;
    if (via == Via::for_each) {
      s = rd.for_each(seen, e);
    } else {
      while ((s = rd.next(r, e)) == pmclog::Step::record) seen(r);
    }
    if (s == pmclog::Step::end) break;
    out.push_back("err " + std::to_string(e.offset) + " " + e.message + " missing " + std::to_string(e.missing));
    if (rd.skip()) {
      out.push_back("skip to " + std::to_string(rd.offset()));
    } else {
      const auto sk = rd.resync();
      out.push_back("resync " + std::to_string(sk.from) + ".." + std::to_string(sk.to));
      if (sk.to == sk.from) break;
    }
  }
  return out;
}

TEST(Fuzz, ForEachAgreesWithNextOnDamage) {
  std::mt19937_64 rng(777);
  const auto abis = all_abis();
  for (int round = 0; round < 25; ++round) {
    for (const Abi& abi : abis) {
      const auto b = mutate(slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog"), rng);
      ASSERT_EQ(trace(pmclog::LogReader::over(b, abi), b.size(), Via::for_each),
                trace(pmclog::LogReader::over(b, abi), b.size()))
          << fixture_stem(abi) << " round " << round;
    }
  }
}

// The span reader and the streaming reader agree on damaged input: same records, same
// errors at the same offsets, same skips and resyncs.
TEST(Fuzz, SpanAndStreamAgreeOnDamage) {
  std::mt19937_64 rng(4242);
  const auto abis = all_abis();
  for (int round = 0; round < 25; ++round) {
    for (const Abi& abi : abis) {
      const auto b = mutate(slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog"), rng);
      const auto want = trace(pmclog::LogReader::over(b, abi), b.size());
      const size_t chunk = 1 + rng() % 32;
      const auto got = trace(pmclog::LogReader::stream(pmclog::span_source(b, chunk), abi), b.size());
      ASSERT_EQ(got, want) << fixture_stem(abi) << " round " << round << " chunk " << chunk;
    }
  }
}

// encode.h: applying unwritten_bytes(r) to encode(to_value(r)) gives r.raw back exactly,
// for any record the decoder accepts, however odd its bytes (damaged pad words, header
// bits the kernel never sets, junk after a string's NUL...).
TEST(Fuzz, EveryDecodedRecordRebuildsExactly) {
  std::mt19937_64 rng(99);
  const auto abis = all_abis();
  size_t checked = 0;
  for (int round = 0; round < 40; ++round) {
    for (const Abi& abi : abis) {
      const auto orig = slurp_bytes(fixtures_dir() + "/" + fixture_stem(abi) + ".pmclog");
      // Flip bits only: framing mostly survives, so many damaged records still decode.
      auto b = orig;
      for (int i = 0; i < 6; ++i) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      auto rd = pmclog::LogReader::over(b, abi);
      pmclog::Record r;
      pmclog::Error e;
      for (size_t steps = 0; steps < b.size(); ++steps) {
        const pmclog::Step s = rd.next(r, e);
        if (s == pmclog::Step::end) break;
        if (s == pmclog::Step::error) {
          if (!rd.skip() && rd.resync().to >= b.size()) break;
          continue;
        }
        std::vector<uint8_t> enc;
        auto len = pmclog::encode(pmclog::to_value(r, abi), abi, enc);
        ASSERT_TRUE(len.ok()) << fixture_stem(abi) << " at " << r.offset << ": " << len.error().message;
        ASSERT_TRUE(pmclog::apply_patches(enc, pmclog::unwritten_bytes(r, abi)));
        ASSERT_EQ(to_hex(enc), to_hex(std::vector<uint8_t>(r.raw.begin(), r.raw.end())))
            << fixture_stem(abi) << " " << pmclog::kind_name(r.kind) << " at " << r.offset;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000u);
}

TEST(Fuzz, RandomBytesAnyAbi) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::vector<uint8_t> b(rng() % 512);
    for (auto& x : b) x = static_cast<uint8_t>(rng() % 4 == 0 ? 0xEE : rng());
    for (const Abi& abi : {Abi::make(Generation::L1, 4, pmclog::ByteOrder::big),
                           Abi::make(Generation::M10, 8, pmclog::ByteOrder::little)}) {
      auto rd = pmclog::LogReader::over(b, abi);
      drain(rd, b.size());
    }
    (void)pmclog::detect_abi(b);
    if (HasFailure()) return;
  }
}

}  // namespace
