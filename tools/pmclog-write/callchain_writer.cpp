#include "callchain_writer.h"

#include <stdexcept>

#include "pmclog/endian_io.h"
#include "pmclog/layout.h"

namespace pmclog::write {

CallchainWriter::CallchainWriter(const Abi& abi) : legacy_(abi.legacy()) {
  const Layout* l = layout_for(abi, Kind::callchain);
  if (!l) throw std::logic_error("generation without CALLCHAIN");
  type_ = l->type;
  fixed_ = l->fixed_size;
  slot_ = l->addr_slot;
  auto off = [&](Field f) { return l->find(f) ? l->find(f)->offset : uint16_t{0}; };
  off_pid_ = off(Field::pid);
  off_tid_ = off(Field::tid);
  off_pmcid_ = off(Field::pmcid);
  off_cpuflags_ = off(Field::cpuflags);
  has_tid_ = l->has(Field::tid);
  const bool big = abi.byte_order == ByteOrder::big;
  if (abi.address_width == 8) {
    fn_ = big ? &append_as<ByteOrder::big, 8> : &append_as<ByteOrder::little, 8>;
  } else {
    fn_ = big ? &append_as<ByteOrder::big, 4> : &append_as<ByteOrder::little, 4>;
  }
}

template <ByteOrder O, int W>
uint32_t CallchainWriter::append_as(const CallchainWriter& w, const RecordValue& r,
                                    std::vector<uint8_t>& out) {
  // Narrow addresses (Abi::narrow()): packed 4-byte values, the rest of the slots left zero.
  const uint32_t len = w.fixed_ + static_cast<uint32_t>(r.pcs.size()) * w.slot_;
  const size_t at = out.size();
  out.resize(at + len);
  uint8_t* p = out.data() + at;
  detail::store32<O>(p, detail::make_header_word(w.type_, static_cast<uint16_t>(len)));
  // Header time as the encoder writes it (format.md §3); the modern spare word stays zero.
  if (w.legacy_) {
    detail::store32<O>(p + 4, r.ts_sec);
    detail::store32<O>(p + 8, r.ts_nsec);
  } else {
    detail::store32<O>(p + 4, 0);
    detail::store64_native<O>(p + 8, r.tsc);
  }
  detail::store32<O>(p + w.off_pid_, static_cast<uint32_t>(r[Field::pid]));
  if (w.has_tid_) detail::store32<O>(p + w.off_tid_, static_cast<uint32_t>(r[Field::tid]));
  detail::store32<O>(p + w.off_pmcid_, static_cast<uint32_t>(r[Field::pmcid]));
  detail::store32<O>(p + w.off_cpuflags_, static_cast<uint32_t>(r[Field::cpuflags]));
  uint8_t* q = p + w.fixed_;
  for (uint64_t pc : r.pcs) {
    if constexpr (W == 8) detail::store64_words<O>(q, pc);
    else detail::store32<O>(q, static_cast<uint32_t>(pc));
    q += W;
  }
  return len;
}

}  // namespace pmclog::write
