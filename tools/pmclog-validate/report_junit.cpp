// --format=junit: a JUnit XML report, one <testcase> per log file. A file with errors (or
// warnings under --strict) is a <failure>, an unreadable file an <error>; the diagnostic
// lines are the failure text, and warnings of passing files go to <system-out>.
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "report.h"

namespace pmclog::validate {

namespace {

// XML 1.0 text: the five entities escaped, and what XML 1.0 does not allow even as a
// reference (control characters; the noncharacters U+FFFE and U+FFFF, valid UTF-8 that
// escaped() keeps) shown as \xNN and \uFFFE. Untrusted text has already been through
// display_path() or escaped(), so the control characters are a second safety net.
std::string xml(std::string_view s) {
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
          r += fmt::format("\\x{:02x}", c);
        } else {
          r += static_cast<char>(c);
        }
    }
  }
  return r;
}

}  // namespace

void write_junit(std::string& out, const std::vector<FileResult>& files, const RunSummary& s) {
  uint64_t failures = 0, errors = 0;
  for (const FileResult& f : files) {
    if (f.io_error) {
      ++errors;
    } else if (file_failed(f, s.strict)) {
      ++failures;
    }
  }
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"pmclog-validate\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
      files.size(), failures, errors);
  out += fmt::format(
      "  <testsuite name=\"pmclog-validate\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"0\">\n",
      files.size(), failures, errors);
  for (const FileResult& f : files) {
    const std::string name = xml(input_display_name(f.name));
    out += fmt::format("    <testcase classname=\"pmclog-validate\" name=\"{}\">\n", name);
    std::string lines;
    for (const Diagnostic& d : f.diagnostics) {
      lines += xml(diagnostic_line(f.name, d));
      lines += '\n';
    }
    if (f.io_error) {
      out += fmt::format("      <error message=\"{}\" type=\"io\"/>\n", xml(io_error_text(f)));
    } else if (file_failed(f, s.strict)) {
      out += fmt::format(
          "      <failure message=\"{} errors, {} warnings in {} records\" type=\"invalid-log\">"
          "{}</failure>\n",
          f.errors, f.warnings, f.records, lines);
    } else if (!lines.empty()) {
      out += fmt::format("      <system-out>{}</system-out>\n", lines);
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
}

}  // namespace pmclog::validate
