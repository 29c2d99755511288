// --format=junit: a JUnit XML report, one <testcase> per log file. A file with errors (or
// warnings under --strict) is a <failure>, an unreadable file an <error>; the diagnostic
// lines are the failure text, and warnings of passing files go to <system-out>.
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "ci_text.h"
#include "report.h"

namespace pmclog::validate {

using tools::xml_text;

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
    const std::string name = xml_text(input_display_name(f.name));
    out += fmt::format("    <testcase classname=\"pmclog-validate\" name=\"{}\">\n", name);
    std::string lines;
    for (const Diagnostic& d : f.diagnostics) {
      lines += xml_text(diagnostic_line(f.name, d));
      lines += '\n';
    }
    if (f.io_error) {
      out += fmt::format("      <error message=\"{}\" type=\"io\"/>\n", xml_text(io_error_text(f)));
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
