// Printing untrusted strings from logs: control characters, escape sequences and invalid
// UTF-8 never reach a terminal or a JSON document unescaped.
#pragma once

#include <string>
#include <string_view>

namespace pmclog {

// For text output: printable ASCII and valid UTF-8 pass through, except '"' and '\\', which
// are backslash-escaped; control characters become \n \t \r \e or \xNN; C1 controls and
// invalid UTF-8 bytes become \xNN; Unicode bidirectional controls (U+061C, U+200E, U+200F,
// U+202A..U+202E, U+2066..U+2069), which reorder the rest of a line, become \uXXXX.
void append_escaped(std::string& out, std::string_view s);
std::string escaped(std::string_view s);

// A file name (or any name a user gave) in a message or a text report, escaped like a log
// string, so that no name can recolour the terminal, move the cursor, split or reorder the
// line. JSON documents take the name itself, through append_json_string.
std::string display_path(std::string_view path);

// A whole message for a terminal that may carry untrusted text nobody escaped (a library
// error naming a file, an option value quoted by Boost): escaped as append_escaped does, but
// '"' and '\\' stay as they are, so text that is already escaped passes unchanged. A last
// line of defence where messages are printed; names still go through display_path where the
// message is made.
std::string terminal_safe(std::string_view message);

// The library's errors about a file start with "PATH: " (open_log and what it calls). The
// message for a person: "SHOWN: " (for example display_path(path), or "(stdin)") and the rest
// of the message, terminal_safe; a message without that prefix gets it.
std::string path_message(std::string_view message, std::string_view path, std::string_view shown);

// For names drawn in a picture (a flame graph's frames, its title): valid UTF-8 passes,
// bidirectional controls included (a drawn label is a line of its own); C0 controls, DEL and
// C1 controls become a visible \xNN (one per character: a C1 control's code point, not its
// two bytes); each invalid byte and the non-characters U+FFFE and U+FFFF, which XML does not
// allow, become U+FFFD. XML's own escaping is the drawing's next step.
void append_label_text(std::string& out, std::string_view s);
std::string label_text(std::string_view s);

// A JSON string literal, quotes included. Control characters become \uXXXX (or \n etc.), and
// so do C1 and bidirectional controls (valid JSON either way; escaped, the document is also
// safe to print); invalid UTF-8 bytes become U+FFFD (callers that need the exact bytes also
// write a hex form).
void append_json_string(std::string& out, std::string_view s);
bool is_valid_utf8(std::string_view s);

// Lowercase hex of the bytes, no prefix.
std::string hex_bytes(std::string_view bytes);

}  // namespace pmclog
