#include "record_stream.h"

#include "chunk_writer.h"
#include "fault_injection.h"
#include "output_file.h"
#include "progress.h"
#include "tool_error.h"

namespace pmclog::write {

RecordStream::RecordStream(OutputFile& out, FaultInjector* injector, ProgressGoal progress)
    : file_(out), injector_(injector), progress_(progress),
      writer_(std::make_unique<ChunkWriter>(
          [this](std::span<const uint8_t> b, bool raw, uint64_t n) { this->out(b, raw, n); })) {
  pending_.reserve(kChunk + 65536);  // one chunk plus the largest record: no reallocation
}

RecordStream::~RecordStream() = default;

// On the writer's thread: the only code that touches the file, the injector and the
// progress line until finish().
void RecordStream::out(std::span<const uint8_t> bytes, bool raw, uint64_t records) {
  if (raw) {
    if (injector_) injector_->skip_bytes(bytes.size());
  } else if (injector_) {
    damaged_.clear();
    injector_->process(bytes, damaged_);
    bytes = damaged_;
  }
  if (!bytes.empty()) tools::throw_if_failed(file_.write(bytes.data(), bytes.size()));
  written_ += bytes.size();
  show_progress(records);
}

// Once per written chunk (megabytes): the clock is not read per record.
void RecordStream::show_progress(uint64_t records) {
  if (!progress_.progress || !progress_.progress->on()) return;
  if (progress_.records) progress_.progress->update(records, progress_.total, "records");
  else progress_.progress->update(written_, progress_.total);
}

void RecordStream::submit(std::vector<uint8_t>& bytes, bool raw) {
  writer_->submit(bytes, raw, records_);
}

void RecordStream::flush() {
  if (!pending_.empty()) submit(pending_, false);
}

void RecordStream::hand_over(std::vector<uint8_t>& buffer, size_t n) {
  if (n == 0) return;
  flush();
  if (n >= kChunk) {
    // A CPU buffer of a chunk or more (a large --cpu-buffer-size) is written from where it
    // is once the writer is idle: queued, such buffers would take several times their size.
    writer_->drain();
    out({buffer.data(), n}, false, records_);
    buffer.erase(buffer.begin(), buffer.begin() + static_cast<ptrdiff_t>(n));
    return;
  }
  tail_.assign(buffer.begin() + static_cast<ptrdiff_t>(n), buffer.end());
  buffer.resize(n);
  submit(buffer, false);
  buffer.assign(tail_.begin(), tail_.end());
}

void RecordStream::write_raw(std::span<const uint8_t> bytes) {
  flush();
  raw_.assign(bytes.begin(), bytes.end());
  submit(raw_, true);
}

void RecordStream::finish() {
  flush();
  writer_->drain();
  if (injector_) {
    damaged_.clear();
    injector_->finish(damaged_);
    if (!damaged_.empty()) tools::throw_if_failed(file_.write(damaged_.data(), damaged_.size()));
    written_ += damaged_.size();
  }
  show_progress(records_);
  if (progress_.progress) progress_.progress->clear();
}

}  // namespace pmclog::write
