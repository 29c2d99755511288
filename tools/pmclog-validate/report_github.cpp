// --format=github: GitHub Actions workflow commands, one per diagnostic:
//   ::error file=FILE,title=pmclog-validate RULE::FILE:0xOFF (DEC): MESSAGE
// Logs are binary, so no line= is given: the annotation is attached to the file.
// Escaping follows the Actions toolkit: in data % \r \n become %25 %0D %0A; property values
// also escape : and , (%3A %2C).
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "report.h"

namespace pmclog::validate {

namespace {

std::string escape_data(std::string_view s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '%': r += "%25"; break;
      case '\r': r += "%0D"; break;
      case '\n': r += "%0A"; break;
      default: r += c;
    }
  }
  return r;
}

std::string escape_property(std::string_view s) {
  std::string r;
  for (char c : escape_data(s)) {
    switch (c) {
      case ':': r += "%3A"; break;
      case ',': r += "%2C"; break;
      default: r += c;
    }
  }
  return r;
}

}  // namespace

void write_github(std::string& out, const std::vector<FileResult>& files, const RunSummary& s) {
  for (const FileResult& f : files) {
    const std::string file = escape_property(input_display_name(f.name));
    if (f.io_error) {
      out += fmt::format("::error file={},title=pmclog-validate::{}\n", file,
                         escape_data(io_error_text(f)));
    }
    for (const Diagnostic& d : f.diagnostics) {
      out += fmt::format("::{} file={},title={}::{}\n", severity_name(d.severity), file,
                         escape_property(fmt::format("pmclog-validate {}", info(d.rule).id)),
                         escape_data(diagnostic_line(f.name, d)));
    }
  }
  out += summary_line(s);
  out += '\n';
}

}  // namespace pmclog::validate
