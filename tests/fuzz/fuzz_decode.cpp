// Fuzz target: the decoder over every ABI, with auto-detection (a PMCL container in front
// included) and multipart callchains. Properties, checked on every input:
// - no crash, no out-of-bounds read (run under ASan), no record reaching past the input;
// - decode -> encode -> decode is stable: a decoded record re-encodes, with its unwritten
//   bytes patched back, to exactly its raw bytes; without the patches it encodes to bytes
//   that decode again and re-encode to themselves;
// - the streaming reader (fixed odd-sized chunks here; fuzz_stream.cpp draws them) sees the
//   same records and errors at the same offsets as the span reader;
// - LogReader::for_each (whose fast path is a separate inline decoder) sees the same records,
//   with the same fields, as next();
// - a multipart callchain's parts (parts.h) lie inside its slots, in order, whatever the header.
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

void check_roundtrip(const Record& r, const Abi& abi) {
  std::vector<uint8_t> bytes = encoded(r, abi);
  // Encoded without its stale bytes: decodes again, to a record that encodes the same.
  Record r2;
  Error e;
  check(decode_record(abi, bytes.data(), bytes.size(), 0, r2, e) == Step::record,
        "an encoded record does not decode");
  check(r2.kind == r.kind && r2.raw.size() == bytes.size(), "an encoded record decodes as another");
  check(encoded(r2, abi) == bytes, "decode -> encode -> decode -> encode is not stable");
  // With the unwritten bytes put back: the exact input bytes.
  check(apply_patches(bytes, unwritten_bytes(r, abi)), "a patch outside the record");
  check(bytes.size() == r.raw.size() && std::memcmp(bytes.data(), r.raw.data(), bytes.size()) == 0,
        "re-encoding differs from the decoded bytes");
}

// The same walk through for_each, with a digest of every field, so that a fast-path
// decoding difference shows.
uint64_t digest(const Record& r) {
  uint64_t h = r.offset * 31 + r.header.length + r.header.ts_sec + r.header.ts_nsec + r.header.tsc;
  if (r.layout)
    for (const FieldSpec& f : *r.layout)
      if (is_scalar(f.id) && f.type != FieldType::pad && f.type != FieldType::unwritten)
        h = h * 1000003 + r[f.id];
  for (char c : r.text) h = h * 131 + static_cast<uint8_t>(c);
  r.pcs.for_each([&](uint64_t pc) { h = h * 1000003 + pc; });
  return h;
}

// An error as a digest entry.
uint64_t digest(const Error& e) { return ~e.offset ^ static_cast<uint8_t>(e.code); }

std::vector<uint64_t> walk_for_each(LogReader& rd) {
  std::vector<uint64_t> out;
  fuzz::past_damage(
      rd,
      [&](Error& e) {
        const Step st = rd.for_each([&](const Record& r) { out.push_back(digest(r)); }, e);
        check(st != Step::record, "for_each stopped without a reason");
        return st;
      },
      [&](const Error& e) {
        out.push_back(digest(e));
        return true;
      });
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  for (const fuzz::Chosen& c : fuzz::abis_for(bytes)) {
    const Abi& abi = c.abi;
    LogReader span = LogReader::over(bytes, abi);
    span.discard(c.start);
    const auto a = fuzz::walk(span, size, [&](const Record& r) {
      check(r.raw.data() >= data && r.raw.data() + r.raw.size() <= data + size,
            "a record's bytes are not the input's");
      check_parts(r, abi);
      check_roundtrip(r, abi);
    });
    LogReader stream = LogReader::stream(span_source(bytes, 1 + size % 977), abi, 128u << 10);
    stream.discard(c.start);
    check(fuzz::walk(stream, size) == a, "stream and span readers disagree");
    LogReader each = LogReader::over(bytes, abi);
    each.discard(c.start);
    const auto b = walk_for_each(each);
    // Field by field, records and errors alike.
    LogReader x = LogReader::over(bytes, abi);
    x.discard(c.start);
    std::vector<uint64_t> dx;
    fuzz::each_record(
        x, [&](const Record& r) { dx.push_back(digest(r)); },
        [&](const Error& e) {
          dx.push_back(digest(e));
          return true;
        });
    check(dx == b, "for_each decodes differently from next()");
  }
  return 0;
}
