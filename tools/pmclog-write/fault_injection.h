// Damaging a log on purpose, for testing checkers: `--inject KIND[:RATE|@OFFSET]`. Faults are
// applied to whole records in file order as they are written, and each one is listed with
// its final byte offset (`--inject-log FILE`, a JSON array) so that a test can expect
// exactly those diagnostics.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/abi.h"
#include "rng.h"

namespace pmclog::write {

enum class FaultKind : uint8_t {
  truncate,             // the file ends inside a record
  bad_magic,            // header top byte is not 0xEE
  bad_length,           // a fixed-size record 4 bytes longer than its size (framing kept)
  unknown_type,         // a type number no generation defines (framing kept)
  unterminated_string,  // a path with no NUL inside its record
  overlong_callchain,   // one frame more than the generation's depth limit
  time_backwards,       // a header timestamp before the previous record's
};

struct FaultSpec {
  FaultKind kind = FaultKind::truncate;
  double rate = 0;                 // probability per eligible record
  std::optional<uint64_t> offset;  // at the first eligible record at or after this offset
};

std::string_view fault_id(FaultKind k);
// "KIND", "KIND:RATE" or "KIND@OFFSET"; nullopt with `why` set when malformed. Without RATE
// or OFFSET a fault is injected at a rate of 1/1000, and truncation cuts the last record.
std::optional<FaultSpec> parse_fault(std::string_view s, std::string& why);

struct InjectedFault {
  FaultKind kind;
  uint64_t offset;      // of the damaged record in the output
  std::string record;   // its kind id before damage
  uint32_t length;      // its length in the output header (truncation: the full length)
  std::string expect;   // the pmclog-validate rule that reports it ("" when none does)
};

class FaultInjector {
 public:
  FaultInjector(const Abi& abi, std::vector<FaultSpec> specs, uint64_t seed);
  // `in` holds whole, valid records; their (possibly damaged) bytes are appended to `out`.
  void process(std::span<const uint8_t> in, std::vector<uint8_t>& out);
  void finish(std::vector<uint8_t>& out);  // releases a record held back for truncation
  // Bytes written in front of the records, untouched (a PMCL container): offsets stay file offsets.
  void skip_bytes(uint64_t n) { offset_ += n; }
  bool stopped() const { return stopped_; }
  // The first KIND@OFFSET fault that found no record to damage (the log ended before
  // OFFSET, or no later record could take it): its index in the specs, or none.
  std::optional<size_t> unmet_offset() const;
  const std::vector<InjectedFault>& faults() const { return faults_; }
  std::string listing_json() const;

 private:
  void one(const uint8_t* p, uint32_t len, std::vector<uint8_t>& out);
  bool eligible(FaultKind k, uint8_t type, uint32_t len) const;
  void apply(FaultKind k, const uint8_t* p, uint32_t len, std::vector<uint8_t>& out);
  void note_time(const uint8_t* p);

  Abi abi_;
  std::vector<FaultSpec> specs_;
  std::vector<bool> fired_;
  std::vector<uint64_t> threshold_;  // rate as a fraction of 2^32
  Rng rng_;
  bool hold_last_ = false, stopped_ = false;
  std::vector<uint8_t> held_;
  uint64_t offset_ = 0, index_ = 0;
  uint64_t prev_tsc_ = 0;
  uint32_t prev_sec_ = 0;
  std::vector<InjectedFault> faults_;
};

}  // namespace pmclog::write
