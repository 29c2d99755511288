// Appending numbers to the output buffer without going through a format string: the
// callchain frame lines are most of a dump's output (speed matters most there).
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <string>

namespace dump {

inline void append_dec(std::string& out, uint64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  out.append(b, r.ptr);
}

inline void append_sdec(std::string& out, int64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  out.append(b, r.ptr);
}

// "0x" and lowercase hex; 0 is "0x0" like FreeBSD's %p (format.md §13).
inline void append_0x(std::string& out, uint64_t v) {
  char b[24] = {'0', 'x'};
  auto r = std::to_chars(b + 2, b + sizeof b, v, 16);
  out.append(b, r.ptr);
}

}  // namespace dump

namespace dump {

// "0x" and at least `digits` lowercase hex digits (printf's "0x%08x").
inline void append_0x_padded(std::string& out, uint64_t v, int digits) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v, 16);
  const int n = static_cast<int>(r.ptr - b);
  out += "0x";
  if (n < digits) out.append(static_cast<size_t>(digits - n), '0');
  out.append(b, r.ptr);
}

// Right-aligned in `width` columns (printf's "%10llu").
inline void append_dec_right(std::string& out, uint64_t v, int width) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  const int n = static_cast<int>(r.ptr - b);
  if (n < width) out.append(static_cast<size_t>(width - n), ' ');
  out.append(b, r.ptr);
}

// Into a caller's buffer, returning the end: for lines built whole and appended once (a
// std::string append per piece was most of --format=text, which is mostly frame lines).
// Lowercase hex digits of v, "0" for 0 (to_chars' digits, without its generic division).
inline char* put_hex(char* p, uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const int n = v ? (std::bit_width(v) + 3) / 4 : 1;
  int i = n;
  for (; i >= 2; i -= 2, v >>= 8) {  // two digits a step: addresses have up to 16
    p[i - 1] = kDigits[v & 15];
    p[i - 2] = kDigits[(v >> 4) & 15];
  }
  if (i) p[0] = kDigits[v & 15];
  return p + n;
}

// Decimal digits of v.
inline char* put_dec(char* p, uint64_t v) {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  return std::to_chars(p, p + 20, v).ptr;
}

}  // namespace dump
