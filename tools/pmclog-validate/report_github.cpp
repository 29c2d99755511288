// --format=github: GitHub Actions workflow commands, one per diagnostic:
//   ::error file=FILE,title=pmclog-validate RULE::FILE:0xOFF (DEC): MESSAGE
// Logs are binary, so no line= is given: the annotation is attached to the file.
// Escaping follows the Actions toolkit: in data % \r \n become %25 %0D %0A; property values
// also escape : and , (%3A %2C).
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "ci_text.h"
#include "report.h"

namespace pmclog::validate {

void write_github(std::string& out, const std::vector<FileResult>& files, const RunSummary& s) {
  for (const FileResult& f : files) {
    const std::string file = tools::github_property(input_display_name(f.name));
    if (f.io_error) {
      out += fmt::format("::error file={},title=pmclog-validate::{}\n", file,
                         tools::github_data(io_error_text(f)));
    }
    for (const Diagnostic& d : f.diagnostics) {
      out += fmt::format("::{} file={},title={}::{}\n", severity_name(d.severity), file,
                         tools::github_property(fmt::format("pmclog-validate {}", info(d.rule).id)),
                         tools::github_data(diagnostic_line(f.name, d)));
    }
  }
  out += summary_line(s);
  out += '\n';
}

}  // namespace pmclog::validate
