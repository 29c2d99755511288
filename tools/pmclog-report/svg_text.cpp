#include "svg_text.h"

#include <cstdio>

#include "svg_geometry.h"

namespace report::svg {
namespace {

void append_hex(std::string& out, unsigned v) {
  static const char* d = "0123456789abcdef";
  out += "\\x";
  out += d[(v >> 4) & 15];
  out += d[v & 15];
}

size_t code_points(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The first n code points of valid UTF-8.
std::string_view first_code_points(std::string_view s, size_t n) {
  size_t i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n-- == 0) break;
  return s.substr(0, i);
}

}  // namespace

// Not pmclog::escaped() or terminal_safe(), which write other bytes for the same names: a
// newline as \n, ESC as \e, a C1 control's two bytes and each invalid byte as \xNN; they
// keep U+FFFE and U+FFFF and escape bidirectional controls. Using them would change graphs.
std::string clean(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (b < 0x20 || b == 0x7F) append_hex(out, b);
      else out += static_cast<char>(b);
      ++i;
      continue;
    }
    size_t len = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
    if (b >= 0xF5) len = 0;
    uint32_t cp = len == 2 ? b & 0x1F : len == 3 ? b & 0x0F : b & 0x07;
    bool ok = len != 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c & 0xC0) == 0x80;
      cp = cp << 6 | (c & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    ok = ok && !(len == 3 && cp < 0x800) && !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
         !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (cp >= 0x80 && cp <= 0x9F) append_hex(out, cp);
    else if (cp == 0xFFFE || cp == 0xFFFF) out += "\xEF\xBF\xBD";
    else out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

void append_xml(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

std::string fit_label(std::string_view name, double width) {
  const double fit = width / (kFontSize * kFontWidth);
  if (fit < 3) return {};
  const auto chars = static_cast<size_t>(fit);
  if (code_points(name) <= chars) return std::string(name);
  return std::string(first_code_points(name, chars - 2)) + "..";
}

void append_number(std::string& out, double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  std::string_view s = b;
  if (s.find('.') != std::string_view::npos) {
    while (s.back() == '0') s.remove_suffix(1);
    if (s.back() == '.') s.remove_suffix(1);
  }
  if (s == "-0") s = "0";
  out += s;
}

std::string percent(uint64_t n, uint64_t of) {
  char b[32];
  const double share = of == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(of);
  std::snprintf(b, sizeof b, "%.2f%%", share);
  return b;
}

}  // namespace report::svg
