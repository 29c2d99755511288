// bzip2 input through libbz2. Its memory is bounded by the format (900 kB blocks: < 4 MB).
#include <bzlib.h>

#include <algorithm>
#include <cstring>

#include "decompress_stream.h"

namespace pmclog::detail {

namespace {

class Bzip2Source final : public DecompressStream {
 public:
  explicit Bzip2Source(std::unique_ptr<ByteSource> src)
      : DecompressStream(std::move(src), "bzip2", 1u << 17) {
    std::string why;
    if (!start(why)) init_failed(why);
  }
  ~Bzip2Source() override {
    if (live_) BZ2_bzDecompressEnd(&b_);
  }

 private:
  bool start(std::string& why) {
    std::memset(&b_, 0, sizeof b_);
    live_ = BZ2_bzDecompressInit(&b_, 0, 0) == BZ_OK;
    if (!live_) why = "cannot initialise libbz2";
    return live_;
  }
  Step step(const uint8_t* in, size_t in_n, uint8_t* out, size_t out_n, bool) override {
    const auto in_c = static_cast<unsigned>(std::min<size_t>(in_n, 1u << 30));
    const auto out_c = static_cast<unsigned>(std::min<size_t>(out_n, 1u << 30));
    // libbz2 takes char* but does not write through next_in.
    b_.next_in = const_cast<char*>(reinterpret_cast<const char*>(in));
    b_.avail_in = in_c;
    b_.next_out = reinterpret_cast<char*>(out);
    b_.avail_out = out_c;
    const int rc = BZ2_bzDecompress(&b_);
    Step s;
    s.used = in_c - b_.avail_in;
    s.made = out_c - b_.avail_out;
    if (rc == BZ_STREAM_END) {
      s.state = State::end;
    } else if (rc != BZ_OK) {
      s.state = State::error;
      s.why = rc == BZ_DATA_ERROR_MAGIC ? "corrupt compressed data: no bzip2 stream header"
              : rc == BZ_DATA_ERROR     ? "corrupt compressed data: a block fails its checks"
              : rc == BZ_MEM_ERROR      ? "out of memory"
                                        : "libbz2 error " + std::to_string(rc);
    }
    return s;
  }
  // pbzip2 and cat a.bz2 b.bz2 give concatenated streams, which bzip2 -d reads.
  bool restart(std::string& why) override {
    BZ2_bzDecompressEnd(&b_);
    return start(why);
  }

  bz_stream b_;
  bool live_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> bzip2_source(std::unique_ptr<ByteSource> src) {
  return std::make_unique<Bzip2Source>(std::move(src));
}

}  // namespace pmclog::detail
