// Diagnostics of one file, kept bounded: the `limit` diagnostics with the lowest offsets are
// stored (a max-heap on offset), every diagnostic is counted. Memory does not grow with the
// number of problems in a huge damaged file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rules.h"

namespace pmclog::validate {

struct Diagnostic {
  uint64_t offset = 0;  // byte offset of the record (or of the damaged bytes)
  uint64_t record = 0;  // 0-based index of the record position in file order
  Rule rule = Rule::bad_magic;
  Severity severity = Severity::error;
  std::string message;
  uint64_t seq = 0;  // order of discovery, breaks offset ties
};

class DiagnosticSink {
 public:
  explicit DiagnosticSink(uint64_t limit = 0) : limit_(limit) {}  // 0: keep all

  void add(Diagnostic d);
  // The kept diagnostics, sorted by offset (then discovery order).
  std::vector<Diagnostic> take_sorted();

  uint64_t errors() const { return errors_; }
  uint64_t warnings() const { return warnings_; }
  uint64_t dropped() const { return dropped_; }  // counted but not kept (--max-errors)

 private:
  uint64_t limit_;
  std::vector<Diagnostic> heap_;
  uint64_t errors_ = 0, warnings_ = 0, dropped_ = 0, seq_ = 0;
};

}  // namespace pmclog::validate
