// Byte order is handled in one place: every load and store of an on-disk integer in the
// library goes through these functions, which use Boost.Endian.
#pragma once

#include <bit>
#include <boost/endian/conversion.hpp>
#include <cstdint>

#include "pmclog/abi.h"

namespace pmclog::detail {

using boost::endian::order;

template <ByteOrder O>
constexpr order boost_order() {
  return O == ByteOrder::little ? order::little : order::big;
}

template <ByteOrder O>
inline uint32_t load32(const uint8_t* p) {
  return boost::endian::endian_load<uint32_t, 4, boost_order<O>()>(p);
}
template <ByteOrder O>
inline uint64_t load64_native(const uint8_t* p) {
  return boost::endian::endian_load<uint64_t, 8, boost_order<O>()>(p);
}
// EMIT64: two 32-bit words, low word first, each in the file's byte order (format.md §4).
template <ByteOrder O>
inline uint64_t load64_words(const uint8_t* p) {
  // Little-endian: low word first is exactly a little-endian u64, so one load does it.
  // Big-endian: a big-endian u64 load gives the low word on top; swapping the halves back is
  // one rotate (one load and a byte swap instead of two of each: frames are read this way).
  if constexpr (O == ByteOrder::little) {
    return boost::endian::endian_load<uint64_t, 8, order::little>(p);
  } else {
    return std::rotl(boost::endian::endian_load<uint64_t, 8, order::big>(p), 32);
  }
}
// EMITADDR: one word on 32-bit producers, an EMIT64 pair on 64-bit ones.
template <ByteOrder O, int W>
inline uint64_t load_addr(const uint8_t* p) {
  if constexpr (W == 4) {
    return load32<O>(p);
  } else {
    return load64_words<O>(p);
  }
}

// n addresses into out: the frames of a CALLCHAIN. A plain loop, which the compiler
// vectorizes; a memcpy (for 64-bit little-endian logs) measured slower, as the call and its
// size classes cost more than the copy of 8 to 32 frames.
template <ByteOrder O, int W>
inline void load_addrs(const uint8_t* p, uint32_t n, uint64_t* out) {
  for (uint32_t i = 0; i < n; ++i) out[i] = load_addr<O, W>(p + size_t{i} * W);
}

template <ByteOrder O>
inline void store32(uint8_t* p, uint32_t v) {
  boost::endian::endian_store<uint32_t, 4, boost_order<O>()>(p, v);
}
template <ByteOrder O>
inline void store64_native(uint8_t* p, uint64_t v) {
  boost::endian::endian_store<uint64_t, 8, boost_order<O>()>(p, v);
}
template <ByteOrder O>
inline void store64_words(uint8_t* p, uint64_t v) {
  store32<O>(p, static_cast<uint32_t>(v));
  store32<O>(p + 4, static_cast<uint32_t>(v >> 32));
}

// Runtime-dispatched forms for code off the hot path.
// u16 (the PMCL container's native struct fields, format.md §18).
inline uint16_t load16(ByteOrder o, const uint8_t* p) {
  return o == ByteOrder::little ? boost::endian::endian_load<uint16_t, 2, order::little>(p)
                                : boost::endian::endian_load<uint16_t, 2, order::big>(p);
}
inline void store16(ByteOrder o, uint8_t* p, uint16_t v) {
  o == ByteOrder::little ? boost::endian::endian_store<uint16_t, 2, order::little>(p, v)
                         : boost::endian::endian_store<uint16_t, 2, order::big>(p, v);
}
inline uint32_t load32(ByteOrder o, const uint8_t* p) {
  return o == ByteOrder::little ? load32<ByteOrder::little>(p) : load32<ByteOrder::big>(p);
}
inline uint64_t load64_native(ByteOrder o, const uint8_t* p) {
  return o == ByteOrder::little ? load64_native<ByteOrder::little>(p)
                                : load64_native<ByteOrder::big>(p);
}
inline uint64_t load64_words(ByteOrder o, const uint8_t* p) {
  return o == ByteOrder::little ? load64_words<ByteOrder::little>(p)
                                : load64_words<ByteOrder::big>(p);
}
inline uint64_t load_addr(ByteOrder o, int width, const uint8_t* p) {
  return width == 4 ? load32(o, p) : load64_words(o, p);
}
inline void store32(ByteOrder o, uint8_t* p, uint32_t v) {
  o == ByteOrder::little ? store32<ByteOrder::little>(p, v) : store32<ByteOrder::big>(p, v);
}
inline void store64_native(ByteOrder o, uint8_t* p, uint64_t v) {
  o == ByteOrder::little ? store64_native<ByteOrder::little>(p, v)
                         : store64_native<ByteOrder::big>(p, v);
}
inline void store64_words(ByteOrder o, uint8_t* p, uint64_t v) {
  o == ByteOrder::little ? store64_words<ByteOrder::little>(p, v)
                         : store64_words<ByteOrder::big>(p, v);
}

// The header word: magic 31..24, type 23..16, length 15..0 (format.md §3.1).
inline uint32_t make_header_word(uint8_t type, uint16_t length) {
  return (uint32_t{0xEE} << 24) | (uint32_t{type} << 16) | length;
}

}  // namespace pmclog::detail
