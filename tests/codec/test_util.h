// Small helpers shared by the codec tests.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "pmclog/decode.h"
#include "pmclog/reader.h"
#include "pmclog/record.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace codec_test {

using pmclog_test::ScratchDir;
using pmclog_test::slurp;
using pmclog_test::slurp_bytes;
using pmclog_test::write_file;

inline std::string fixtures_dir() { return PMCLOG_FIXTURES_DIR; }

// "14 00 02 EE  00 00 00 5A" -> bytes. Whitespace is ignored; anything else must be hex.
inline std::vector<uint8_t> hex(const std::string& s) {
  std::vector<uint8_t> out;
  int nib = -1;
  for (char c : s) {
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else continue;
    if (nib < 0) nib = v;
    else out.push_back(static_cast<uint8_t>(nib << 4 | v)), nib = -1;
  }
  return out;
}

inline std::string to_hex(const std::vector<uint8_t>& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i) s += (i % 4 == 0) ? "  " : " ";
    s += d[b[i] >> 4];
    s += d[b[i] & 15];
  }
  return s;
}

// One decoded record, copied out of the reader's buffer so it outlives the next call.
struct Owned {
  uint64_t offset = 0;
  pmclog::Kind kind = pmclog::Kind::unknown;
  pmclog::Header header;
  std::vector<uint8_t> raw;
  pmclog::RecordValue value;
  bool operator==(const Owned& o) const {
    return offset == o.offset && kind == o.kind && header.type == o.header.type &&
           header.length == o.header.length && header.ts_sec == o.header.ts_sec &&
           header.ts_nsec == o.header.ts_nsec && header.tsc == o.header.tsc && raw == o.raw &&
           value == o.value;
  }
};

// Writes bytes into a pipe from a thread (in odd-sized pieces, so that records straddle
// reads) and gives the read end, which is the caller's to close: a log that arrives as
// from another program.
class PipeFeed {
 public:
  explicit PipeFeed(std::vector<uint8_t> bytes, size_t piece = 29) : bytes_(std::move(bytes)) {
    if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
    writer_ = std::thread([this, piece] {
      for (size_t off = 0; fds_[1] >= 0 && off < bytes_.size();) {
        const size_t n = std::min(piece, bytes_.size() - off);
        if (::write(fds_[1], bytes_.data() + off, n) != static_cast<ssize_t>(n)) break;
        off += n;
      }
      if (fds_[1] >= 0) ::close(fds_[1]);
    });
  }
  ~PipeFeed() { writer_.join(); }
  PipeFeed(const PipeFeed&) = delete;
  PipeFeed& operator=(const PipeFeed&) = delete;
  int read_end() const { return fds_[0]; }

 private:
  std::vector<uint8_t> bytes_;
  int fds_[2] = {-1, -1};
  std::thread writer_;
};

inline Owned own(const pmclog::Record& r, const pmclog::Abi& abi) {
  return Owned{r.offset, r.kind, r.header, std::vector<uint8_t>(r.raw.begin(), r.raw.end()),
               pmclog::to_value(r, abi)};
}

// Reads until the end or the first error (returned in `err`).
inline std::vector<Owned> read_all(pmclog::LogReader& rd, pmclog::Error* err = nullptr) {
  std::vector<Owned> out;
  pmclog::Record r;
  pmclog::Error e;
  for (;;) {
    const pmclog::Step s = rd.next(r, e);
    if (s == pmclog::Step::record) {
      out.push_back(own(r, rd.abi()));
      continue;
    }
    if (s == pmclog::Step::error && err) *err = e;
    break;
  }
  return out;
}

}  // namespace codec_test
