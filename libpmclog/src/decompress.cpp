// Transparent compressed input: the loop the codecs share (decompress_stream.h) and the choice
// of codec. Each codec is a Debian library: zlib, libzstd, liblzma, libbz2.
#include "decompress_stream.h"

#include <algorithm>

namespace pmclog {

namespace detail {

DecompressStream::DecompressStream(std::unique_ptr<ByteSource> src, const char* name, size_t chunk)
    : src_(std::move(src)), name_(name), in_(chunk) {}

void DecompressStream::fail(const std::string& why, Errc code) {
  if (error_) return;
  error_ = std::make_unique<Error>();
  error_->code = code;
  error_->offset = total_;
  error_->message = std::string(name_) + ": " + why + " (at decompressed offset " +
                    std::to_string(total_) + ")";
}

Result<size_t> DecompressStream::read(uint8_t* buf, size_t n) {
  size_t out = 0;
  while (out == 0 && n > 0 && !done_ && !error_) {
    if (in_pos_ == in_len_ && !eof_) {
      auto got = src_->read(in_.data(), in_.size());
      if (!got.ok()) return got.error();  // the file, not the compressed data, failed
      in_pos_ = 0;
      in_len_ = got.value();
      eof_ = in_len_ == 0;
    }
    const size_t in_n = in_len_ - in_pos_;
    const bool finish = eof_ && in_n == 0;
    if (finish && !in_member_) {
      done_ = true;  // the input ends between members, as it should
      break;
    }
    in_member_ = true;
    Step s = step(in_.data() + in_pos_, in_n, buf + out, n - out, finish);
    in_pos_ += s.used;
    out += s.made;
    total_ += s.made;
    if (s.state == State::error) {
      fail(s.why, s.over_limit ? Errc::io : Errc::compressed_damaged);
    } else if (s.state == State::end) {
      in_member_ = false;
      std::string why;
      if (!restart(why)) fail(why, Errc::io);  // the codec, not the data
    } else if (s.used == 0 && s.made == 0) {
      if (finish) fail("the compressed data ends early");
      else if (in_n > 0) fail("the decoder makes no progress");  // never loop for ever
    }
  }
  if (out > 0) return out;  // an error waits for the next call: deliver what came before it
  if (error_) return *error_;
  return size_t{0};
}

}  // namespace detail

std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> src,
                                                 Compression c) {
  switch (c) {
    case Compression::gzip: return detail::gzip_source(std::move(src));
    case Compression::zstd: return detail::zstd_source(std::move(src));
    case Compression::xz: return detail::xz_source(std::move(src));
    case Compression::bzip2: return detail::bzip2_source(std::move(src));
    case Compression::none: break;
  }
  return nullptr;
}

}  // namespace pmclog
