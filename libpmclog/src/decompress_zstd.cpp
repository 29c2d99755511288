// zstd input through libzstd, with the window capped (open.h: kZstdWindowLogMax).
#include <zstd.h>
#include <zstd_errors.h>

#include "decompress_stream.h"

namespace pmclog::detail {

namespace {

std::string mib(unsigned long long bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The frame header is at the start of the input of the call that failed on it. Its window
// descriptor (RFC 8878 §3.1.1.1.2) is read here: ZSTD_getFrameHeader is not stable API.
std::string window_too_large(const uint8_t* in, size_t in_n) {
  std::string need = "a window";
  std::string log = "31";
  const bool single_segment = in_n >= 5 && (in[4] & 0x20) != 0;
  if (in_n >= 6 && in[0] == 0x28 && in[1] == 0xB5 && in[2] == 0x2F && in[3] == 0xFD &&
      !single_segment) {
    const int l = 10 + (in[5] >> 3);
    const unsigned long long size = (1ull << l) + ((1ull << l) / 8) * (in[5] & 7);
    need = "a " + mib(size) + " window (windowLog " + std::to_string(l) + ")";
    log = std::to_string((in[5] & 7) ? l + 1 : l);
  }
  return "the frame needs " + need + ", above this reader's cap of " +
         mib(1ull << kZstdWindowLogMax) + " (windowLog " + std::to_string(kZstdWindowLogMax) +
         ") that keeps memory bounded; decompress it first with zstd -d --long=" + log;
}

class ZstdSource final : public DecompressStream {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> src)
      : DecompressStream(std::move(src), "zstd", ZSTD_DStreamInSize()), ds_(ZSTD_createDStream()) {
    if (ds_ == nullptr ||
        ZSTD_isError(ZSTD_DCtx_setParameter(ds_, ZSTD_d_windowLogMax, kZstdWindowLogMax)))
      init_failed("cannot initialise libzstd");
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }

 private:
  Step step(const uint8_t* in, size_t in_n, uint8_t* out, size_t out_n, bool) override {
    ZSTD_inBuffer ib{in, in_n, 0};
    ZSTD_outBuffer ob{out, out_n, 0};
    const size_t rc = ZSTD_decompressStream(ds_, &ob, &ib);
    Step s;
    s.used = ib.pos;
    s.made = ob.pos;
    if (ZSTD_isError(rc)) {
      s.state = State::error;
      s.over_limit = ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge;
      s.why = s.over_limit
                  ? window_too_large(in, in_n)
                  : std::string("corrupt compressed data: ") + ZSTD_getErrorName(rc);
    } else if (rc == 0) {
      s.state = State::end;  // a frame is complete and flushed; another may follow
    }
    return s;
  }
  bool restart(std::string&) override { return true; }  // the stream goes on to the next frame

  ZSTD_DStream* ds_;
};

}  // namespace

std::unique_ptr<ByteSource> zstd_source(std::unique_ptr<ByteSource> src) {
  return std::make_unique<ZstdSource>(std::move(src));
}

}  // namespace pmclog::detail
