// Output formats of a validation run. Each writer appends to a string; main.cpp decides
// whether it goes to standard output or to --output (tools/common/output_file.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scan.h"

namespace pmclog::validate {

struct RunSummary {
  uint64_t files = 0, records = 0, bytes = 0;
  uint64_t errors = 0, warnings = 0, not_shown = 0, unreadable = 0;
  bool strict = false;
  int exit_status = 0;  // 0 valid, 1 errors (or warnings with --strict), 2 I/O errors
};
RunSummary summarize(const std::vector<FileResult>& files, bool strict);

// Did this file fail (errors, or warnings under --strict, or unreadable)?
bool file_failed(const FileResult& f, bool strict);

// "FILE:0x12c0 (4800): error: MESSAGE [rule-id]" (report_text.cpp)
std::string diagnostic_line(const std::string& file, const Diagnostic& d);
std::string summary_line(const RunSummary& s);
// An unreadable file's message for text, github and junit: the name escaped (display_path),
// the rest terminal_safe (report_text.cpp). JSON takes io_message itself.
std::string io_error_text(const FileResult& f);

void write_text(std::string& out, const std::vector<FileResult>& files, const RunSummary& s);
void write_json(std::string& out, const std::vector<FileResult>& files, const RunSummary& s);
void write_github(std::string& out, const std::vector<FileResult>& files, const RunSummary& s);
void write_junit(std::string& out, const std::vector<FileResult>& files, const RunSummary& s);

// --list-rules, as a text table or a JSON array.
void write_rules_text(std::string& out);
void write_rules_json(std::string& out);

}  // namespace pmclog::validate
