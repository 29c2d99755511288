// Decoded records. Record is a view into the log's bytes (zero-copy); RecordValue owns its
// data and is what the encoder takes.
//
// Memory: Record, its `raw`, `text` and `pcs` point into the bytes of the reader (or the
// buffer) that decoded it and live no longer; copy with to_value() to keep a record.
// RecordValue owns all of its data. Both are plain values: any thread may read a Record
// while nobody advances its reader.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/endian_io.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"

namespace pmclog {

// The address array of a CALLCHAIN, read lazily from the record's bytes.
class AddrView {
 public:
  AddrView() = default;
  AddrView(const uint8_t* p, uint32_t n, uint8_t width, ByteOrder order)
      : p_(p), n_(n), width_(width), order_(order) {}
  uint32_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  // Slots first .. first+n-1 as a view of their own (a multipart callchain's part, parts.h);
  // clamped to this view.
  AddrView sub(uint32_t first, uint32_t n) const {
    if (first > n_) first = n_;
    if (n > n_ - first) n = n_ - first;
    return AddrView(p_ + size_t{first} * width_, n, width_, order_);
  }
  // Inline: this is the innermost loop of every profile (one call per frame).
  uint64_t operator[](uint32_t i) const {
    return detail::load_addr(order_, width_, p_ + size_t{i} * width_);
  }

  // Calls f(address) for every frame, with the byte order and width chosen once outside the
  // loop: the fast way to consume a whole callchain.
  template <class F>
  void for_each(F&& f) const {
    with_format([&]<ByteOrder O, int W>() {
      for (uint32_t i = 0; i < n_; ++i) f(detail::load_addr<O, W>(p_ + size_t{i} * W));
    });
  }

  // Copies the first min(size(), out.size()) frames into out and returns how many, with the
  // byte order and width chosen once: the way to keep a callchain.
  uint32_t copy_to(std::span<uint64_t> out) const {
    const uint32_t n = out.size() < n_ ? static_cast<uint32_t>(out.size()) : n_;
    with_format([&]<ByteOrder O, int W>() { detail::load_addrs<O, W>(p_, n, out.data()); });
    return n;
  }

  class iterator {
   public:
    using value_type = uint64_t;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const AddrView* v, uint32_t i) : v_(v), i_(i) {}
    uint64_t operator*() const { return (*v_)[i_]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { auto t = *this; ++i_; return t; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
   private:
    const AddrView* v_ = nullptr;
    uint32_t i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, n_}; }

 private:
  // Calls g.template operator()<O, W>() for the view's byte order and address width.
  template <class G>
  void with_format(G&& g) const {
    if (order_ == ByteOrder::little) {
      if (width_ == 8) g.template operator()<ByteOrder::little, 8>();
      else g.template operator()<ByteOrder::little, 4>();
    } else {
      if (width_ == 8) g.template operator()<ByteOrder::big, 8>();
      else g.template operator()<ByteOrder::big, 4>();
    }
  }

  const uint8_t* p_ = nullptr;
  uint32_t n_ = 0;
  uint8_t width_ = 8;
  ByteOrder order_ = ByteOrder::little;
};

struct Header {
  uint8_t type = 0;
  uint16_t length = 0;
  uint32_t ts_sec = 0;   // legacy: tv_sec & 0xFFFFFFFF
  uint32_t ts_nsec = 0;  // legacy: tv_nsec & 0xFFFFFFF (28 bits, format.md §3.2)
  uint64_t tsc = 0;      // modern: native 64-bit TSC
};

struct Record {
  uint64_t offset = 0;          // byte offset of the record in the file
  Kind kind = Kind::unknown;
  Header header;
  std::span<const uint8_t> raw;  // the whole record, header included
  const Layout* layout = nullptr;  // nullptr for Kind::unknown
  // Scalar fields, indexed by Field. The fields of the record's layout are set, the others
  // are 0 (cleared when the layout changes from the record before, so runs of one kind cost
  // nothing); the last slot is the decoder's scratch (kDecoderScratch).
  std::array<uint64_t, kScalarSlots> v{};
  std::string_view text;  // the record's text field (path, evname, cpuid, tdname, pcomm)
  AddrView pcs;           // CALLCHAIN frames

  uint64_t operator[](Field f) const { return v[static_cast<size_t>(f)]; }
  bool has(Field f) const { return layout && layout->has(f); }
  // CALLCHAIN cpuflags = cpu << 16 | flags (format.md §9.1).
  static uint32_t cpuflags_cpu(uint64_t cpuflags) { return static_cast<uint32_t>(cpuflags >> 16); }
  static bool cpuflags_user(uint64_t cpuflags) { return (cpuflags & kCallchainUserspace) != 0; }
  static uint64_t make_cpuflags(uint32_t cpu, bool user) {
    return uint64_t{cpu} << 16 | (user ? kCallchainUserspace : 0);
  }
  uint32_t cpu() const { return cpuflags_cpu((*this)[Field::cpuflags]); }
  bool user_callchain() const { return cpuflags_user((*this)[Field::cpuflags]); }
};

// An owned, generation-independent record: what a user builds and the encoder writes.
struct RecordValue {
  Kind kind = Kind::unknown;
  uint8_t type = 0;         // only for Kind::unknown; known kinds take the generation's number
  uint16_t length = 0;      // 0: derive (the kernel's length); else this exact length
  uint32_t ts_sec = 0, ts_nsec = 0;  // legacy header time
  uint64_t tsc = 0;                  // modern header TSC
  std::array<uint64_t, kScalarFieldCount> v{};
  std::string text;
  std::vector<uint64_t> pcs;
  std::vector<uint8_t> payload;  // only for Kind::unknown: the bytes after the header

  uint64_t& operator[](Field f) { return v[static_cast<size_t>(f)]; }
  uint64_t operator[](Field f) const { return v[static_cast<size_t>(f)]; }
  bool operator==(const RecordValue&) const = default;
};

// Copies a decoded record into an owned value (length kept only when it differs from what
// the kernel would have written).
RecordValue to_value(const Record& r, const Abi& abi);

}  // namespace pmclog
