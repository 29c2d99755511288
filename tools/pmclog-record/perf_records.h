// Raw perf ring-buffer records parsed into owned values, so records from every CPU's buffer
// can be merged by time before conversion.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace record {

// What was asked of the kernel; the layout of samples and trailers follows from it.
struct PerfFormat {
  uint64_t sample_type = 0;
  uint64_t read_format = 0;
  bool sample_id_all = true;
  uint64_t regs_user = 0;  // sample_regs_user: which registers a REGS_USER part holds
};

struct ReadValue {  // one counter of a PERF_SAMPLE_READ / PERF_RECORD_READ
  uint64_t value = 0;
  uint64_t id = 0;
};

struct PerfEvent {
  enum class Type : uint8_t {
    sample, mmap, comm, fork, exit, lost, lost_samples, throttle, unthrottle, read,
    switch_cpu, other
  };
  Type type = Type::other;
  uint16_t misc = 0;
  uint32_t pid = 0, tid = 0;
  uint64_t time = 0;
  uint32_t cpu = 0;
  uint64_t id = 0;  // PERF_SAMPLE_IDENTIFIER of the event that wrote it

  // sample
  uint64_t ip = 0, period = 0;
  std::vector<uint64_t> callchain;  // raw, context markers included
  // --call-graph dwarf: the user registers (in mask bit order; abi 0: none, as for a kernel
  // thread) and the bytes of the user stack from SP up that the kernel could copy.
  uint64_t regs_abi = 0;
  std::vector<uint64_t> user_regs;
  std::vector<uint8_t> user_stack;
  // sample with READ, and PERF_RECORD_READ
  uint64_t time_enabled = 0, time_running = 0;
  std::vector<ReadValue> values;
  // mmap
  uint64_t addr = 0, len = 0, pgoff = 0;
  uint32_t prot = 0;
  std::string filename;
  // comm
  std::string comm;
  // fork / exit
  uint32_t ppid = 0, ptid = 0;
  // lost
  uint64_t lost = 0;
};

// Parses one record (header included). Returns false for a record too short for its type.
bool parse_perf_record(std::span<const uint8_t> rec, const PerfFormat& fmt, PerfEvent& out);

}  // namespace record
