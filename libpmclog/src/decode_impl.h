// The record decoder, instantiated for each (byte order, address width) so that the per-file
// choice is made once and the per-record path has no byte-order branches (DESIGN.md §2).
#pragma once

#include <array>
#include <cstring>
#include <string>

#include "messages.h"
#include "pmclog/decode.h"
#include "pmclog/endian_io.h"

namespace pmclog::detail {

// How to decode one type number, derived from its Layout once per file: the 32-bit words
// (the bulk of every record) in a flat list, the rarer field types apart, and the variable
// tail. Keeps the per-record work to a few tight loops.
struct Plan {
  const Layout* layout = nullptr;
  uint8_t nwords = 0;
  std::array<uint8_t, 10> word_slot{};
  std::array<uint16_t, 10> word_off{};
  uint8_t nother = 0;
  std::array<FieldSpec, 10> other{};  // u64 words, addresses, time_t, fixed chars
  FieldType tail = FieldType::pad;    // path or addrs when the layout is variable
  uint16_t tail_off = 0;

  Plan() = default;
  explicit Plan(const Layout* l) : layout(l) {
    if (l == nullptr) return;
    for (const FieldSpec& f : *l) {
      switch (f.type) {
        case FieldType::u32:
          word_slot[nwords] = static_cast<uint8_t>(f.id);
          word_off[nwords++] = f.offset;
          break;
        case FieldType::pad:
        case FieldType::unwritten: break;  // never interpreted (FORMAT.md §2)
        case FieldType::path:
        case FieldType::addrs:
          tail = f.type;
          tail_off = f.offset;
          break;
        default: other[nother++] = f; break;
      }
    }
  }
};

// What the decoder needs about an ABI, computed once per file.
struct DecodeCtx {
  Abi abi;
  bool legacy = true;
  uint32_t depth_max = 0;
  std::array<Plan, 256> plans{};
  explicit DecodeCtx(const Abi& a)
      : abi(a), legacy(a.legacy()), depth_max(a.callchain_depth_max()) {
    for (int t = 0; t < 256; ++t)
      plans[static_cast<size_t>(t)] = Plan(layout_for_type(a, static_cast<uint8_t>(t)));
  }
};

using DecodeFn = Step (*)(const DecodeCtx&, const uint8_t*, size_t, uint64_t, Record&, Error&);

template <ByteOrder O, int W>
[[gnu::always_inline]] inline Step decode_as(const DecodeCtx& ctx, const uint8_t* p, size_t avail, uint64_t offset,
               Record& out, Error& err) {
  if (avail == 0) return Step::end;
  out.offset = offset;
  if (avail < 4) {
    fail_truncated_header(err, offset, avail);
    return Step::error;
  }
  const uint32_t word = load32<O>(p);
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  const uint8_t type = static_cast<uint8_t>(word >> 16);
  const size_t hs = ctx.legacy ? 12 : 16;
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
  out.header.type = type;
  out.header.length = len;
  if (ctx.legacy) {
    out.header.ts_sec = load32<O>(p + 4);
    out.header.ts_nsec = load32<O>(p + 8);
    out.header.tsc = 0;
  } else {
    out.header.ts_sec = out.header.ts_nsec = 0;
    out.header.tsc = load64_native<O>(p + 8);
  }
  out.raw = {p, len};
  const Plan& plan = ctx.plans[type];
  const Layout* l = plan.layout;
  out.layout = l;
  if (l == nullptr) {
    out.kind = Kind::unknown;
    out.text = {};
    out.pcs = {};
    fail_unknown_type(err, offset, type, ctx.abi.generation);
    return Step::error;
  }
  out.kind = l->kind;
  if (!l->variable) {
    if (len != l->fixed_size) {
      fail_fixed_size(err, offset, len, l->fixed_size, l->kind);
      return Step::error;
    }
  } else if (len < l->min_length()) {
    fail_below_minimum(err, offset, len, l->min_length(), l->kind);
    return Step::error;
  }
  uint64_t* v = out.v.data();
  {
    // Unrolled: most records have 1 to 4 words, and this runs for every record.
    const uint8_t* slot = plan.word_slot.data();
    const uint16_t* wo = plan.word_off.data();
    switch (plan.nwords) {
      case 4: v[slot[3]] = load32<O>(p + wo[3]); [[fallthrough]];
      case 3: v[slot[2]] = load32<O>(p + wo[2]); [[fallthrough]];
      case 2: v[slot[1]] = load32<O>(p + wo[1]); [[fallthrough]];
      case 1: v[slot[0]] = load32<O>(p + wo[0]); [[fallthrough]];
      case 0: break;
      default:
        for (unsigned i = 0; i < plan.nwords; ++i) v[slot[i]] = load32<O>(p + wo[i]);
    }
  }
  out.text = {};
  for (uint8_t i = 0; i < plan.nother; ++i) {
    const FieldSpec& f = plan.other[i];
    const uint8_t* q = p + f.offset;
    uint64_t* slot = v + static_cast<size_t>(f.id);
    switch (f.type) {
      case FieldType::u64_words: *slot = load64_words<O>(q); break;
      case FieldType::addr: *slot = load_addr<O, W>(q); break;
      case FieldType::time_t_native:
        *slot = f.size == 4 ? load32<O>(q) : load64_native<O>(q);
        break;
      case FieldType::chars: {
        // Fixed arrays need no terminator: the modern PMCALLOCATEDYN name can fill its 56
        // bytes (FORMAT.md §5).
        const char* s = reinterpret_cast<const char*>(q);
        const void* nul = std::memchr(s, 0, f.size);
        out.text = {s, nul ? static_cast<size_t>(static_cast<const char*>(nul) - s) : f.size};
        break;
      }
      default: break;
    }
  }
  if (plan.tail == FieldType::addrs) {
    const size_t payload = len - plan.tail_off;
    if (payload % W != 0) {
      fail_callchain_misaligned(err, offset, payload, W);
      return Step::error;
    }
    const uint32_t n = static_cast<uint32_t>(payload / W);
    if (n > ctx.depth_max) {
      fail_callchain_depth(err, offset, n, ctx.abi);
      return Step::error;
    }
    out.pcs = AddrView(p + plan.tail_off, n, W, O);
  } else {
    out.pcs = {};
    if (plan.tail == FieldType::path) {
      const char* s = reinterpret_cast<const char*>(p + plan.tail_off);
      const void* nul = std::memchr(s, 0, len - plan.tail_off);
      if (nul == nullptr) {
        fail_unterminated(err, offset, l->kind, plan.tail_off, len);
        return Step::error;
      }
      out.text = {s, static_cast<size_t>(static_cast<const char*>(nul) - s)};
    }
  }
  return Step::record;
}

inline DecodeFn decoder_for(const Abi& abi) {
  const bool le = abi.byte_order == ByteOrder::little;
  if (abi.address_width == 4)
    return le ? &decode_as<ByteOrder::little, 4> : &decode_as<ByteOrder::big, 4>;
  return le ? &decode_as<ByteOrder::little, 8> : &decode_as<ByteOrder::big, 8>;
}

}  // namespace pmclog::detail
