// Fuzz target: the compressed-input path (libpmclog decompress*.cpp behind open.h: gzip,
// zstd, xz, bzip2), seeded with compressed fixtures. Properties:
// - no crash, memory bounded (libFuzzer's -rss_limit_mb), decompression bombs included
//   (reading stops at kCap decompressed bytes here);
// - the decompressed bytes and whether they fail do not depend on how the compressed bytes
//   arrive (two chunkings of the source and of the reads); a stream that fails gives the same
//   prefix, as long as each chunking had read before the damage showed. For xz on 1 input in
//   4 (fuzz::sampled, by a hash of the input): an xz decoder allocates the dictionary its
//   header declares (64 MiB for xz -9, as the seeds were made), and ASan poisons the shadow of
//   all of it on allocation and on free, 70% of this target's time in a profile;
// - open_log() on the input as a file reads the same records as a reader over the
//   decompressed bytes in memory, up to the damage when the compressed stream is damaged
//   (up to the shorter of the two prefixes: where the damage shows depends on the chunking).
//   On the same 1 input in 4: open_log zero-fills a 1 MiB reader buffer and a 128 KiB
//   decompressor buffer, fresh pages under ASan on every call, and decodes once more.
// The replay test checks every input fully.
#include <fstream>

#include "fuzz_support.h"

using namespace pmclog;
using fuzz::check;

namespace {

fuzz::ScratchCleanup cleanup;
// 256 KiB: enough for every seed's whole log; a bomb costs the fuzzer this much per run, and
// at 4 MiB the target ran at 9 executions a second.
constexpr size_t kCap = 256u << 10;

struct Inflated {
  std::vector<uint8_t> bytes;
  bool failed = false;
  std::string message;
};

Inflated inflate(std::span<const uint8_t> in, Compression c, size_t chunk, size_t read_size) {
  Inflated out;
  auto src = decompressing_source(span_source(in, chunk), c);
  check(src != nullptr, "no decompressor for a compression that was sniffed");
  std::vector<uint8_t> buf(read_size);
  while (out.bytes.size() < kCap) {
    auto n = src->read(buf.data(), buf.size());
    if (!n.ok()) {
      check(!n.error().message.empty(), "a decompression error without a message");
      out.failed = true;
      out.message = n.error().message;
      break;
    }
    if (*n == 0) break;
    check(*n <= buf.size(), "a read longer than asked");
    out.bytes.insert(out.bytes.end(), buf.begin(), buf.begin() + *n);
  }
  if (out.bytes.size() > kCap) out.bytes.resize(kCap);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const Compression c = sniff_compression(bytes.first(std::min(size, kSniffBytes)));
  if (c == Compression::none) {
    check(decompressing_source(span_source(bytes), c) == nullptr, "a decompressor for none");
    return 0;
  }
  const Inflated a = inflate(bytes, c, 1 + size % 61, 4096);
  const bool full = fuzz::sampled(bytes, 4);
  if (c != Compression::xz || full) {
    const Inflated b = inflate(bytes, c, 65536, 1 + size % 7919);
    const size_t common = std::min(a.bytes.size(), b.bytes.size());
    check(std::equal(a.bytes.begin(), a.bytes.begin() + common, b.bytes.begin()),
          "the decompressed bytes depend on the chunking");
    // Damage found late (a zstd or xz checksum at the end of a frame) stops the stream after
    // as many bytes as the reads had taken by then: only a prefix is the same, and the error.
    if (a.bytes.size() < kCap && b.bytes.size() < kCap) {
      check(a.failed == b.failed, "whether decompression fails depends on the chunking");
      check(a.failed || a.bytes.size() == b.bytes.size(),
            "the decompressed length depends on the chunking");
    }
  }

  // The tools' way in: open_log() on a file.
  if (!full) return 0;
  const std::string path = (fuzz::scratch_dir() / "in.bin").string();
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto opened = open_log(path);
  if (!opened.ok()) {
    check(!opened.error().message.empty(), "an opening error without a message");
    return 0;
  }
  check(opened->compression == c, "open_log and sniff_compression disagree");
  const Abi abi = opened->reader->abi();
  const auto streamed = fuzz::walk(*opened->reader, UINT64_MAX, [](const Record&) {}, kCap);
  if (a.bytes.size() >= kCap) return 0;  // a bomb: only that it stays bounded
  LogReader mem = LogReader::over(a.bytes, abi);
  mem.discard(opened->detection.stream_offset);
  const auto want = fuzz::walk(mem, a.bytes.size());
  if (!a.failed) {
    check(streamed == want, "open_log's reader and the decompressed bytes disagree");
  } else {
    // Damage: each side holds the bytes its decompressor gave before it noticed, and how
    // many depends on the chunking (liblzma decodes as far as each piece of input lets it:
    // one xz stream failed at byte 323 read in 10-byte pieces, at 512 through open_log). The
    // walks agree up to where they part; there open_log's reader stops at the decompression
    // error, or the memory walk found a record cut short by the end of its bytes, which
    // open_log's reader, having more of them, read whole (a record, or a damaged one).
    size_t i = 0;
    while (i < streamed.size() && i < want.size() && streamed[i] == want[i]) ++i;
    if (i + 1 < streamed.size() && i < want.size()) {
      const fuzz::Event& w = want[i];
      check(w.error && w.code == static_cast<uint8_t>(Errc::truncated) &&
                w.offset == streamed[i].offset,
            "open_log's reader differs from the decompressed bytes before the damage");
    }
  }
  return 0;
}
