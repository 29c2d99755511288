#include "svg_text.h"

#include <algorithm>
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

std::string cut_text(std::string_view text, size_t max_chars) {
  max_chars = std::max<size_t>(max_chars, 4);
  if (code_points(text) <= max_chars) return std::string(text);
  return std::string(first_code_points(text, max_chars - 3)) + "...";
}

std::vector<std::string> wrap_text(std::string_view text, size_t max_chars) {
  max_chars = std::max<size_t>(max_chars, 1);
  std::vector<std::string> lines;
  const auto joins = [&](std::string_view s) {
    return !lines.empty() && code_points(lines.back()) + 1 + code_points(s) <= max_chars;
  };
  // `s` after a space on the last line when `may_join` and it fits there, else on lines of
  // its own, cut every max_chars code points.
  const auto put = [&](std::string_view s, bool may_join) {
    if (may_join && joins(s)) {
      lines.back().append(" ").append(s);
      return;
    }
    do {
      const std::string_view head = first_code_points(s, max_chars);
      lines.emplace_back(head);
      s.remove_prefix(head.size());
    } while (!s.empty());
  };
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find("; ", at);
    end = end == std::string_view::npos ? text.size() : end + 1;  // the ';' ends its part
    const std::string_view part = text.substr(at, end - at);
    if (joins(part) || code_points(part) <= max_chars) {
      put(part, true);
    } else {  // a part longer than a line: word by word, from a line of its own
      bool first = true;
      for (size_t w = 0; w <= part.size();) {
        const size_t space = std::min(part.find(' ', w), part.size());
        if (space > w) put(part.substr(w, space - w), !first), first = false;
        w = space + 1;
      }
    }
    at = end + 1;
  }
  return lines;
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
