// LogReader: one framing loop over a window of bytes. A span reader's window is the whole
// span; a stream reader's window is a bounded buffer refilled from a ByteSource, so memory
// stays within the buffer size whatever the log's size (a record is at most 65535 bytes).
#include "pmclog/reader.h"

#include <algorithm>
#include <cstring>

#include "decode_impl.h"
#include "pmclog/endian_io.h"

namespace pmclog {

void release_mapped_pages(const uint8_t* from, const uint8_t* to);  // posix_io.cpp

// The window (the bytes not yet read, the file offset, the page release) is the Window that
// LogReader::for_each's inline loop works on.
struct LogReader::Impl : detail::Window {
  using NextFn = Step (*)(Impl&, Record&, Error&);
  Abi abi;
  std::unique_ptr<detail::DecodeCtx> ctx;
  detail::DecodeFn decode = nullptr;
  NextFn next = nullptr;  // next_as<> for the ABI and the reader's mode, chosen in set_abi()
  // Streaming only.
  std::unique_ptr<ByteSource> src;
  std::vector<uint8_t> buf;
  bool eof = true;
  Error io_error;
  // Page release (span readers over a mapping). Outside the Window, which for_each copies
  // and writes back: keep_from() called from its callback must not be lost.
  bool release = false;
  size_t released = 0;  // pages before data + released have been given back
  uint64_t keep = UINT64_MAX;  // keep_from(): pages from this file offset on stay

  void set_abi(const Abi& a) {
    abi = a;
    ctx = std::make_unique<detail::DecodeCtx>(a);
    plans = ctx->plans.data();
    decode = detail::decoder_for(a);
    next = next_for(a, src != nullptr);
  }
  static NextFn next_for(const Abi& a, bool streaming);
  size_t avail() const { return end - beg; }

  // Makes at least n bytes available unless the source ends first (or n exceeds the buffer).
  void ensure(size_t n) {
    if (!src) return;
    n = std::min(n, buf.size());
    while (avail() < n && !eof) {
      if (buf.size() - beg < n) {  // slide the window to the buffer's start
        std::memmove(buf.data(), buf.data() + beg, avail());
        end -= beg;
        beg = 0;
      }
      auto got = src->read(buf.data() + end, buf.size() - end);
      if (!got.ok()) {
        io_error = got.error();
        io_error.offset = off + avail();
        eof = true;
      } else if (got.value() == 0) {
        eof = true;
      } else {
        end += got.value();
      }
    }
  }

  void consume(size_t n) {
    beg += n;
    off += n;
    if (beg >= release_at) release_behind();
  }
  static constexpr size_t kReleaseStep = detail::kReleaseStep;
  void release_behind() {
    // Keep the last MiB: the caller may still look at the record just returned.
    size_t upto = beg > (1u << 20) ? beg - (1u << 20) : 0;
    const uint64_t base = off - beg;  // the file offset of data[0]
    if (keep < base + upto) upto = keep > base ? static_cast<size_t>(keep - base) : 0;
    if (upto > released) {
      release_mapped_pages(data + released, data + upto);
      released = upto;
    }
    release_at = beg + kReleaseStep;
  }

  // A header word that could start a record: magic, a known type, a sane length. Only the
  // word is looked at, so it works whether or not the whole record is buffered.
  bool header_ok(const uint8_t* p, size_t av) const {
    if (av < 4) return false;
    const uint32_t w = detail::load32(abi.byte_order, p);
    const uint16_t len = w & 0xFFFF;
    return (w >> 24) == kHeaderMagic && len >= abi.header_size() && (len & 3u) == 0 &&
           ctx->plans[(w >> 16) & 0xFF].layout != nullptr;
  }

  // Sound framing: the length can be trusted to find the next record.
  bool framing_ok(const uint8_t* p, size_t av) const {
    if (av < 4) return false;
    const uint32_t w = detail::load32(abi.byte_order, p);
    const uint16_t len = w & 0xFFFF;
    return (w >> 24) == kHeaderMagic && len >= abi.header_size() && (len & 3u) == 0 && len <= av;
  }
};

LogReader::LogReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) { next_ = impl_->next; }
LogReader::LogReader(LogReader&&) noexcept = default;
LogReader& LogReader::operator=(LogReader&&) noexcept = default;
LogReader::~LogReader() = default;

LogReader LogReader::over(std::span<const uint8_t> data, const Abi& abi) {
  auto impl = std::make_unique<Impl>();
  impl->set_abi(abi);
  impl->data = data.data();
  impl->end = data.size();
  if (data.size() >= detail::kPrefetchSpan) {
    impl->pf_base = data.data();
    impl->pf_limit = data.size() - detail::kPrefetchSpan;
  }
  return LogReader(std::move(impl));
}

LogReader LogReader::stream(std::unique_ptr<ByteSource> src, const Abi& abi, size_t buffer) {
  auto impl = std::make_unique<Impl>();
  impl->src = std::move(src);
  impl->set_abi(abi);
  impl->buf.resize(std::max<size_t>(buffer, 128u << 10));
  impl->data = impl->buf.data();
  impl->eof = false;
  return LogReader(std::move(impl));
}

