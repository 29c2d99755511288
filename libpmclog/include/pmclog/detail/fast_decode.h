// The decoder's fast path, in a header so that LogReader::for_each can inline it into the
// caller's loop. Not part of the API: names here may change between releases.
//
// Shape: one load of the header word, one lookup of the type's Plan (no pointer chasing), and
// one combined branch that checks magic, length, alignment, depth and truncation at once.
// Records this path does not handle (text, 64-bit fields, damage, the end) go to the
// out-of-line decoder, which repeats every check one by one to name the exact error.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "pmclog/abi.h"
#include "pmclog/endian_io.h"
#include "pmclog/layout.h"
#include "pmclog/record.h"

namespace pmclog::detail {

// How to decode one type number, derived from its Layout once per file. This is what every
// record reads, packed into one cache line; the rarer field types are in ColdPlan.
// The 32-bit words a common record has at most: 3 in legacy logs (CALLCHAIN, PMCALLOCATE),
// 4 in modern ones (CALLCHAIN, with the tid). Every word copied is paid by every record.
constexpr int fast_words(bool legacy) { return legacy ? 3 : 4; }

struct alignas(64) Plan {
  // The framing rule, as header words: a word w frames a valid record of this type when
  // d = w - min_word is at most span and d & align_mask is 0. min_word holds the magic, the
  // type and the smallest length, so one subtraction checks all three: the plan is looked up
  // by the word's type bits, and a length range never reaches into them. align_mask keeps
  // lengths whole words, and a CALLCHAIN's frames whole; span includes its depth limit. An
  // undefined type's min_word carries another type number, so no word passes.
  uint32_t min_word = 0;
  // The same rule for the fast path: min_word when the plan is simple, else one that no
  // word passes, so that the fast path needs no branch of its own on `simple`.
  uint32_t fast_min_word = 0;
  uint32_t span = 0;
  uint16_t align_mask = 3;
  Kind kind = Kind::unknown;
  FieldType tail = FieldType::pad;  // path or addrs when the layout is variable
  uint16_t tail_off = 0;
  uint8_t nwords = 0;   // 32-bit words, the bulk of every record, in a flat list
  // log2 of the address slot: a CALLCHAIN's frames are its payload >> frame_shift (2 or 3;
  // 3 with 4-byte values too, for addresses narrower than their slots, Abi::narrow(), whose
  // plans are never simple, so the fast path's frames stay payload / W).
  uint8_t frame_shift = 3;
  // At most fast_words() words, perhaps an address array, nothing else (no ColdPlan, no
  // path). Such a plan's word list is padded to fast_words() entries that reread the
  // header's second word into the scratch slot (kDecoderScratch), so the fast path copies a
  // fixed number of words with no branch on the count.
  bool simple = false;
  // A path's bytes the kernel sized for but left unfilled after its NUL: the 4 per address of
  // 4-byte values in 8-byte slots (Abi::narrow()), 0 otherwise. The NUL must come before them.
  uint8_t path_spare = 0;
  std::array<uint8_t, 10> word_slot{};
  std::array<uint16_t, 10> word_off{};
  const Layout* layout = nullptr;
};
static_assert(sizeof(Plan) == 64);

// Whether the header word frames a record of the plan's type that fits in `avail` bytes:
// magic, length range (depth included), alignment (whole frames included) and truncation,
// in one branch; non-short-circuit on purpose. `Fast`: the fast path's rule, which also
// requires a simple plan.
template <bool Fast = false>
[[gnu::always_inline]] inline bool framing_fits(const Plan& plan, uint32_t word, size_t avail) {
  const uint32_t d = word - (Fast ? plan.fast_min_word : plan.min_word);
  return !((d > plan.span) | ((d & plan.align_mask) != 0) | ((word & 0xFFFF) > avail));
}

// The header of a record at least a header long: legacy time (format.md §3.2) or modern TSC.
template <ByteOrder O, bool Legacy>
[[gnu::always_inline]] inline Header header_of(const uint8_t* p, uint32_t word) {
  Header h;
  h.type = static_cast<uint8_t>(word >> 16);
  h.length = static_cast<uint16_t>(word & 0xFFFF);
  if constexpr (Legacy) {
    h.ts_sec = load32<O>(p + 4);
    h.ts_nsec = load32<O>(p + 8);
  } else {
    h.tsc = load64_native<O>(p + 8);
  }
  return h;
}

// The header and the 32-bit words of a record whose framing has been checked. `Simple`: the
// plan is simple, so its padded word list is copied whole.
template <ByteOrder O, bool Legacy, bool Simple = false>
[[gnu::always_inline]] inline void fill_head(const Plan& plan, const uint8_t* p, uint32_t word,
                                             uint64_t offset, Record& out) {
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  out.offset = offset;
  out.kind = plan.kind;
  // Fields outside the layout read 0: cleared only when the kind changes (rare in a run of
  // samples), as every field of one layout is written below.
  if (out.layout != plan.layout) out.v = {};
  out.layout = plan.layout;
  out.header = header_of<O, Legacy>(p, word);
  out.raw = {p, len};
  uint64_t* v = out.v.data();
  const uint8_t* slot = plan.word_slot.data();
  const uint16_t* wo = plan.word_off.data();
  if constexpr (Simple) {
    for (int i = 0; i < fast_words(Legacy); ++i) v[slot[i]] = load32<O>(p + wo[i]);
    return;
  }
  // Unrolled: most records have 1 to 5 words, and this runs for every record.
  switch (plan.nwords) {
    case 5: v[slot[4]] = load32<O>(p + wo[4]); [[fallthrough]];
    case 4: v[slot[3]] = load32<O>(p + wo[3]); [[fallthrough]];
    case 3: v[slot[2]] = load32<O>(p + wo[2]); [[fallthrough]];
    case 2: v[slot[1]] = load32<O>(p + wo[1]); [[fallthrough]];
    case 1: v[slot[0]] = load32<O>(p + wo[0]); [[fallthrough]];
    case 0: break;
    default:
      for (unsigned i = 0; i < plan.nwords; ++i) v[slot[i]] = load32<O>(p + wo[i]);
  }
}

// The rest of a simple record (Plan::simple): no text, and the frames if it has any.
template <ByteOrder O, int W>
[[gnu::always_inline]] inline void fill_simple_tail(const Plan& plan, const uint8_t* p, uint16_t len,
                                                    Record& out) {
  out.text = {};
  // Whole frames within the depth limit: checked with the framing. A record without frames
  // gets an empty view.
  const uint32_t payload = static_cast<uint32_t>(len - plan.tail_off);  // unsigned: a shift
  const uint32_t nframes = plan.tail == FieldType::addrs ? payload / W : 0;
  out.pcs = AddrView(p + plan.tail_off, nframes, W, O);
}

// Reading ahead. Each record's address comes from the length word of the one before, so a
// walk over a log is a chain of dependent loads; on machines whose hardware prefetcher does
// not run far enough ahead of such a walk (this project's 2-core VMs among them), every
// record waits on memory, and decoding ran at a third of a plain word sum's speed. Asking
// for the lines a few pages on, at every record, keeps the walk fed: 4 lines (256 bytes)
// a record is more than most records are long.
inline constexpr size_t kPrefetchAhead = 4096;
inline constexpr int kPrefetchLines = 4;
inline constexpr size_t kPrefetchSpan = 64 * kPrefetchLines;
// Where a window too small to read ahead in points its prefetches (harmless, always valid).
inline constexpr std::array<uint8_t, kPrefetchSpan> kPrefetchIdle{};
// Asks for the kPrefetchSpan bytes at q, which must all be inside the data.
[[gnu::always_inline]] inline void prefetch_span(const uint8_t* q) {
  for (int k = 0; k < kPrefetchLines; ++k) __builtin_prefetch(q + 64 * k);
}

// A span reader's position, shared with the inline loop of LogReader::for_each: the bytes
// [beg, end) of `data` are unread; `off` is the file offset of data[beg].
struct Window {
  const uint8_t* data = nullptr;
  size_t beg = 0, end = 0;
  uint64_t off = 0;
  const Plan* plans = nullptr;  // indexed by type number
  // Reading ahead: lines at pf_base + min(beg + kPrefetchAhead, pf_limit), kPrefetchSpan
  // bytes that are always inside the data (or kPrefetchIdle, for data shorter than that).
  const uint8_t* pf_base = kPrefetchIdle.data();
  size_t pf_limit = 0;
  // Span readers over a file mapping that give pages back: the next step is due when `beg`
  // reaches this (never, at the largest value).
  size_t release_at = SIZE_MAX;
};

// Pages are given back in steps of this many bytes read.
inline constexpr size_t kReleaseStep = 8u << 20;
// Whether a step is due: checked inline at every record, so that a reader that gives pages
// back pays a call (and, in for_each, a write-back of its window) once per step, not once
// per record (that was a quarter of pmclog-dump --stats' decoding). A step moves the
// threshold on whatever it could give back, so that a kept offset lagging behind does not
// make every record due.
[[gnu::always_inline]] inline bool release_due(const Window& w) { return w.beg >= w.release_at; }
// Gives back the pages behind the position and before the kept offset (reader.cpp). `w`
// must be the reader's own window.
void release_step(Window& w);

// A reader's window copied into a local for the length of an inline loop, so that the
// compiler can keep the position in registers instead of storing it at every record.
// Written back before anything else reads the reader's own (sync()), and when the loop
// leaves, by return or by exception.
class LocalWindow {
 public:
  explicit LocalWindow(Window& own) : own_(own), w_(own) {}
  LocalWindow(const LocalWindow&) = delete;
  LocalWindow& operator=(const LocalWindow&) = delete;
  ~LocalWindow() { own_ = w_; }
  Window& get() { return w_; }
  // Runs g() on the reader's own window, brought up to date, and reloads the copy after
  // (also when g throws, so that the destructor does not write back a stale position).
  template <class G>
  auto sync(G&& g) {
    own_ = w_;
    struct Reload {
      LocalWindow& l;
      ~Reload() { l.w_ = l.own_; }
    } reload{*this};
    return g();
  }

