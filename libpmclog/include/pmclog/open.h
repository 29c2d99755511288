// Opening an input by name the way every tool does: "-" is standard input (whatever it is:
// a pipe, a terminal, a device, or a regular file read from its current offset); regular
// files are memory-mapped, everything else is streamed; gzip, zstd, xz and bzip2 input is
// decompressed on the fly through a bounded buffer. Other compressions and archives are
// recognised by their magic and refused. open_input_bytes() gives the bytes (for JSON
// input); open_log() is built on the same steps and adds the mapping and ABI detection.
//
// Memory: OpenLog owns everything behind its reader (the mapping or the descriptor, through
// `keepalive`); records stay valid while the OpenLog lives (a mapped reader) or until the
// next read (a streamed one). Threads: open_log() may be called from several threads at
// once; each OpenLog is then used by one thread. Errors: Result values whose message starts
// with the input's display name; nothing throws for a missing or damaged input.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

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

// What messages call an input: "(stdin)" for "-", otherwise the name escaped by
// display_path (a name is untrusted text). Every message these functions make starts with it.
std::string input_display_name(const std::string& name);

struct OpenInput {
  std::string name;          // as given ("-" for standard input)
  std::string display_name;  // input_display_name(name)
  Compression compression = Compression::none;
  std::unique_ptr<ByteSource> source;  // the decompressed bytes, from the start
  std::shared_ptr<void> keepalive;     // owns the descriptor behind `source`
};

// The bytes of an input, decompressed. Errc::io for inputs that cannot be opened or read and
// for directories; Errc::bad_abi for another format ("NAME: this is a zip archive, not a
// pmclog log"; `expected` names what the caller reads instead), also inside a compression.
// A read error after the first bytes comes from `source` when it is reached, so that
// everything before it can still be used.
Result<OpenInput> open_input_bytes(const std::string& name,
                                   std::string_view expected = "a pmclog log");

struct OpenLog {
  std::string name;          // as given ("-" for standard input)
  std::string display_name;  // input_display_name(name): how messages call it
  Compression compression = Compression::none;
  bool mapped = false;  // zero-copy over a mapping (regular uncompressed file)
  Detection detection;
  std::unique_ptr<LogReader> reader;
  std::shared_ptr<void> keepalive;  // owns the mapping behind a mapped reader
};

// Errors as for open_input_bytes, and Errc::bad_abi when detection fails; messages start
// with the display name. Record offsets count from where reading began (for "-" redirected
// from a file at a nonzero offset, from that offset, as a pipe of the same bytes would).
// An empty log opens fine (detection then assumes L3 LP64 little-endian and says so).
// Damage inside a compressed stream (a failed check, data that ends early) is an
// Errc::compressed_damaged error from the reader, naming the compression and the decompressed
// offset, after every record decoded before it; a failed read of the file is Errc::io.
// A PMCL container in front of the stream (format.md §18) is read here: its parts are in
// detection.container, the reader starts after it and record offsets stay file offsets.
// `container_issues`, when given, receives what is wrong with the container (the fatal
// problem that fails the opening included), for a validator.
// `on_read`, when given, is called with the count of bytes a streamed log (compressed, or
// not a regular file) has delivered so far, after each read of its source: a progress that
// moves while the reader scans bytes that hold no record (a resync), where no record offset
// is seen. A mapped log never calls it (its record offsets are file offsets).
Result<OpenLog> open_log(const std::string& name, const AbiHint& hint = {},
                         std::vector<ContainerIssue>* container_issues = nullptr,
                         std::function<void(uint64_t delivered)> on_read = {});

// What a log that detection found empty (detection.empty) is, for an error message after its
// display name: no bytes ("empty input"), an empty stream after a PMCL container, or one to
// three bytes, too few for a header word (truncated, at that offset, as the reader says).
// `bytes`: the stream's 0-3 bytes, after `container` when there is one.
std::string empty_log_message(const Container* container, unsigned bytes);
std::string empty_log_message(const OpenLog& log);

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
