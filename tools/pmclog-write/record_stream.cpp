#include "record_stream.h"

#include "fault_injection.h"
#include "output_file.h"
#include "progress.h"
#include "tool_error.h"

namespace pmclog::write {

RecordStream::RecordStream(OutputFile& out, FaultInjector* injector, ProgressGoal progress)
    : file_(out), injector_(injector), progress_(progress) {
  pending_.reserve(kChunk + 65536);  // one chunk plus the largest record: no reallocation
}

void RecordStream::out(std::span<const uint8_t> bytes) {
  if (injector_) {
    damaged_.clear();
    injector_->process(bytes, damaged_);
    bytes = damaged_;
  }
  if (!bytes.empty()) tools::throw_if_failed(file_.write(bytes.data(), bytes.size()));
  written_ += bytes.size();
  show_progress();
}

// Once per written chunk (megabytes): the clock is not read per record.
void RecordStream::show_progress() {
  if (!progress_.progress || !progress_.progress->on()) return;
  if (progress_.records) progress_.progress->update(records_, progress_.total, "records");
  else progress_.progress->update(written_, progress_.total);
}

void RecordStream::flush() {
  if (pending_.empty()) return;
  out(pending_);
  pending_.clear();
}

void RecordStream::write_records(std::span<const uint8_t> records) {
  flush();
  out(records);
}

void RecordStream::write_raw(std::span<const uint8_t> bytes) {
  flush();
  if (injector_) injector_->skip_bytes(bytes.size());
  if (!bytes.empty()) tools::throw_if_failed(file_.write(bytes.data(), bytes.size()));
  written_ += bytes.size();
}

void RecordStream::finish() {
  flush();
  if (injector_) {
    damaged_.clear();
    injector_->finish(damaged_);
    if (!damaged_.empty()) tools::throw_if_failed(file_.write(damaged_.data(), damaged_.size()));
    written_ += damaged_.size();
  }
  show_progress();
  if (progress_.progress) progress_.progress->clear();
}

}  // namespace pmclog::write
