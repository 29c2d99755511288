#include "ci_text.h"

#include <cstdio>

namespace pmclog::tools {

namespace {

// The Actions toolkit's escaping: % \r \n always, : and , in property values.
std::string github_escaped(std::string_view s, bool property) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '%': r += "%25"; break;
      case '\r': r += "%0D"; break;
      case '\n': r += "%0A"; break;
      case ':': r += property ? "%3A" : ":"; break;
      case ',': r += property ? "%2C" : ","; break;
      default: r += c;
    }
  }
  return r;
}

}  // namespace

std::string github_data(std::string_view s) { return github_escaped(s, false); }
std::string github_property(std::string_view s) { return github_escaped(s, true); }

std::string xml_text(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (const std::string_view u = s.substr(i, 3); u == "\xEF\xBF\xBE" || u == "\xEF\xBF\xBF") {
      r += u == "\xEF\xBF\xBE" ? "\\ufffe" : "\\uffff";
      i += 2;
      continue;
    }
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      case '\'': r += "&apos;"; break;
      case '\n': r += '\n'; break;
      case '\t': r += '\t'; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char b[8];
          std::snprintf(b, sizeof b, "\\x%02x", c);
          r += b;
        } else {
          r += static_cast<char>(c);
        }
    }
  }
  return r;
}

}  // namespace pmclog::tools
