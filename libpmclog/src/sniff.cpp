// Recognising compressions and archives by their magic bytes: the ones open_log decodes,
// and the ones it can only name, so that a user hears "this is a zip archive" instead of a
// bad-magic message about a header word that was never one.
#include <algorithm>
#include <string_view>

#include "pmclog/open.h"

namespace pmclog {

namespace {

bool has(std::span<const uint8_t> b, size_t at, std::string_view magic) {
  return b.size() >= at + magic.size() &&
         std::equal(magic.begin(), magic.end(), b.begin() + static_cast<ptrdiff_t>(at),
                    [](char m, uint8_t c) { return static_cast<uint8_t>(m) == c; });
}

struct Foreign {
  size_t at;
  std::string_view magic;
  const char* what;
};

// Magic numbers as their formats' specifications (and file(1)'s magic database) give them.
constexpr Foreign kForeign[] = {
    {0, {"\x04\x22\x4D\x18", 4}, "lz4-compressed"},
    {0, {"\x02\x21\x4C\x18", 4}, "lz4-compressed (legacy frame format)"},
    {0, "LZIP", "lzip-compressed"},
    {0, {"\x89LZO\x00\r\n\x1A\n", 9}, "lzop-compressed"},
    {0, {"\x1F\x9D", 2}, ".Z-compressed (Unix compress)"},
    {0, {"\x5D\x00\x00", 3}, "lzma-compressed (the legacy .lzma format; xz -d reads it)"},
    {0, {"\x37\x7A\xBC\xAF\x27\x1C", 6}, "a 7z archive"},
    {0, {"PK\x03\x04", 4}, "a zip archive"},
    {0, {"PK\x05\x06", 4}, "a zip archive (empty)"},
    {0, {"PK\x07\x08", 4}, "a zip archive (spanned)"},
    {0, {"Rar!\x1A\x07", 6}, "a rar archive"},
    {0, "!<arch>\n", "an ar archive"},
    {0, "070701", "a cpio archive"},
    {0, "070702", "a cpio archive"},
    {0, "070707", "a cpio archive"},
    {257, "ustar", "a tar archive"},  // POSIX "ustar\0" and GNU "ustar  \0"
};

}  // namespace

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::gzip: return "gzip";
    case Compression::zstd: return "zstd";
    case Compression::xz: return "xz";
    case Compression::bzip2: return "bzip2";
  }
  return "none";
}

Compression sniff_compression(std::span<const uint8_t> b) {
  if (has(b, 0, "\x1F\x8B")) return Compression::gzip;
  if (has(b, 0, "\x28\xB5\x2F\xFD")) return Compression::zstd;
  // A skippable frame (pzstd starts with one): libzstd steps over it.
  if (b.size() >= 4 && (b[0] & 0xF0) == 0x50 && has(b, 1, "\x2A\x4D\x18")) return Compression::zstd;
  if (has(b, 0, {"\xFD" "7zXZ\x00", 6})) return Compression::xz;
  if (has(b, 0, "BZh") && b.size() >= 4 && b[3] >= '1' && b[3] <= '9') return Compression::bzip2;
  return Compression::none;
}

std::optional<std::string> foreign_format(std::span<const uint8_t> b) {
  // A log's first word has its 0xee magic at byte 0 or 3 (format.md §2.2): never second-guess it.
  if (b.size() >= 4 && (b[0] == 0xEE || b[3] == 0xEE)) return std::nullopt;
  for (const Foreign& f : kForeign)
    if (has(b, f.at, f.magic)) return std::string(f.what);
  return std::nullopt;
}

}  // namespace pmclog
