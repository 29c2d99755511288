// The loop every decompressing source shares: refill, step the codec, restart at a member's
// end (gzip -c a >> b, pbzip2, xz and zstd concatenation), and report damage by name and
// decompressed offset only after the bytes decoded before it have been delivered.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pmclog/open.h"

namespace pmclog::detail {

class DecompressStream : public ByteSource {
 public:
  Result<size_t> read(uint8_t* buf, size_t n) final;

 protected:
  enum class State : uint8_t { more, end, error };
  struct Step {
    State state = State::more;
    size_t used = 0;   // input bytes consumed
    size_t made = 0;   // output bytes produced
    std::string why;   // for State::error: what the codec said
    // The data may be sound but is past what this reader allows (zstd's window cap): a
    // failure to read it (io), not damaged data (compressed_damaged).
    bool over_limit = false;
  };
  DecompressStream(std::unique_ptr<ByteSource> src, const char* name, size_t chunk);
  // One call into the codec. `finish`: no input follows (xz wants to be told).
  virtual Step step(const uint8_t* in, size_t in_n, uint8_t* out, size_t out_n, bool finish) = 0;
  // Ready for the next concatenated member; false (with `why`) when the codec cannot be reset.
  virtual bool restart(std::string& why) = 0;
  // A codec that failed to initialise says so before the first read.
  void init_failed(std::string why) { fail(std::move(why), Errc::io); }

 private:
  void fail(const std::string& why, Errc code = Errc::compressed_damaged);

  std::unique_ptr<ByteSource> src_;
  const char* name_;
  std::vector<uint8_t> in_;
  size_t in_pos_ = 0, in_len_ = 0;
  uint64_t total_ = 0;  // decompressed bytes delivered or about to be
  bool eof_ = false, in_member_ = false, done_ = false;
  std::unique_ptr<Error> error_;  // held back until what was decoded before it is read
};

std::unique_ptr<ByteSource> gzip_source(std::unique_ptr<ByteSource> src);
std::unique_ptr<ByteSource> zstd_source(std::unique_ptr<ByteSource> src);
std::unique_ptr<ByteSource> xz_source(std::unique_ptr<ByteSource> src);
std::unique_ptr<ByteSource> bzip2_source(std::unique_ptr<ByteSource> src);

}  // namespace pmclog::detail
