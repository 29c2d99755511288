// Opening a log by name the way every tool does: "-" is standard input; regular files are
// memory-mapped, pipes are streamed; gzip and zstd input is decompressed on the fly; the ABI
// is detected from the first bytes unless the hint fixes it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "pmclog/detect.h"
#include "pmclog/error.h"
#include "pmclog/reader.h"

namespace pmclog {

enum class Compression : uint8_t { none, gzip, zstd };

struct OpenLog {
  std::string name;  // as given ("-" for standard input)
  Compression compression = Compression::none;
  bool mapped = false;  // zero-copy over a mapping (regular uncompressed file)
  Detection detection;
  std::unique_ptr<LogReader> reader;
  std::shared_ptr<void> keepalive;  // owns the mapping behind a mapped reader
};

// Errc::io for files that cannot be opened or read, Errc::bad_abi when detection fails.
// An empty log opens fine (detection then assumes L3 LP64 little-endian and says so).
Result<OpenLog> open_log(const std::string& name, const AbiHint& hint = {});

// A decompressing source over another source (gzip or zstd); nullptr for none.
std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> src,
                                                 Compression c);
Compression sniff_compression(std::span<const uint8_t> first_bytes);

}  // namespace pmclog
