// Fuzz target: the streaming reader fed in chunk sizes drawn from the input (1 byte to
// 64 KiB, a source that may also return short reads of 0..n), with a buffer as small as the
// reader allows. Property: it returns the same records (offsets, kinds, bytes) and the same
// errors (offsets, codes, messages) as the reader over the whole input in memory, going past
// damage by skip()/resync() alike, whatever the chunk sizes.
#include <cstring>

#include "fuzz_support.h"

using namespace pmclog;
using fuzz::check;

namespace {

// Reads the payload in chunk sizes taken from a list of choices (cycled).
class ChunkedSource : public ByteSource {
 public:
  ChunkedSource(std::span<const uint8_t> data, std::vector<size_t> sizes)
      : data_(data), sizes_(std::move(sizes)) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    size_t want = sizes_[next_++ % sizes_.size()];
    want = std::min({want, n, data_.size() - at_});
    std::memcpy(buf, data_.data() + at_, want);
    at_ += want;
    if (want == 0 && at_ < data_.size()) {  // 0 means the end: never for a short read
      buf[0] = data_[at_++];
      return size_t{1};
    }
    return want;
  }

 private:
  std::span<const uint8_t> data_;
  std::vector<size_t> sizes_;
  size_t next_ = 0, at_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Choices ch({data, size});
  std::vector<size_t> sizes(1 + ch.byte() % 8);
  for (size_t& s : sizes) {
    const uint8_t k = ch.byte();
    s = (k & 0x80) ? size_t{1} << (k % 17) : size_t{1} + k % 64;  // small, or a power of two
  }
  const std::span<const uint8_t> payload = ch.rest();
  for (const fuzz::Chosen& c : fuzz::abis_for(payload)) {
    LogReader mem = LogReader::over(payload, c.abi);
    mem.discard(c.start);
    const auto want = fuzz::walk(mem, payload.size());
    LogReader st = LogReader::stream(std::make_unique<ChunkedSource>(payload, sizes), c.abi,
                                     128u << 10);
    st.discard(c.start);
    check(fuzz::walk(st, payload.size()) == want,
          "the streaming reader and the memory reader disagree");
  }
  return 0;
}
