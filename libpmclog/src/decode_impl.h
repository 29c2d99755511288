// The record decoder, instantiated for each (byte order, address width) so that the per-file
// choice is made once and the per-record path has no byte-order branches (DESIGN.md §2).
#pragma once

#include <cstring>
#include <string>

#include "endian_io.h"
#include "messages.h"
#include "pmclog/decode.h"

namespace pmclog::detail {

using DecodeFn = Step (*)(const Abi&, const uint8_t*, size_t, uint64_t, Record&, Error&);

template <ByteOrder O, int W>
Step decode_as(const Abi& abi, const uint8_t* p, size_t avail, uint64_t offset, Record& out,
               Error& err) {
  if (avail == 0) return Step::end;
  out.offset = offset;
  if (avail < 4) {
    fail_truncated_header(err, offset, avail);
    return Step::error;
  }
  const uint32_t word = load32<O>(p);
  const uint16_t len = static_cast<uint16_t>(word & 0xFFFF);
  const uint8_t type = static_cast<uint8_t>(word >> 16);
  const size_t hs = abi.legacy() ? 12 : 16;
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
  if (abi.legacy()) {
    out.header.ts_sec = load32<O>(p + 4);
    out.header.ts_nsec = load32<O>(p + 8);
    out.header.tsc = 0;
  } else {
    out.header.ts_sec = out.header.ts_nsec = 0;
    out.header.tsc = load64_native<O>(p + 8);
  }
  out.raw = {p, len};
  out.text = {};
  out.pcs = {};
  const Layout* l = layout_for_type(abi, type);
  out.layout = l;
  if (l == nullptr) {
    out.kind = Kind::unknown;
    fail_unknown_type(err, offset, type, abi.generation);
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
  out.v.fill(0);
  for (const FieldSpec& f : *l) {
    const uint8_t* q = p + f.offset;
    uint64_t* slot = out.v.data() + static_cast<size_t>(f.id);
    switch (f.type) {
      case FieldType::u32: *slot = load32<O>(q); break;
      case FieldType::u64_words: *slot = load64_words<O>(q); break;
      case FieldType::addr: *slot = load_addr<O, W>(q); break;
      case FieldType::time_t_native:
        *slot = f.size == 4 ? load32<O>(q) : load64_native<O>(q);
        break;
      case FieldType::pad:
      case FieldType::unwritten: break;  // never interpreted (FORMAT.md §2)
      case FieldType::chars: {
        const char* s = reinterpret_cast<const char*>(q);
        const void* nul = std::memchr(s, 0, f.size);
        out.text = {s, nul ? static_cast<size_t>(static_cast<const char*>(nul) - s) : f.size};
        break;
      }
      case FieldType::path: {
        const char* s = reinterpret_cast<const char*>(q);
        const size_t room = len - f.offset;
        const void* nul = std::memchr(s, 0, room);
        if (nul == nullptr) {
          fail_unterminated(err, offset, l->kind, f.offset, len);
          return Step::error;
        }
        out.text = {s, static_cast<size_t>(static_cast<const char*>(nul) - s)};
        break;
      }
      case FieldType::addrs: {
        const size_t payload = len - f.offset;
        if (payload % W != 0) {
          fail_callchain_misaligned(err, offset, payload, W);
          return Step::error;
        }
        const uint32_t n = static_cast<uint32_t>(payload / W);
        if (n > abi.callchain_depth_max()) {
          fail_callchain_depth(err, offset, n, abi);
          return Step::error;
        }
        out.pcs = AddrView(q, n, W, O);
        break;
      }
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
