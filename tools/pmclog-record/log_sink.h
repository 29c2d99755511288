// The pmclog output: records are encoded with the library for the chosen ABI, buffered, and
// written through the tools' shared output (tools/common/output_file.h): a regular file is
// written under a temporary name and renamed only when complete; a device or FIFO is written
// through.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "output_file.h"
#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace record {

class LogSink {
 public:
  LogSink(const pmclog::Abi& abi, std::string final_path);
  // The temporary file, if any, is removed when commit() was not reached.

  // Opens the output (a temporary next to a regular one). False with a message on failure.
  bool open(std::string& err);
  // Encodes and buffers one record stamped with `mono_ns` (CLOCK_MONOTONIC nanoseconds):
  // legacy headers get the wall-clock time, modern ones the nanosecond count as "TSC".
  void emit(pmclog::RecordValue& r, uint64_t mono_ns);
  // Bytes in front of the records (a PMCL container, format.md §18), before the first emit.
  void emit_raw(const std::vector<uint8_t>& bytes);
  // Flushes, fsyncs and renames. False with a message on any write error of the run; a
  // closed pipe is not one (the reader chose to stop, tools/common/README.md).
  bool commit(std::string& err);
  // The reader of a pipe went away: what is written from then on is dropped, and the counts
  // below are no longer what it received.
  bool closed() const { return closed_; }

  const pmclog::Abi& abi() const { return abi_; }
  uint64_t records() const { return records_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t encode_failures() const { return encode_failures_; }
  const std::string& temp_path() const { return out_.temp_path(); }

  // The realtime-minus-monotonic offset used for legacy timestamps, in ns.
  int64_t realtime_offset() const { return rt_offset_; }

 private:
  void flush();

  pmclog::Abi abi_;
  std::string final_path_;
  pmclog::tools::OutputFile out_;
  std::vector<uint8_t> buf_;
  size_t flush_at_ = 0;  // buffered bytes that are written at once
  uint64_t records_ = 0, bytes_ = 0, encode_failures_ = 0;
  bool closed_ = false;
  int64_t rt_offset_ = 0;
};

// CLOCK_MONOTONIC now, in nanoseconds (the clock the perf events are asked to use).
uint64_t monotonic_ns();

}  // namespace record
