// JSON Lines in (docs/jsonl.md, the dump tool's `--format=jsonl`), log bytes out. The ABI
// comes from the options, else from the lines themselves (`generation`, the first
// INITIALIZE's version, `address_width`/`byte_order` members, record lengths that only one
// address width explains); missing header times are derived, increasing; stale bytes listed
// in `unwritten` are put back after encoding, so a dump of a clean log comes back exact.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pmclog/abi.h"

namespace pmclog::write {

class RecordStream;

struct JsonOptions {
  std::optional<Generation> generation;
  bool modern = false;  // "--generation M": M9 or M10 by the INITIALIZE version
  std::optional<uint8_t> address_width;
  std::optional<ByteOrder> byte_order;
  bool quiet = false;
};

// Reads lines from `fd` (`name` for messages, already escaped: display_path). Once the ABI
// is settled, `open` is called to get the stream to write to. Throws ToolError: exit 1 with
// "NAME:LINE: field 'f': reason" for bad input, exit 2 for read errors.
void convert_jsonl(int fd, const std::string& name, const JsonOptions& opt,
                   const std::function<RecordStream&(const Abi&)>& open);

// The INITIALIZE time_t width the tool assumes: 4 only on i386 (32-bit little-endian).
uint8_t default_time_width(uint8_t address_width, ByteOrder order);

}  // namespace pmclog::write
