// Text in the flame graph: untrusted names made safe, escaped for XML, cut to fit a frame,
// and numbers written short.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/text.h"

namespace report::svg {

// Untrusted text (names from logs and ELF files) as a drawn label: pmclog::label_text, the
// codec's rule for pictures. XML escaping is a separate step (append_xml).
inline std::string clean(std::string_view s) { return pmclog::label_text(s); }

// Text content and attribute values: every markup character escaped, so that "]]>",
// "<script>" or a quote in a name stays text.
void append_xml(std::string& out, std::string_view s);

// The label a frame of `width` pixels shows: all of it, or a cut with "..", or nothing
// under three characters (flamegraph.pl's rule; the page script applies the same on zoom).
// `name` is valid UTF-8 (clean()).
std::string fit_label(std::string_view name, double width);

// `text` (valid UTF-8) whole when it has at most `max_chars` code points, else its start and
// "..." in max_chars (at least 4).
std::string cut_text(std::string_view text, size_t max_chars);

// `text` (valid UTF-8) as lines of at most `max_chars` code points: cut after "; " where it
// can be, else at spaces, else anywhere. Joining the lines with " " gives back the text
// except where a word longer than a line was cut.
std::vector<std::string> wrap_text(std::string_view text, size_t max_chars);

// Pixels with at most two decimals ("12.5", "3", "0.07").
void append_number(std::string& out, double v);

// "12.50%" of `of` (0.00% of nothing).
std::string percent(uint64_t n, uint64_t of);

}  // namespace report::svg
