// Escaping of untrusted strings (text.h): log strings and file names in text output, JSON
// string literals, and whole messages for a terminal.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pmclog/text.h"

namespace {

// Every bidirectional control the escaping knows, as UTF-8, with its escaped form.
struct Bidi {
  const char* utf8;
  const char* escaped;
};
constexpr Bidi kBidi[] = {
    {"\xd8\x9c", "\\u061c"},     {"\xe2\x80\x8e", "\\u200e"}, {"\xe2\x80\x8f", "\\u200f"},
    {"\xe2\x80\xaa", "\\u202a"}, {"\xe2\x80\xab", "\\u202b"}, {"\xe2\x80\xac", "\\u202c"},
    {"\xe2\x80\xad", "\\u202d"}, {"\xe2\x80\xae", "\\u202e"}, {"\xe2\x81\xa6", "\\u2066"},
    {"\xe2\x81\xa7", "\\u2067"}, {"\xe2\x81\xa8", "\\u2068"}, {"\xe2\x81\xa9", "\\u2069"},
};

// ESC, CR, a newline and RIGHT-TO-LEFT OVERRIDE in a file name.
const std::string kName = "x\x1b[31my\r\n\xe2\x80\xae.pmclog";
const std::string kNameShown = "x\\e[31my\\r\\n\\u202e.pmclog";

// No C0 control, DEL, C1 control (as UTF-8) or bidi control left in `s`.
void expect_terminal_safe(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    EXPECT_FALSE(c < 0x20 || c == 0x7F) << "raw control byte " << int(c) << " in " << s;
    if (c == 0xC2 && i + 1 < s.size()) {
      EXPECT_GE(static_cast<unsigned char>(s[i + 1]), 0xA0) << "raw C1 control in " << s;
    }
  }
  for (const Bidi& b : kBidi) EXPECT_EQ(s.find(b.utf8), std::string::npos) << b.escaped;
}

}  // namespace

TEST(TextEscape, BidiControlsInLogStrings) {
  for (const Bidi& b : kBidi) {
    const std::string s = std::string("/lib/a") + b.utf8 + "os.so";
    EXPECT_EQ(pmclog::escaped(s), std::string("/lib/a") + b.escaped + "os.so");
  }
  // Neighbours of the bidi ranges, and other non-ASCII text, pass through.
  for (const char* keep : {"\xe2\x80\x8d", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\xa5",
                           "\xe2\x81\xaa", "\xd8\x9b", "\xc3\xa9", "\xe6\x97\xa5"})
    EXPECT_EQ(pmclog::escaped(keep), keep);
}

TEST(TextEscape, BidiControlsAsJsonEscapes) {
  for (const Bidi& b : kBidi) {
    const std::string s = std::string("a") + b.utf8 + "b\xc2\x9b" + "c";
    std::string lit;
    pmclog::append_json_string(lit, s);
    EXPECT_EQ(lit, std::string("\"a") + b.escaped + "b\\u009bc\"");
    expect_terminal_safe(lit);
    EXPECT_EQ(nlohmann::json::parse(lit).get<std::string>(), s) << "the same string read back";
  }
}

TEST(TextEscape, DisplayPath) {
  EXPECT_EQ(pmclog::display_path(kName), kNameShown);
  EXPECT_EQ(pmclog::display_path("/var/log/cpu0.pmclog"), "/var/log/cpu0.pmclog");
  EXPECT_EQ(pmclog::display_path("a\"b\\c"), "a\\\"b\\\\c");  // unambiguous, as log strings
  expect_terminal_safe(pmclog::display_path(kName + "\x9b\xff\x7f"));
}

TEST(TextEscape, TerminalSafeKeepsEscapedText) {
  const std::string m = "cannot open '" + kName + "': No such file or directory";
  const std::string safe = pmclog::terminal_safe(m);
  expect_terminal_safe(safe);
  EXPECT_EQ(safe, "cannot open '" + kNameShown + "': No such file or directory");
  // Quotes and backslashes stay; escaped text passes again unchanged.
  EXPECT_EQ(pmclog::terminal_safe("say \"a\\b\""), "say \"a\\b\"");
  EXPECT_EQ(pmclog::terminal_safe(safe), safe);
  EXPECT_EQ(pmclog::terminal_safe(pmclog::display_path(kName)), kNameShown);
}

TEST(TextEscape, PathMessage) {
  const std::string dir = "/tmp/d\x1b]0;t\x07/";
  const std::string path = dir + kName;
  const std::string shown = pmclog::display_path(path);
  // The library's form: the path as given, ": ", the reason (here naming the path again).
  const std::string m =
      pmclog::path_message(path + ": " + path + ": Permission denied", path, shown);
  expect_terminal_safe(m);
  EXPECT_EQ(m, shown + ": " + pmclog::terminal_safe(path) + ": Permission denied");
  EXPECT_EQ(pmclog::path_message("-: is a directory", "-", "(stdin)"), "(stdin): is a directory");
  // Without the prefix (a message made elsewhere), the name is put in front.
  EXPECT_EQ(pmclog::path_message("bad magic\r", path, shown), shown + ": bad magic\\r");
  EXPECT_EQ(pmclog::path_message("x", "x", "x"), "x: x");
}

TEST(TextEscape, LabelTextForDrawnNames) {
  using pmclog::label_text;
  EXPECT_EQ(label_text("main"), "main");
  EXPECT_EQ(label_text("a\nb\x1b[31m\x7f"), "a\\x0ab\\x1b[31m\\x7f");  // C0 and DEL, visible
  EXPECT_EQ(label_text("\xc2\x9b"), "\\x9b");              // a C1 control: one escape, its code point
  EXPECT_EQ(label_text("caf\xc3\xa9 \xe2\x80\xae"), "caf\xc3\xa9 \xe2\x80\xae");  // bidi stays in a label
  EXPECT_EQ(label_text("\xef\xbf\xbe|\xef\xbf\xbf"), "\xef\xbf\xbd|\xef\xbf\xbd");  // XML's non-characters
  EXPECT_EQ(label_text("\xff\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // each invalid byte
  EXPECT_EQ(label_text("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
  EXPECT_EQ(label_text("\xf0\x9f\x94\xa5"), "\xf0\x9f\x94\xa5");  // outside the BMP
  EXPECT_EQ(label_text("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // cut short
  const std::string out = label_text(std::string("x\0y", 3));
  EXPECT_EQ(out, "x\\x00y");
  EXPECT_TRUE(pmclog::is_valid_utf8(label_text("\x80\xe0\x80\x80\xf5")));
}
