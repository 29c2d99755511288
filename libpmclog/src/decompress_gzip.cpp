// gzip (and zlib-wrapped deflate) input through zlib.
#define ZLIB_CONST
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "decompress_stream.h"

namespace pmclog::detail {

namespace {

class GzipSource final : public DecompressStream {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> src)
      : DecompressStream(std::move(src), "gzip", 1u << 17) {
    std::memset(&z_, 0, sizeof z_);
    live_ = inflateInit2(&z_, 15 + 32) == Z_OK;  // +32: a gzip or a zlib header
    if (!live_) init_failed("cannot initialise zlib");
  }
  ~GzipSource() override {
    if (live_) inflateEnd(&z_);
  }

 private:
  Step step(const uint8_t* in, size_t in_n, uint8_t* out, size_t out_n, bool) override {
    const auto in_c = static_cast<uInt>(std::min<size_t>(in_n, 1u << 30));
    const auto out_c = static_cast<uInt>(std::min<size_t>(out_n, 1u << 30));
    z_.next_in = in;
    z_.avail_in = in_c;
    z_.next_out = out;
    z_.avail_out = out_c;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    Step s;
    s.used = in_c - z_.avail_in;
    s.made = out_c - z_.avail_out;
    if (rc == Z_STREAM_END) {
      s.state = State::end;
    } else if (rc == Z_NEED_DICT) {
      s.state = State::error;
      s.why = "the stream needs a preset dictionary";
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {  // Z_BUF_ERROR: no progress possible yet
      s.state = State::error;
      s.why = std::string("corrupt compressed data: ") + (z_.msg ? z_.msg : zError(rc));
    }
    return s;
  }
  bool restart(std::string& why) override {
    if (inflateReset(&z_) == Z_OK) return true;
    why = "cannot reset zlib for the next member";
    return false;
  }

  z_stream z_;
  bool live_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> gzip_source(std::unique_ptr<ByteSource> src) {
  return std::make_unique<GzipSource>(std::move(src));
}

}  // namespace pmclog::detail
