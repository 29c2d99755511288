// Escaping of untrusted strings for text and JSON output.
#include "pmclog/text.h"

#include <cstdint>

namespace pmclog {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not one
// (overlongs, surrogates and values above U+10FFFF are invalid).
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return n;
}

void append_hex_escape(std::string& out, uint8_t c, const char* prefix) {
  out += prefix;
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

// The code point of the valid n-byte sequence at s[i].
uint32_t code_point(std::string_view s, size_t i, size_t n) {
  static constexpr uint8_t kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  uint32_t cp = static_cast<uint8_t>(s[i]) & kLeadMask[n];
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<uint8_t>(s[i + k]) & 0x3F);
  return cp;
}

// Unicode bidirectional controls: the marks (ALM, LRM, RLM), the embeddings and overrides
// (LRE RLE PDF LRO RLO) and the isolates (LRI RLI FSI PDI). They reorder what follows on
// the line, so a name can make a message read differently from its bytes ("Trojan Source").
bool is_bidi_control(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

void append_u_escape(std::string& out, uint32_t cp) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 15];
}

// Escapes for a terminal. `quote` also escapes '"' and '\\' (log strings, file names), so
// that the escaped text reads back unambiguously; without it, text that went through here
// once passes a second time unchanged.
void append_terminal_text(std::string& out, std::string_view s, bool quote) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<uint8_t>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      if (quote && (c == '"' || c == '\\')) out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const size_t n = utf8_sequence(s, i);
      const uint32_t cp = n > 0 ? code_point(s, i, n) : 0;
      if (n > 0 && is_bidi_control(cp)) {
        append_u_escape(out, cp);
        i += n;
        continue;
      }
      // C1 controls (U+0080..U+009F) act as escape sequences on some terminals.
      if (n > 0 && !(cp >= 0x80 && cp < 0xA0)) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
      append_hex_escape(out, c, "\\x");
      ++i;
      continue;
    }
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case 0x1B: out += "\\e"; break;
      default: append_hex_escape(out, c, "\\x"); break;
    }
    ++i;
  }
}

}  // namespace

void append_escaped(std::string& out, std::string_view s) { append_terminal_text(out, s, true); }

std::string escaped(std::string_view s) {
  std::string r;
  append_escaped(r, s);
  return r;
}

std::string display_path(std::string_view path) { return escaped(path); }

std::string terminal_safe(std::string_view message) {
  std::string r;
  append_terminal_text(r, message, false);
  return r;
}

std::string path_message(std::string_view message, std::string_view path, std::string_view shown) {
  std::string r(shown);
  r += ": ";
  if (message.size() > path.size() + 1 && message.substr(0, path.size()) == path &&
      message.substr(path.size(), 2) == ": ")
    message.remove_prefix(path.size() + 2);
  append_terminal_text(r, message, false);
  return r;
}

void append_label_text(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) append_hex_escape(out, c, "\\x");
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t n = utf8_sequence(s, i);
    const uint32_t cp = n > 0 ? code_point(s, i, n) : 0;
    if (n == 0 || cp == 0xFFFE || cp == 0xFFFF) out += "\xEF\xBF\xBD";  // U+FFFD
    else if (cp < 0xA0) append_hex_escape(out, static_cast<uint8_t>(cp), "\\x");
    else out.append(s.substr(i, n));
    i += n == 0 ? 1 : n;
  }
}

std::string label_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_label_text(out, s);
  return out;
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<uint8_t>(s[i]);
    if (c >= 0x20 && c < 0x80) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default: append_hex_escape(out, c, "\\u00"); break;
      }
      ++i;
    } else {
      const size_t n = utf8_sequence(s, i);
      const uint32_t cp = n > 0 ? code_point(s, i, n) : 0;
      if (n > 0 && (is_bidi_control(cp) || (cp >= 0x80 && cp < 0xA0))) {
        // Valid JSON either way; escaped, the document is also safe to print (C1 controls
        // and bidi controls act on terminals), and parsers read back the same string.
        append_u_escape(out, cp);
        i += n;
      } else if (n > 0) {
        out.append(s.substr(i, n));
        i += n;
      } else {
        out += "\xEF\xBF\xBD";  // U+FFFD
        ++i;
      }
    }
  }
  out += '"';
}

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string hex_bytes(std::string_view bytes) {
  std::string r;
  r.reserve(bytes.size() * 2);
  for (char ch : bytes) {
    const auto c = static_cast<uint8_t>(ch);
    r += kHex[c >> 4];
    r += kHex[c & 15];
  }
  return r;
}

}  // namespace pmclog
