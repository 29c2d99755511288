// xz input through liblzma, within a memory limit (open.h: kXzMemoryLimit).
#include <lzma.h>

#include "decompress_stream.h"

namespace pmclog::detail {

namespace {

std::string why_of(lzma_ret rc, const lzma_stream& s) {
  switch (rc) {
    case LZMA_MEMLIMIT_ERROR:
      return "the stream needs " + std::to_string(lzma_memusage(&s) >> 20) +
             " MiB to decode, above this reader's limit of " +
             std::to_string(kXzMemoryLimit >> 20) + " MiB; decompress it first with xz -d";
    case LZMA_FORMAT_ERROR: return "corrupt compressed data: not in the xz format";
    case LZMA_OPTIONS_ERROR: return "unsupported compression options";
    case LZMA_DATA_ERROR: return "corrupt compressed data";
    case LZMA_MEM_ERROR: return "out of memory";
    default: return "liblzma error " + std::to_string(static_cast<int>(rc));
  }
}

class XzSource final : public DecompressStream {
 public:
  explicit XzSource(std::unique_ptr<ByteSource> src)
      : DecompressStream(std::move(src), "xz", 1u << 17) {
    // LZMA_CONCATENATED: xz -c a >> b and stream padding, as xz -d reads them.
    if (lzma_stream_decoder(&s_, kXzMemoryLimit, LZMA_CONCATENATED) != LZMA_OK)
      init_failed("cannot initialise liblzma");
  }
  ~XzSource() override { lzma_end(&s_); }

 private:
  Step step(const uint8_t* in, size_t in_n, uint8_t* out, size_t out_n, bool finish) override {
    s_.next_in = in;
    s_.avail_in = in_n;
    s_.next_out = out;
    s_.avail_out = out_n;
    const lzma_ret rc = lzma_code(&s_, finish ? LZMA_FINISH : LZMA_RUN);
    Step s;
    s.used = in_n - s_.avail_in;
    s.made = out_n - s_.avail_out;
    if (rc == LZMA_STREAM_END) {
      s.state = State::end;
    } else if (rc != LZMA_OK && rc != LZMA_BUF_ERROR) {  // BUF_ERROR: no progress possible
      s.state = State::error;
      s.why = why_of(rc, s_);
    }
    return s;
  }
  // With LZMA_CONCATENATED the end comes only after LZMA_FINISH: nothing follows it.
  bool restart(std::string&) override { return true; }

  lzma_stream s_ = LZMA_STREAM_INIT;
};

}  // namespace

std::unique_ptr<ByteSource> xz_source(std::unique_ptr<ByteSource> src) {
  return std::make_unique<XzSource>(std::move(src));
}

}  // namespace pmclog::detail
