#include "svg_text.h"

#include <cstdio>

#include "svg_geometry.h"

namespace report::svg {
namespace {

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
