// Fuzz target: the decoder over every ABI, with auto-detection (a PMCL container in front
// included) and multipart callchains. Properties, checked on every input:
// - no crash, no out-of-bounds read (run under ASan), no record reaching past the input;
// - decode -> encode -> decode is stable: a decoded record re-encodes, with its unwritten
//   bytes patched back, to exactly its raw bytes; without the patches it encodes to bytes
//   that decode again and re-encode to themselves;
// - a multipart callchain's parts (parts.h) lie inside its slots, in order, whatever the header.
// The readers' agreement (stream, for_each and next()) is checked by fuzz_readers.cpp, split
// off because walking each input four ways here, with the roundtrip, ran at 188 exec/s.
#include <cstring>

#include "fuzz_support.h"

using namespace pmclog;
using fuzz::check;

namespace {

// The parts of a multipart callchain never reach past the record, nor overlap.
void check_parts(const Record& r, const Abi& abi) {
  if (r.kind != Kind::callchain || !is_multipart(r)) return;
  const Parts ps = parts(r, abi);
  uint32_t at = ps.header_slots();
  for (const Part& p : ps.parts()) {
    check(p.first >= at && p.first + p.len <= r.pcs.size(), "a part outside its record");
    at = p.first + p.len;
    for (uint32_t i = 0; i < p.len; ++i) (void)ps.slot(p.first + i);
  }
  check(ps.end() <= r.pcs.size(), "the parts end past the record");
  for (uint32_t i = 0; i < r.pcs.size(); ++i) check(!ps.slot_label(i).empty(), "a slot without a label");
}

std::vector<uint8_t> encoded(const Record& r, const Abi& abi) {
  std::vector<uint8_t> bytes;
  check(encode(to_value(r, abi), abi, bytes, EncodeOptions{false}).ok(),
        "a decoded record does not encode");
  return bytes;
}

// Re-encodes every record of a walk; the encodings, back to back, are decoded again by one
// reader at the end (decode_record() builds the ABI's tables on every call, most of this
// target's time when it ran once per record).
class Roundtrip {
 public:
  explicit Roundtrip(const Abi& abi) : abi_(abi) {}

  void add(const Record& r) {
    std::vector<uint8_t> bytes = encoded(r, abi_);
    kinds_.push_back({r.kind, bytes.size()});
    all_.insert(all_.end(), bytes.begin(), bytes.end());
    // With the unwritten bytes put back: the exact input bytes.
    check(apply_patches(bytes, unwritten_bytes(r, abi_)), "a patch outside the record");
    check(bytes.size() == r.raw.size() && std::memcmp(bytes.data(), r.raw.data(), bytes.size()) == 0,
          "re-encoding differs from the decoded bytes");
  }

  // Encoded without their stale bytes: each decodes again, to a record that encodes the same.
  void check_decodes_again() const {
    LogReader rd = LogReader::over(all_, abi_);
    Record r2;
    Error e;
    uint64_t at = 0;
    for (const auto& [kind, len] : kinds_) {
      check(rd.next(r2, e) == Step::record, "an encoded record does not decode");
      check(r2.offset == at && r2.kind == kind && r2.raw.size() == len,
            "an encoded record decodes as another");
      check(encoded(r2, abi_) == std::vector<uint8_t>(all_.begin() + at, all_.begin() + at + len),
            "decode -> encode -> decode -> encode is not stable");
      at += len;
    }
    check(rd.next(r2, e) == Step::end, "the encoded records decode as more");
  }

 private:
  Abi abi_;
  std::vector<uint8_t> all_;
  std::vector<std::pair<Kind, size_t>> kinds_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  for (const fuzz::Chosen& c : fuzz::abis_for(bytes)) {
    const Abi& abi = c.abi;
    LogReader span = LogReader::over(bytes, abi);
    span.discard(c.start);
    Roundtrip rt(abi);
    fuzz::walk(span, size, [&](const Record& r) {
      check(r.raw.data() >= data && r.raw.data() + r.raw.size() <= data + size,
            "a record's bytes are not the input's");
      check_parts(r, abi);
      rt.add(r);
    });
    rt.check_decodes_again();
  }
  return 0;
}
