// JSON Lines in (docs/jsonl.md, the dump tool's `--format=jsonl`), log bytes out. The ABI
// comes from the options, else from the lines themselves (`generation`, the first
// INITIALIZE's version, `address_width`/`byte_order` members, record lengths that only one
// address width explains); missing header times are derived, increasing; stale bytes listed
// in `unwritten` are put back after encoding, so a dump of a clean log comes back exact.
// A dump of several logs carries a "file" member on every line: one file is written, the
// only one or the one `file` names.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/reader.h"

namespace pmclog::write {

class RecordStream;

struct JsonOptions {
  std::optional<Generation> generation;
  bool modern = false;  // "--generation M": M9 or M10 by the INITIALIZE version
  std::optional<uint8_t> address_width;
  std::optional<uint8_t> address_slot;  // --address-slot (8 with width 4: narrow addresses)
  std::optional<ByteOrder> byte_order;
  bool quiet = false;
  // Multi-file input: write only the lines whose "file" member is this (--file NAME).
  std::optional<std::string> file;
  // The input was decompressed: a read error means damaged data (exit 1), not I/O (exit 2).
  bool compressed = false;
};

// Reads lines from `src` (`name` for messages, already escaped: display_path). Once the ABI
// is settled, `open` is called to get the stream to write to. Throws tools::Failure: exit 1
// with "NAME:LINE: field 'f': reason" for bad input (a binary log, a line above kMaxJsonLine
// and the records of two logs included), exit 2 for read errors and for a `file` that no
// line has.
void convert_jsonl(ByteSource& src, const std::string& name, const JsonOptions& opt,
                   const std::function<RecordStream&(const Abi&)>& open);

// The INITIALIZE time_t width the tool assumes: 4 only on i386 (32-bit little-endian).
uint8_t default_time_width(uint8_t address_width, ByteOrder order);

}  // namespace pmclog::write
