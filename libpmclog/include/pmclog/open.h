// Opening a log by name the way every tool does: "-" is standard input; regular files are
// memory-mapped, pipes are streamed; gzip, zstd, xz and bzip2 input is decompressed on the
// fly through the bounded buffer; the ABI is detected from the first bytes unless the hint
// fixes it. Other compressions and archives are recognised by their magic and refused.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "pmclog/detect.h"
#include "pmclog/error.h"
#include "pmclog/reader.h"

namespace pmclog {

enum class Compression : uint8_t { none, gzip, zstd, xz, bzip2 };
const char* compression_name(Compression c);  // "none", "gzip", "zstd", "xz", "bzip2"

// zstd frames may ask for a window of up to 2 GiB (zstd --long=31); the decoder refuses
// windows above 2^27 bytes (128 MiB, the zstd CLI's own default limit) so that memory stays
// bounded, and says so. xz streams get the same 128 MiB as their memory limit (xz -9 needs
// 65 MiB).
constexpr int kZstdWindowLogMax = 27;
constexpr uint64_t kXzMemoryLimit = uint64_t{128} << 20;

struct OpenLog {
  std::string name;  // as given ("-" for standard input)
  Compression compression = Compression::none;
  bool mapped = false;  // zero-copy over a mapping (regular uncompressed file)
  Detection detection;
  std::unique_ptr<LogReader> reader;
  std::shared_ptr<void> keepalive;  // owns the mapping behind a mapped reader
};

// Errc::io for files that cannot be opened or read, Errc::bad_abi when detection fails or
// the input is another format ("NAME: this is lz4-compressed, not a pmclog log").
// An empty log opens fine (detection then assumes L3 LP64 little-endian and says so).
// Damage inside a compressed stream is an Errc::io error from the reader, naming the
// compression and the decompressed offset, after every record decoded before it.
Result<OpenLog> open_log(const std::string& name, const AbiHint& hint = {});

// A decompressing source over another source; nullptr for none.
std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> src,
                                                 Compression c);

// What the first bytes say (kSniffBytes are enough for every magic known here, tar's at 257).
constexpr size_t kSniffBytes = 512;
Compression sniff_compression(std::span<const uint8_t> first_bytes);
// For a format this library does not read: what it is, as "lz4-compressed" or "a zip archive";
// nullopt otherwise, and always when byte 0 or 3 is 0xee (a log's first header word).
std::optional<std::string> foreign_format(std::span<const uint8_t> first_bytes);

}  // namespace pmclog
