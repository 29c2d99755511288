// Transparent gzip and zstd input, through the Debian zlib and libzstd libraries.
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <vector>

#include "pmclog/open.h"

namespace pmclog {

namespace {

constexpr size_t kChunk = 1u << 17;

Error decompress_error(const std::string& what) {
  Error e;
  e.code = Errc::io;
  e.message = what;
  return e;
}

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> src) : src_(std::move(src)), in_(kChunk) {
    std::memset(&z_, 0, sizeof z_);
    ok_ = inflateInit2(&z_, 15 + 32) == Z_OK;  // +32: accept gzip and zlib headers
  }
  ~GzipSource() override { inflateEnd(&z_); }

  Result<size_t> read(uint8_t* buf, size_t n) override {
    if (!ok_) return decompress_error("gzip: cannot initialise zlib");
    z_.next_out = buf;
    z_.avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    while (z_.avail_out == n && !done_) {
      if (z_.avail_in == 0) {
        auto got = src_->read(in_.data(), in_.size());
        if (!got.ok()) return got.error();
        if (got.value() == 0) {
          if (in_member_) return decompress_error("gzip: compressed data ends early");
          done_ = true;
          break;
        }
        z_.next_in = in_.data();
        z_.avail_in = static_cast<uInt>(got.value());
      }
      in_member_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;  // concatenated members (gzip -c a >> b) continue
        inflateReset(&z_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return decompress_error(std::string("gzip: ") + (z_.msg ? z_.msg : "corrupt data"));
      }
    }
    return n - z_.avail_out;
  }

 private:
  std::unique_ptr<ByteSource> src_;
  std::vector<uint8_t> in_;
  z_stream z_;
  bool ok_ = false, done_ = false, in_member_ = false;
};

class ZstdSource final : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> src)
      : src_(std::move(src)), in_(ZSTD_DStreamInSize()), ds_(ZSTD_createDStream()) {
    ZSTD_initDStream(ds_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }

  Result<size_t> read(uint8_t* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0 && !done_) {
      if (inb_.pos == inb_.size) {
        auto got = src_->read(in_.data(), in_.size());
        if (!got.ok()) return got.error();
        if (got.value() == 0) {
          if (pending_) return decompress_error("zstd: compressed data ends early");
          done_ = true;
          break;
        }
        inb_ = ZSTD_inBuffer{in_.data(), got.value(), 0};
      }
      const size_t rc = ZSTD_decompressStream(ds_, &out, &inb_);
      if (ZSTD_isError(rc)) return decompress_error(std::string("zstd: ") + ZSTD_getErrorName(rc));
      pending_ = rc != 0;
    }
    return out.pos;
  }

 private:
  std::unique_ptr<ByteSource> src_;
  std::vector<uint8_t> in_;
  ZSTD_DStream* ds_;
  ZSTD_inBuffer inb_{nullptr, 0, 0};
  bool done_ = false, pending_ = false;
};

}  // namespace

Compression sniff_compression(std::span<const uint8_t> b) {
  if (b.size() >= 2 && b[0] == 0x1F && b[1] == 0x8B) return Compression::gzip;
  if (b.size() >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD)
    return Compression::zstd;
  return Compression::none;
}

std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> src,
                                                 Compression c) {
  switch (c) {
    case Compression::gzip: return std::make_unique<GzipSource>(std::move(src));
    case Compression::zstd: return std::make_unique<ZstdSource>(std::move(src));
    case Compression::none: break;
  }
  return nullptr;
}

}  // namespace pmclog
