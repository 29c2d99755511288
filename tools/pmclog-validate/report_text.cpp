// The default output: compiler-style lines, one per diagnostic, then one summary line.
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "report.h"

namespace pmclog::validate {

RunSummary summarize(const std::vector<FileResult>& files, bool strict) {
  RunSummary s;
  s.strict = strict;
  for (const FileResult& f : files) {
    ++s.files;
    s.records += f.records;
    s.bytes += f.bytes;
    s.errors += f.errors;
    s.warnings += f.warnings;
    s.not_shown += f.not_shown;
    if (f.io_error) ++s.unreadable;
  }
  if (s.unreadable) {
    s.exit_status = 2;
  } else if (s.errors || (strict && s.warnings)) {
    s.exit_status = 1;
  }
  return s;
}

bool file_failed(const FileResult& f, bool strict) {
  return f.io_error || f.errors || (strict && f.warnings);
}

std::string diagnostic_line(const std::string& file, const Diagnostic& d) {
  return fmt::format("{}:{:#x} ({}): {}: {} [{}]", input_display_name(file), d.offset, d.offset,
                     severity_name(d.severity), d.message, info(d.rule).id);
}

std::string io_error_text(const FileResult& f) {
  return path_message(f.io_message, f.name, input_display_name(f.name));
}

std::string summary_line(const RunSummary& s) {
  std::string line = fmt::format(
      "checked {} file{}: {} record{}, {} bytes; {} error{}, {} warning{}", s.files,
      s.files == 1 ? "" : "s", s.records, s.records == 1 ? "" : "s", s.bytes, s.errors,
      s.errors == 1 ? "" : "s",
      s.warnings, s.warnings == 1 ? "" : "s");
  if (s.not_shown) line += fmt::format(" ({} not shown, see --max-errors)", s.not_shown);
  if (s.unreadable) line += fmt::format("; {} file{} unreadable", s.unreadable,
                                        s.unreadable == 1 ? "" : "s");
  if (s.strict && s.warnings && !s.errors) line += " (warnings fail under --strict)";
  return line;
}

void write_text(std::string& out, const std::vector<FileResult>& files, const RunSummary& s) {
  for (const FileResult& f : files) {
    for (const Diagnostic& d : f.diagnostics) {
      out += diagnostic_line(f.name, d);
      out += '\n';
    }
  }
  out += summary_line(s);
  out += '\n';
}

void write_rules_text(std::string& out) {
  out += fmt::format("{:<24} {:<8} {:<10} {:<9} {}\n", "RULE", "SEVERITY", "CATEGORY",
                     "DEFAULT", "DESCRIPTION");
  for (const RuleInfo& r : rules()) {
    const char* when = r.when == Default::on ? "on" : r.when == Default::pedantic ? "pedantic"
                                                                                   : "max-cpu";
    out += fmt::format("{:<24} {:<8} {:<10} {:<9} {}\n", r.id, severity_name(r.severity),
                       category_name(r.category), when, r.description);
    out += fmt::format("{:<55}why {}: {}\n", "", severity_name(r.severity), r.why);
  }
  out +=
      "\nA rule is an error only when no real kernel could have written the file that way;\n"
      "what real kernels do produce (stale buffer bytes, per-CPU buffers flushed out of order,\n"
      "wall-clock steps) is a warning. What FreeBSD writes in normal operation (no CLOSELOG,\n"
      "samples after an exit, ...) is no finding by default, so --strict passes such logs.\n"
      "DEFAULT: 'pedantic' rules need --pedantic or --enable, 'max-cpu' needs --max-cpu.\n"
      "Section numbers refer to docs/format.md.\n";
}

}  // namespace pmclog::validate
