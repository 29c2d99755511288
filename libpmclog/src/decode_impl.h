// The record decoder, instantiated for each (byte order, address width, header generation)
// so that the per-file choice is made once and the per-record path has no byte-order
// branches.
//
// The fast path for common records is in pmclog/detail/fast_decode.h; this adds the rest:
// the rare field types, and the checker that names the exact error.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "messages.h"
#include "pmclog/decode.h"
#include "pmclog/detail/fast_decode.h"
#include "pmclog/endian_io.h"

namespace pmclog::detail {

// The field types few records have: u64 words, addresses, time_t, fixed chars.
struct ColdPlan {
  uint8_t nother = 0;
  std::array<FieldSpec, 10> other{};
};

inline void make_plan(uint8_t type, const Layout* l, const Abi& abi, Plan& plan,
                      ColdPlan& cold) {
  const int slot = abi.slot_width(), words = fast_words(abi.legacy());
  const auto word_of = [](uint32_t t, uint32_t len) { return kHeaderMagic << 24 | t << 16 | len; };
  const uint32_t never = word_of((type + 1u) & 0xFF, 0);  // another type: no word of this one
  plan = Plan{};
  cold = ColdPlan{};
  plan.layout = l;
  plan.min_word = plan.fast_min_word = never;
  if (l == nullptr) return;
  plan.kind = l->kind;
  plan.frame_shift = slot == 8 ? 3 : 2;
  const uint16_t min_len = l->min_length();
  // Every layout's smallest length is whole words; one that was not could never be valid,
  // and the checked path says why.
  if (min_len % 4 == 0) plan.min_word = word_of(type, min_len);
  plan.span = l->variable ? kMaxRecordLength - min_len : 0;
  for (const FieldSpec& f : *l) {
    switch (f.type) {
      case FieldType::u32:
        plan.word_slot[plan.nwords] = static_cast<uint8_t>(f.id);
        plan.word_off[plan.nwords++] = f.offset;
        break;
      case FieldType::pad:
      case FieldType::unwritten: break;  // never interpreted (format.md §5)
      case FieldType::path:
      case FieldType::addrs:
        plan.tail = f.type;
        plan.tail_off = f.offset;
        if (f.type == FieldType::path) plan.path_spare = static_cast<uint8_t>(l->fixed_size - f.offset);
        break;
      default: cold.other[cold.nother++] = f; break;
    }
  }
  // Narrow addresses' frames (Abi::narrow()) are counted by slots in fill_rare, which keeps
  // the fast path's frame count a constant division.
  const bool narrow_frames = plan.tail == FieldType::addrs && slot != abi.address_width;
  plan.simple = cold.nother == 0 && plan.tail != FieldType::path && plan.nwords <= words &&
                !narrow_frames;
  if (plan.simple) {  // pad the word list (Plan::simple)
    const auto spare = static_cast<uint8_t>(kDecoderScratch);
    for (int i = plan.nwords; i < words; ++i) {
      plan.word_slot[static_cast<size_t>(i)] = spare;
      plan.word_off[static_cast<size_t>(i)] = 4;
    }
  }
  if (plan.tail == FieldType::addrs) {  // the depth limit and whole frames, in the same rule
    const uint32_t frames = abi.callchain_depth_max() * static_cast<uint32_t>(slot);
    plan.span = std::min<uint32_t>(frames, kMaxRecordLength - min_len);
    plan.align_mask = static_cast<uint16_t>(slot - 1);
    // Whole frames are whole multiples of the width from the smallest length only if the
    // frames start there (they do in every layout; if one day not, the checked path decides).
    if (plan.tail_off != min_len) plan.min_word = never;
  }
  if (plan.simple) plan.fast_min_word = plan.min_word;
}

// What the decoder needs about an ABI, computed once per file.
struct DecodeCtx {
  Abi abi;
  uint32_t depth_max = 0;
  std::array<Plan, 256> plans{};
  std::array<ColdPlan, 256> cold{};
  explicit DecodeCtx(const Abi& a) : abi(a), depth_max(a.callchain_depth_max()) {
    for (size_t t = 0; t < 256; ++t)
      make_plan(static_cast<uint8_t>(t), layout_for_type(a, static_cast<uint8_t>(t)), a, plans[t],
                cold[t]);
  }
};

using DecodeFn = Step (*)(const DecodeCtx&, const uint8_t*, size_t, uint64_t, Record&, Error&);

// Fields in ColdPlan, and the path: out of line, as few records have them.
template <ByteOrder O, int W>
[[gnu::noinline]] Step fill_rare(const DecodeCtx& ctx, const Plan& plan, const uint8_t* p,
                                 uint16_t len, uint64_t offset, Record& out, Error& err) {
  const ColdPlan& cold = ctx.cold[static_cast<size_t>(&plan - ctx.plans.data())];
  uint64_t* v = out.v.data();
  out.text = {};
  for (uint8_t i = 0; i < cold.nother; ++i) {
    const FieldSpec& f = cold.other[i];
    const uint8_t* q = p + f.offset;
    uint64_t* slot = v + static_cast<size_t>(f.id);
    switch (f.type) {
      case FieldType::u64_words: *slot = load64_words<O>(q); break;
      case FieldType::u8: *slot = q[0]; break;
      case FieldType::addr: *slot = load_addr<O, W>(q); break;
      case FieldType::native:
        *slot = f.size == 4 ? load32<O>(q) : load64_native<O>(q);
        break;
      case FieldType::chars: {
        // Fixed arrays need no terminator: the modern PMCALLOCATEDYN name can fill its 56
        // bytes (format.md §8).
        const char* s = reinterpret_cast<const char*>(q);
        const void* nul = std::memchr(s, 0, f.size);
        out.text = {s, nul ? static_cast<size_t>(static_cast<const char*>(nul) - s) : f.size};
        break;
      }
      default: break;
    }
  }
  if (plan.tail == FieldType::addrs) {
    out.pcs = AddrView(p + plan.tail_off, static_cast<uint32_t>((len - plan.tail_off) >> plan.frame_shift),
                       W, O);
    return Step::record;
  }
  out.pcs = {};
  if (plan.tail == FieldType::path) {
    const char* s = reinterpret_cast<const char*>(p + plan.tail_off);
    // framing checked len >= min_len > fixed_size = tail_off + path_spare
    const void* nul = std::memchr(s, 0, len - plan.tail_off - plan.path_spare);
    if (nul == nullptr) {
      fail_unterminated(err, offset, plan.kind, plan.tail_off, len, plan.path_spare);
      return Step::error;
    }
    out.text = {s, static_cast<size_t>(static_cast<const char*>(nul) - s)};
  }
  return Step::record;
}

// The fields of a record whose framing has been checked.
template <ByteOrder O, int W, bool Legacy>
[[gnu::always_inline]] inline Step fill(const DecodeCtx& ctx, const Plan& plan, const uint8_t* p,
                                        uint32_t word, uint64_t offset, Record& out, Error& err) {
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  fill_head<O, Legacy>(plan, p, word, offset, out);
  if (!plan.simple) [[unlikely]]
    return fill_rare<O, W>(ctx, plan, p, len, offset, out, err);
  fill_simple_tail<O, W>(plan, p, len, out);
  return Step::record;
}

// The slow path: every framing check one by one, so that the error names the first that
// fails. Reached only for the end of the data and for damaged or unknown records.
template <ByteOrder O, int W, bool Legacy>
[[gnu::noinline, gnu::cold]] Step decode_checked(const DecodeCtx& ctx, const uint8_t* p, size_t avail,
                                            uint64_t offset, Record& out, Error& err) {
  if (avail == 0) return Step::end;
  out.offset = offset;
  if (avail < 4) {
    fail_truncated_header(err, offset, avail);
    return Step::error;
  }
  const uint32_t word = load32<O>(p);
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  const uint8_t type = static_cast<uint8_t>(word >> 16);
  const size_t hs = Legacy ? 12 : 16;
  if ((word >> 24) != kHeaderMagic) {
    fail_bad_magic(err, offset, word);
    return Step::error;
  }
  if (len < hs) {
    fail_length_below_header(err, offset, len, hs);
    return Step::error;
  }
  if (len & 3u) {
    fail_length_not_multiple(err, offset, len);
    return Step::error;
  }
  if (len > avail) {
    fail_truncated(err, offset, len, avail);
    return Step::error;
  }
  // On a body error `out` still shows the record (header, bytes, kind), for tools that print it.
  out.header = header_of<O, Legacy>(p, word);
  out.raw = {p, len};
  const Plan& plan = ctx.plans[type];
  const Layout* l = plan.layout;
  out.layout = l;
  out.kind = plan.kind;
  if (l == nullptr) {
    out.text = {};
    out.pcs = {};
    fail_unknown_type(err, offset, type, ctx.abi.generation);
    return Step::error;
  }
  if (!l->variable) {
    if (len != l->fixed_size) {
      fail_fixed_size(err, offset, len, l->fixed_size, l->kind);
      return Step::error;
    }
  } else if (len < l->min_length()) {
    fail_below_minimum(err, offset, len, l->min_length(), l->kind);
    return Step::error;
  }
  if (plan.tail == FieldType::addrs) {
    const size_t payload = len - plan.tail_off;
    if (payload % l->addr_slot != 0) {
      fail_callchain_misaligned(err, offset, payload, l->addr_slot, W);
      return Step::error;
    }
    const uint32_t n = static_cast<uint32_t>(payload / l->addr_slot);
    if (n > ctx.depth_max) {
      fail_callchain_depth(err, offset, n, ctx.abi);
      return Step::error;
    }
  }
  return fill<O, W, Legacy>(ctx, plan, p, word, offset, out, err);
}

template <ByteOrder O, int W, bool Legacy>
[[gnu::always_inline]] inline Step decode_as(const DecodeCtx& ctx, const uint8_t* p, size_t avail,
                                             uint64_t offset, Record& out, Error& err) {
  if (avail < 4) [[unlikely]]
    return decode_checked<O, W, Legacy>(ctx, p, avail, offset, out, err);
  const uint32_t word = load32<O>(p);
  const Plan& plan = ctx.plans[(word >> 16) & 0xFF];
  if (!framing_fits(plan, word, avail)) [[unlikely]]
    return decode_checked<O, W, Legacy>(ctx, p, avail, offset, out, err);
  return fill<O, W, Legacy>(ctx, plan, p, word, offset, out, err);
}

inline DecodeFn decoder_for(const Abi& abi) {
  return dispatch_abi(abi, []<ByteOrder O, int W, bool Legacy>() -> DecodeFn {
    return &decode_as<O, W, Legacy>;
  });
}

}  // namespace pmclog::detail
