// Printing untrusted strings from logs: control characters, escape sequences and invalid
// UTF-8 never reach a terminal or a JSON document unescaped.
#pragma once

#include <string>
#include <string_view>

namespace pmclog {

// For text output: printable ASCII and valid UTF-8 pass through, except '"' and '\\', which
// are backslash-escaped; control characters become \n \t \r \e or \xNN; invalid UTF-8 bytes
// become \xNN.
void append_escaped(std::string& out, std::string_view s);
std::string escaped(std::string_view s);

// A JSON string literal, quotes included. Control characters become \uXXXX (or \n etc.);
// invalid UTF-8 bytes become U+FFFD (callers that need the exact bytes also write a hex form).
void append_json_string(std::string& out, std::string_view s);
bool is_valid_utf8(std::string_view s);

// Lowercase hex of the bytes, no prefix.
std::string hex_bytes(std::string_view bytes);

}  // namespace pmclog
