// One output form of the records (--format). The driver hands every selected record to
// record(); begin/end bracket each input file.
#pragma once

#include <memory>

#include "log_state.h"
#include "options.h"
#include "pmclog/error.h"
#include "pmclog/record.h"
#include "stdout_sink.h"

namespace dump {

// Standard output (tools::standard_output()): formatters append to `buf` and call
// maybe_flush(), which writes it out past a threshold; its errors are values, seen by the
// driver after each record and by run_main at the end.
using Output = pmclog::tools::StdoutSink;

class Formatter {
 public:
  virtual ~Formatter() = default;
  virtual void begin(const LogState&, Output&) {}
  // The PMCL container in front of the records (format.md §18), after begin().
  virtual void container(const pmclog::Container&, const LogState&, Output&) {}
  virtual void record(const pmclog::Record& r, const LogState& st, Output& out) = 0;
  // A data error stopped (or interrupted, with --keep-going) the file.
  virtual void data_error(const pmclog::Error&, const LogState&, Output&) {}
  virtual void end(const LogState&, Output&) {}
};

std::unique_ptr<Formatter> make_text_formatter();
std::unique_ptr<Formatter> make_pmcstat_formatter();
// with_file: each object starts with "file":NAME (several inputs in one run, docs/jsonl.md).
std::unique_ptr<Formatter> make_jsonl_formatter(bool with_file = false);
std::unique_ptr<Formatter> make_explain_formatter();

}  // namespace dump
