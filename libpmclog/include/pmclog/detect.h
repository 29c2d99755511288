// Working out a log's ABI from its bytes (format.md §2.2), with overrides for every part.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/container.h"
#include "pmclog/error.h"

namespace pmclog {

struct AbiHint {
  std::optional<Generation> generation;
  // "M": modern, with M9 or M10 chosen by the INITIALIZE version.
  bool modern = false;
  std::optional<uint8_t> address_width;
  // Bytes per address slot (Abi::address_slot). With address_width: both given. Alone: the
  // slots are given and the records decide whether the values fill them.
  std::optional<uint8_t> address_slot;
  std::optional<ByteOrder> byte_order;
  std::optional<uint8_t> time_width;
};

struct Detection {
  Abi abi;
  // One line per decision: what was decided and from which bytes, or "given by the caller".
  std::vector<std::string> evidence;
  bool width_assumed = false;       // no bytes settled the address width
  bool generation_assumed = false;  // L2 vs L3 could not be told apart, and similar
  // Fewer than 4 bytes: no header word, so no log (every log starts with INITIALIZE). The
  // ABI is a placeholder then, for readers that go on to report the empty input.
  bool empty = false;
  uint8_t empty_bytes = 0;  // how many there were (0-3)
  // A PMCL container in front of the stream (format.md §18): its parts, what is wrong with
  // it, and where the pmclog stream starts (0 without one). Its magic settles the byte order
  // and its arch the address width (unless the caller gives them).
  std::optional<Container> container;
  std::vector<ContainerIssue> container_issues;
  uint64_t stream_offset = 0;
};

// Examines a prefix of the log (the more, the better the width evidence; a few MiB is plenty).
// Fails only when the byte order or generation cannot be settled and no hint gives them, or
// when a PMCL container at the start is damaged beyond reading (the message names the
// offset; Errc::bad_abi). `whole`: the prefix is the whole input (else a container cut by
// its end is reported as longer than the bytes examined).
Result<Detection> detect_abi(std::span<const uint8_t> prefix, const AbiHint& hint = {},
                             bool whole = true);

}  // namespace pmclog
