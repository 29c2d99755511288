// Whole records on their way to the output file: collected in a large reusable buffer and
// written in big chunks, passing through the fault injector when one is set, with progress.
// A write error is thrown as tools::Failure (or tools::ClosedPipe), see tools/common/tool_error.h.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace pmclog::tools {
class OutputFile;
class Progress;
}

namespace pmclog::write {

using tools::OutputFile;
class FaultInjector;

// What the progress line counts: written bytes or records, of a total when one is known.
struct ProgressGoal {
  tools::Progress* progress = nullptr;  // null: none
  bool records = false;                 // count records, else bytes
  uint64_t total = 0;                   // 0: unknown (a count is shown)
};

class RecordStream {
 public:
  static constexpr size_t kChunk = 4u << 20;  // write() size for the pending buffer

  RecordStream(OutputFile& out, FaultInjector* injector, ProgressGoal progress = {});

  // Encode target: append whole records, then call added().
  std::vector<uint8_t>& pending() { return pending_; }
  void added(uint64_t records = 1) {
    records_ += records;
    if (pending_.size() >= kChunk) flush();
  }
  // Records framed elsewhere (a CPU buffer), written after the pending ones.
  void write_records(std::span<const uint8_t> records);
  // Bytes that are no records (a PMCL container, format.md §18): written as they are, past
  // the fault injector, after the pending records.
  void write_raw(std::span<const uint8_t> bytes);
  void flush();
  void finish();  // flush, let the injector close (a final truncation), erase the progress line

  uint64_t bytes_written() const { return written_; }
  uint64_t records() const { return records_; }

 private:
  void out(std::span<const uint8_t> bytes);
  void show_progress();
  OutputFile& file_;
  FaultInjector* injector_;
  ProgressGoal progress_;
  std::vector<uint8_t> pending_, damaged_;
  uint64_t written_ = 0, records_ = 0;
};

}  // namespace pmclog::write