const Abi& LogReader::abi() const { return impl_->abi; }
void LogReader::set_abi(const Abi& abi) {
  impl_->set_abi(abi);
  next_ = impl_->next;
}
uint64_t LogReader::offset() const { return impl_->off; }
size_t LogReader::buffer_capacity() const { return impl_->src ? impl_->buf.size() : 0; }
void LogReader::release_pages_behind(bool on) {
  Impl& s = *impl_;
  s.release = on && !s.src;
  s.release_at = s.release ? s.released + Impl::kReleaseStep : SIZE_MAX;
}
void LogReader::keep_from(uint64_t offset) { impl_->keep = offset; }

uint64_t LogReader::discard(uint64_t n) {
  Impl& s = *impl_;
  uint64_t done = 0;
  while (done < n) {
    s.ensure(static_cast<size_t>(std::min<uint64_t>(n - done, 1u << 16)));
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n - done, s.avail()));
    if (k == 0) break;
    s.consume(k);
    done += k;
  }
  return done;
}

std::span<const uint8_t> LogReader::peek(size_t n) {
  Impl& s = *impl_;
  s.ensure(n);
  return {s.data + s.beg, std::min(n, s.avail())};
}

namespace {

// One instantiation per (byte order, width, generation, mode), with the decoder inlined. The
// general step: any record, span or stream.
template <ByteOrder O, int W, bool Legacy, bool Streaming>
Step next_as(LogReader::Impl& s, Record& r, Error& err) {
  if constexpr (Streaming) {
    s.ensure(4);
    s.ensure(std::max<size_t>(peek_length(s.abi, s.data + s.beg, s.avail()), 4));
  }
  const Step st = detail::decode_as<O, W, Legacy>(*s.ctx, s.data + s.beg, s.avail(), s.off, r, err);
  if (st == Step::record) [[likely]] {
    s.consume(r.header.length);
  } else if (Streaming && s.io_error && (st == Step::end || err.code == Errc::truncated)) {
    err = s.io_error;  // the data ended because reading failed, not because the log did
    return Step::error;
  }
  return st;
}

// The span reader's step: the fast path for the records most logs are made of (Plan::simple:
// 32-bit words and perhaps frames); the general step for the rest, the end and errors.
template <ByteOrder O, int W, bool Legacy>
Step next_span(LogReader::Impl& s, Record& r, Error& err) {
  if (detail::fast_step<O, W, Legacy>(s, r)) [[likely]] {
    if (detail::release_due(s)) [[unlikely]]
      detail::release_step(s);
    return Step::record;
  }
  return next_as<O, W, Legacy, false>(s, r, err);
}

}  // namespace

LogReader::Impl::NextFn LogReader::Impl::next_for(const Abi& a, bool streaming) {
  return detail::dispatch_abi(a, [streaming]<ByteOrder O, int W, bool Legacy>() -> NextFn {
    return streaming ? &next_as<O, W, Legacy, true> : &next_span<O, W, Legacy>;
  });
}

detail::Window* LogReader::span_window() { return impl_->src ? nullptr : impl_.get(); }

void detail::release_step(Window& w) {
  auto& s = static_cast<LogReader::Impl&>(w);
  if (s.beg >= s.release_at) s.release_behind();
}

bool LogReader::skip() {
  Impl& s = *impl_;
  if (!s.framing_ok(s.data + s.beg, s.avail())) return false;
  s.consume(peek_length(s.abi, s.data + s.beg, s.avail()));
  return true;
}

SkippedRange LogReader::skip_or_resync() {
  const uint64_t from = offset();
  if (skip()) return {from, offset()};
  return resync();
}

SkippedRange LogReader::resync() {
  Impl& s = *impl_;
  SkippedRange range{s.off, s.off};
  Record r;
  Error e;
  if (s.avail() > 0) s.consume(1);
  for (;;) {
    s.ensure(4);
    if (s.avail() < 4) {
      s.consume(s.avail());
      break;
    }
    const uint8_t* p = s.data + s.beg;
    if (s.header_ok(p, s.avail())) {
      const uint16_t len = peek_length(s.abi, p, s.avail());
      // A candidate: it must decode, and be followed by the end or by another plausible
      // header, so that a stray 0xEE inside an address does not end the resync early.
      s.ensure(size_t{len} + 4);
      p = s.data + s.beg;
      if (s.decode(*s.ctx, p, s.avail(), s.off, r, e) == Step::record) {
        const size_t rest = s.avail() - len;
        if ((rest == 0 && s.eof) || s.header_ok(p + len, rest)) break;
      }
    }
    s.consume(1);
  }
  range.to = s.off;
  return range;
}

// --- sources ---------------------------------------------------------------------------

namespace {

class SpanSource final : public ByteSource {
 public:
  SpanSource(std::span<const uint8_t> d, size_t chunk) : d_(d), chunk_(std::max<size_t>(chunk, 1)) {}
  Result<size_t> read(uint8_t* buf, size_t n) override {
    const size_t k = std::min({n, chunk_, d_.size() - pos_});
    std::memcpy(buf, d_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::span<const uint8_t> d_;
  size_t chunk_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> span_source(std::span<const uint8_t> data, size_t chunk) {
  return std::make_unique<SpanSource>(data, chunk);
}

}  // namespace pmclog
