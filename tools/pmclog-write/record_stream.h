// Whole records on their way to the output file: collected in a large buffer and written in
// big chunks by a thread of their own (ChunkWriter), passing through the fault injector when
// one is set, with progress. A write error is thrown as tools::Failure (or tools::ClosedPipe,
// see tools/common/tool_error.h) by the call that hands over the next chunk, or by finish().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace pmclog::tools {
class OutputFile;
class Progress;
}

namespace pmclog::write {

using tools::OutputFile;
class ChunkWriter;
class FaultInjector;

// What the progress line counts: written bytes or records, of a total when one is known.
struct ProgressGoal {
  tools::Progress* progress = nullptr;  // null: none
  bool records = false;                 // count records, else bytes
  uint64_t total = 0;                   // 0: unknown (a count is shown)
};

class RecordStream {
 public:
  static constexpr size_t kChunk = 512u << 10;  // write() size for the pending buffer

  RecordStream(OutputFile& out, FaultInjector* injector, ProgressGoal progress = {});
  ~RecordStream();  // without finish(), what is not written yet is dropped

  // Encode target: append whole records, then call added().
  std::vector<uint8_t>& pending() { return pending_; }
  void added(uint64_t records = 1) {
    records_ += records;
    if (pending_.size() >= kChunk) flush();
  }
  // Records framed elsewhere (a full CPU buffer), after the pending ones, without a copy:
  // the first n bytes go to the writer as they are, and `buffer` comes back holding what
  // followed them (a record that did not fit).
  void hand_over(std::vector<uint8_t>& buffer, size_t n);
  // Bytes that are no records (a PMCL container, format.md §18): written as they are, past
  // the fault injector, after the pending records.
  void write_raw(std::span<const uint8_t> bytes);
  void flush();   // hands the pending records to the writer
  void finish();  // writes everything, lets the injector close (a final truncation), erases
                  // the progress line

  uint64_t bytes_written() const { return written_; }  // complete after finish()
  uint64_t records() const { return records_; }

 private:
  void submit(std::vector<uint8_t>& bytes, bool raw);
  void out(std::span<const uint8_t> bytes, bool raw, uint64_t records);  // the writer's side
  void show_progress(uint64_t records);
  OutputFile& file_;
  FaultInjector* injector_;
  ProgressGoal progress_;
  std::vector<uint8_t> pending_, raw_, tail_;
  std::vector<uint8_t> damaged_;  // the writer's
  uint64_t written_ = 0;          // the writer's until finish()
  uint64_t records_ = 0;
  std::unique_ptr<ChunkWriter> writer_;
};

}  // namespace pmclog::write
