#include "pmclog/decode.h"

#include "decode_impl.h"

namespace pmclog {

Step decode_record(const Abi& abi, const uint8_t* p, size_t avail, uint64_t offset,
                   Record& out, Error& err) {
  const detail::DecodeCtx ctx(abi);
  return detail::decoder_for(abi)(ctx, p, avail, offset, out, err);
}

uint16_t peek_length(const Abi& abi, const uint8_t* p, size_t avail) {
  if (avail < 4) return 0;
  return static_cast<uint16_t>(detail::load32(abi.byte_order, p) & 0xFFFF);
}

bool plausible_record(const Abi& abi, const uint8_t* p, size_t avail) {
  Record r;
  Error e;
  return decode_record(abi, p, avail, 0, r, e) == Step::record;
}

}  // namespace pmclog