 private:
  Window& own_;
  Window w_;
};

// One step of a span reader on the fast path: decodes the next record into `r` and moves
// past it when it is a simple record with sound framing. False, with nothing changed, for
// anything else (the end, damage, rarer kinds): the general decoder takes over. The caller
// gives back pages (release_step) when release_due(w).
template <ByteOrder O, int W, bool Legacy>
[[gnu::always_inline]] inline bool fast_step(Window& w, Record& r) {
  const uint8_t* p = w.data + w.beg;
  const size_t avail = w.end - w.beg;
  if (avail < 4) [[unlikely]]
    return false;
  prefetch_span(w.pf_base + std::min(w.beg + kPrefetchAhead, w.pf_limit));
  const uint32_t word = load32<O>(p);
  const Plan& plan = w.plans[(word >> 16) & 0xFF];
  if (!framing_fits<true>(plan, word, avail)) [[unlikely]]
    return false;
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  fill_head<O, Legacy, true>(plan, p, word, w.off, r);
  fill_simple_tail<O, W>(plan, p, len, r);
  w.beg += len;
  w.off += len;
  return true;
}

// Calls pick.template operator()<O, W, Legacy>() for the ABI: the one place that turns the
// runtime ABI into template arguments.
template <class Pick>
auto dispatch_abi(const Abi& abi, Pick&& pick) {
  const bool le = abi.byte_order == ByteOrder::little;
  const bool legacy = abi.legacy();
  auto by_gen = [&]<ByteOrder O, int W>() {
    return legacy ? pick.template operator()<O, W, true>() : pick.template operator()<O, W, false>();
  };
  if (abi.address_width == 4)
    return le ? by_gen.template operator()<ByteOrder::little, 4>()
              : by_gen.template operator()<ByteOrder::big, 4>();
  return le ? by_gen.template operator()<ByteOrder::little, 8>()
            : by_gen.template operator()<ByteOrder::big, 8>();
}

}  // namespace pmclog::detail
