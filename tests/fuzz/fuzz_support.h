// What the fuzz targets share: the property check that aborts (so libFuzzer and the replay
// test both stop on it), a small reader of choices from the input (FuzzedDataProvider is
// clang's only, and the replay test is built with g++ too), the decoder's walk as a list of
// events, and a scratch folder.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pmclog/pmclog.h"

namespace fuzz {

inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
  }
}

// Choices taken from the front of the input; the rest is the payload. Past the end every
// choice is 0, so any input is a valid one.
class Choices {
 public:
  explicit Choices(std::span<const uint8_t> in) : in_(in) {}
  uint8_t byte() { return in_.empty() ? 0 : take(); }
  uint32_t u16() { return uint32_t{byte()} | uint32_t{byte()} << 8; }
  // A value in [lo, hi].
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + u16() % (hi - lo + 1); }
  // Up to n bytes as a string.
  std::string bytes(size_t n) {
    n = std::min(n, in_.size());
    std::string s(reinterpret_cast<const char*>(in_.data()), n);
    in_ = in_.subspan(n);
    return s;
  }
  std::span<const uint8_t> rest() const { return in_; }

 private:
  uint8_t take() {
    const uint8_t b = in_[0];
    in_ = in_.subspan(1);
    return b;
  }
  std::span<const uint8_t> in_;
};

// One step of a reader: a record or an error, with what identifies it.
struct Event {
  uint64_t offset = 0;
  bool error = false;
  uint8_t code = 0;  // Kind or Errc
  std::vector<uint8_t> raw;  // a record's bytes
  std::string message;       // an error's
  bool operator==(const Event&) const = default;
};

// Steps a reader past damage the way the tools do: `step(e)` reads (next() or for_each()) and
// returns its Step; on an error `on_error(e)` says whether to go on, and the reader then
// skips the damaged record when the framing allows, else resyncs (which must make progress).
// A guard bounds the steps.
template <class Step, class OnError>
void past_damage(pmclog::LogReader& rd, Step&& step, OnError&& on_error) {
  pmclog::Error e;
  for (int guard = 0; guard < 200000; ++guard) {
    const pmclog::Step st = step(e);
    if (st == pmclog::Step::end) break;
    if (st == pmclog::Step::record) continue;
    if (!on_error(e)) break;
    if (!rd.skip()) {
      const pmclog::SkippedRange sk = rd.resync();
      check(sk.to > sk.from, "resync made no progress");
    }
  }
}

// The same with next(): `each` sees every record.
template <class OnRecord, class OnError>
void each_record(pmclog::LogReader& rd, OnRecord&& each, OnError&& on_error) {
  pmclog::Record r;
  past_damage(
      rd,
      [&](pmclog::Error& e) {
        const pmclog::Step st = rd.next(r, e);
        if (st == pmclog::Step::record) each(r);
        return st;
      },
      on_error);
}

// Every record and error from the reader's position on, as events; `each` sees every record.
// Checks that no record reaches past `end` (the input's size) and that every error names its
// offset. Stops once the reader is past `limit` (a decompressed bomb).
template <class F>
std::vector<Event> walk(pmclog::LogReader& rd, uint64_t end, F&& each, uint64_t limit = UINT64_MAX) {
  std::vector<Event> events;
  pmclog::Record r;
  past_damage(
      rd,
      [&](pmclog::Error& e) {
        if (rd.offset() > limit) return pmclog::Step::end;
        const pmclog::Step st = rd.next(r, e);
        if (st != pmclog::Step::record) return st;
        check(r.offset + r.raw.size() <= end, "a record reaches past the input");
        check(r.raw.size() >= 4 && r.raw.size() == r.header.length,
              "a record's bytes are not its length");
        events.push_back({r.offset, false, static_cast<uint8_t>(r.kind),
                          {r.raw.begin(), r.raw.end()}, {}});
        each(r);
        return st;
      },
      [&](const pmclog::Error& e) {
        check(!e.message.empty(), "an error without a message");
        events.push_back({e.offset, true, static_cast<uint8_t>(e.code), {}, e.message});
        // A read error or damaged compression names the offset of the data that failed.
        if (e.code == pmclog::Errc::io || e.code == pmclog::Errc::compressed_damaged)
          return false;
        check(e.offset == rd.offset(), "an error's offset is not the reader's position");
        return true;
      });
  return events;
}
inline std::vector<Event> walk(pmclog::LogReader& rd, uint64_t end) {
  return walk(rd, end, [](const pmclog::Record&) {});
}

// The ABI an input decodes as: detected (after a PMCL container), else one the first byte
// picks, so that every ABI gets exercised. `start` is where the records begin.
struct Chosen {
  pmclog::Abi abi;
  uint64_t start = 0;
};
inline std::vector<Chosen> abis_for(std::span<const uint8_t> bytes) {
  std::vector<Chosen> out;
  if (auto det = pmclog::detect_abi(bytes); det.ok() && !det->empty) {
    check(det->stream_offset <= bytes.size(), "the container ends past the input");
    out.push_back({det->abi, det->stream_offset});
  }
  if (!bytes.empty()) {
    const uint8_t k = bytes[0];
    const auto g = static_cast<pmclog::Generation>(k % pmclog::kGenerationCount);
    const auto o = (k & 16) ? pmclog::ByteOrder::big : pmclog::ByteOrder::little;
    // 4-byte addresses in 8-byte slots too (powerpc64, format.md §19)
    out.push_back({(k & 40) == 32 ? pmclog::Abi::make_narrow(g, o)
                                  : pmclog::Abi::make(g, (k & 8) ? 8 : 4, o),
                   0});
  }
  return out;
}

// Whether an expensive property is checked on this input: on 1 input in `n`, chosen by a hash
// of its bytes (so a finding replays). The replay test (PMCLOG_FUZZ_REPLAY) checks every input.
inline bool sampled(std::span<const uint8_t> in, uint32_t n) {
#ifdef PMCLOG_FUZZ_REPLAY
  (void)in;
  (void)n;
  return true;
#else
  uint64_t h = 14695981039346656037ull;  // FNV-1a
  for (uint8_t b : in) h = (h ^ b) * 1099511628211ull;
  return (h >> 32) % n == 0;
#endif
}

// A folder of its own under $TMPDIR, made once per process and emptied by the caller.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "pmclog-fuzz.XXXXXX").string();
    check(mkdtemp(tmpl.data()) != nullptr, "cannot make a scratch folder");
    return std::filesystem::path(tmpl);
  }();
  return dir;
}

// Removes the scratch folder at exit (libFuzzer ends with exit()).
struct ScratchCleanup {
  ScratchCleanup() { (void)scratch_dir(); }  // made first, so destroyed after this
  ~ScratchCleanup() {
    std::error_code ec;
    std::filesystem::remove_all(scratch_dir(), ec);
  }
};

}  // namespace fuzz
