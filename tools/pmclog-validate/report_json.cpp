// --format=json: one JSON document for the whole run. Every string goes through
// append_json_string, so the document is valid whatever bytes file names or paths hold.
#include <fmt/format.h>

#include "pmclog/open.h"
#include "pmclog/text.h"
#include "report.h"

namespace pmclog::validate {

namespace {

void key(std::string& out, const char* k) {
  out += '"';
  out += k;
  out += "\":";
}

void str(std::string& out, const char* k, std::string_view v) {
  key(out, k);
  append_json_string(out, v);
}

void num(std::string& out, const char* k, uint64_t v) {
  key(out, k);
  out += std::to_string(v);
}

void boolean(std::string& out, const char* k, bool v) {
  key(out, k);
  out += v ? "true" : "false";
}

}  // namespace

void write_json(std::string& out, const std::vector<FileResult>& files, const RunSummary& s) {
  out += '{';
  str(out, "tool", "pmclog-validate");
  out += ',';
  str(out, "version", PMCLOG_VALIDATE_VERSION);
  out += ',';
  key(out, "files");
  out += '[';
  for (size_t i = 0; i < files.size(); ++i) {
    const FileResult& f = files[i];
    if (i) out += ',';
    out += '{';
    str(out, "file", f.name == "-" ? "(stdin)" : f.name);  // named as pmclog-dump names it
    out += ',';
    key(out, "abi");
    if (f.abi) {
      out += '{';
      str(out, "generation", generation_name(f.abi->generation));
      out += ',';
      num(out, "address_width", f.abi->address_width);
      out += ',';
      if (f.abi->narrow()) {
        num(out, "address_slot", f.abi->slot_width());
        out += ',';
      }
      str(out, "byte_order", byte_order_name(f.abi->byte_order));
      out += ',';
      str(out, "description", describe(*f.abi));
      out += '}';
    } else {
      out += "null";
    }
    out += ',';
    num(out, "records", f.records);
    out += ',';
    num(out, "bytes", f.bytes);
    out += ',';
    num(out, "errors", f.errors);
    out += ',';
    num(out, "warnings", f.warnings);
    out += ',';
    num(out, "not_shown", f.not_shown);
    out += ',';
    boolean(out, "valid", !file_failed(f, s.strict));
    if (f.io_error) {
      out += ',';
      str(out, "io_error", f.io_message);
    }
    out += ',';
    key(out, "diagnostics");
    out += '[';
    for (size_t j = 0; j < f.diagnostics.size(); ++j) {
      const Diagnostic& d = f.diagnostics[j];
      if (j) out += ',';
      out += '{';
      str(out, "rule", info(d.rule).id);
      out += ',';
      str(out, "severity", severity_name(d.severity));
      out += ',';
      str(out, "category", category_name(info(d.rule).category));
      out += ',';
      num(out, "offset", d.offset);
      out += ',';
      str(out, "offset_hex", fmt::format("{:#x}", d.offset));
      out += ',';
      num(out, "record", d.record);
      out += ',';
      str(out, "message", d.message);
      out += '}';
    }
    out += "]}";
  }
  out += "],";
  key(out, "summary");
  out += '{';
  num(out, "files", s.files);
  out += ',';
  num(out, "records", s.records);
  out += ',';
  num(out, "bytes", s.bytes);
  out += ',';
  num(out, "errors", s.errors);
  out += ',';
  num(out, "warnings", s.warnings);
  out += ',';
  num(out, "not_shown", s.not_shown);
  out += ',';
  num(out, "unreadable", s.unreadable);
  out += ',';
  boolean(out, "strict", s.strict);
  out += ',';
  boolean(out, "valid", s.exit_status == 0);
  out += ',';
  num(out, "exit_status", static_cast<uint64_t>(s.exit_status));
  out += "}}\n";
}

void write_rules_json(std::string& out) {
  out += '[';
  bool first = true;
  for (const RuleInfo& r : rules()) {
    if (!first) out += ',';
    first = false;
    out += '{';
    str(out, "id", r.id);
    out += ',';
    str(out, "severity", severity_name(r.severity));
    out += ',';
    str(out, "category", category_name(r.category));
    out += ',';
    str(out, "default",
        r.when == Default::on ? "on" : r.when == Default::pedantic ? "pedantic" : "max-cpu");
    out += ',';
    str(out, "description", r.description);
    out += ',';
    str(out, "why", r.why);
    out += '}';
  }
  out += "]\n";
}

}  // namespace pmclog::validate
