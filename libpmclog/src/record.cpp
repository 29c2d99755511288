#include "pmclog/record.h"

#include "pmclog/endian_io.h"
#include "pmclog/encode.h"

namespace pmclog {

RecordValue to_value(const Record& r, const Abi& abi) {
  RecordValue v;
  v.kind = r.kind;
  v.ts_sec = r.header.ts_sec;
  v.ts_nsec = r.header.ts_nsec;
  v.tsc = r.header.tsc;
  if (r.kind == Kind::unknown) {
    v.type = r.header.type;
    const size_t hs = abi.header_size();
    if (r.raw.size() > hs) v.payload.assign(r.raw.begin() + static_cast<long>(hs), r.raw.end());
    return v;
  }
  for (const FieldSpec& f : *r.layout) {
    if (is_scalar(f.id) && f.type != FieldType::pad && f.type != FieldType::unwritten)
      v[f.id] = r[f.id];
  }
  v.text.assign(r.text);
  v.pcs.resize(r.pcs.size());
  r.pcs.copy_to(v.pcs);
  // Keep the length only where it is not the one the kernel would have written.
  const auto natural = encoded_length(v, abi, EncodeOptions{false});
  if (!natural.ok() || natural.value() != r.header.length) v.length = r.header.length;
  return v;
}

}  // namespace pmclog
