// A CALLCHAIN encoder for the synth hot path: the same bytes as pmclog::encode(), without its
// per-field range checks (the model's values always fit) and with byte order and address
// width fixed once. Offsets come from the layout table (layout.h), not from here; a test
// compares its output with encode() in every ABI.
#pragma once

#include <cstdint>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/record.h"

namespace pmclog::write {

class CallchainWriter {
 public:
  explicit CallchainWriter(const Abi& abi);
  // Appends the record `r` (kind callchain) to `out`; returns its length.
  uint32_t append(const RecordValue& r, std::vector<uint8_t>& out) const {
    return fn_(*this, r, out);
  }

 private:
  template <ByteOrder O, int W>
  static uint32_t append_as(const CallchainWriter& w, const RecordValue& r,
                            std::vector<uint8_t>& out);
  using Fn = uint32_t (*)(const CallchainWriter&, const RecordValue&, std::vector<uint8_t>&);
  Fn fn_;
  bool legacy_;
  uint8_t type_;
  uint16_t fixed_;  // offset of pc[0]
  uint8_t slot_ = 8;  // bytes per frame in the length (Layout::addr_slot)
  uint16_t off_pid_, off_tid_, off_pmcid_, off_cpuflags_;
  bool has_tid_;
};

}  // namespace pmclog::write
