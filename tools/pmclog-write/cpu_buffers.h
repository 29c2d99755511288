// Where synthetic records go before the file. Modern kernels keep one log buffer per CPU and
// hand a buffer to the writer thread when the next record does not fit, so the file is a
// sequence of per-CPU runs, not in time order (format.md §3.4). Legacy logs have one buffer
// and file order is reservation order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmclog/abi.h"
#include "callchain_writer.h"
#include "pmclog/record.h"

namespace pmclog::write {

class RecordStream;

class CpuBuffers {
 public:
  CpuBuffers(RecordStream& stream, const Abi& abi, uint32_t cpus, size_t buffer_size);
  // Encodes the record into its CPU's buffer (modern) or the stream (legacy); returns its
  // length. Throws tools::Failure on an encoder error (a bug in the model).
  uint32_t emit(const RecordValue& r, uint32_t cpu);
  // The same for CALLCHAIN through the fast writer (most of a synthetic log's bytes).
  uint32_t emit_callchain(const RecordValue& r, uint32_t cpu);
  // Synchronous despatch: the CPU's buffer goes to the file now (the kernel does this after
  // PMCALLOCATE, format.md §11).
  void despatch(uint32_t cpu);
  void finish();  // hands over every remaining buffer, in CPU order

  uint64_t bytes() const { return bytes_; }
  uint64_t records() const { return records_; }

 private:
  RecordStream& stream_;
  Abi abi_;
  bool per_cpu_;
  size_t size_;
  std::vector<std::vector<uint8_t>> bufs_;
  std::optional<CallchainWriter> callchain_;  // generations with CALLCHAIN
  uint32_t placed(std::vector<uint8_t>& to, uint32_t len);
  uint64_t bytes_ = 0, records_ = 0;
};

}  // namespace pmclog::write
