// Fuzz target: the readers' agreement over every ABI, on the decode target's inputs (split
// from fuzz_decode.cpp, which checks the decoder and the roundtrip). Properties, checked on
// every input:
// - the streaming reader (fixed odd-sized chunks here; fuzz_stream.cpp draws them) sees the
//   same records and errors at the same offsets as the span reader;
// - LogReader::for_each (whose fast path is a separate inline decoder) sees the same records,
//   with the same fields, as next().
#include "fuzz_support.h"

using namespace pmclog;
using fuzz::check;

namespace {

// A digest of every field, so that a fast-path decoding difference shows.
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
    // next() over the span, as events and as digests.
    LogReader span = LogReader::over(bytes, abi);
    span.discard(c.start);
    std::vector<uint64_t> dx;
    const auto a = fuzz::walk(span, size, [&](const Record& r) { dx.push_back(digest(r)); });
    // walk() records an error as an event; the digests take it at the same place.
    std::vector<uint64_t> want;
    size_t i = 0;
    for (const fuzz::Event& ev : a) {
      if (ev.error) {
        want.push_back(~ev.offset ^ ev.code);
      } else {
        want.push_back(dx[i++]);
      }
    }
    LogReader stream = LogReader::stream(span_source(bytes, 1 + size % 977), abi, 128u << 10);
    stream.discard(c.start);
    check(fuzz::walk(stream, size) == a, "stream and span readers disagree");
    // Field by field, records and errors alike.
    LogReader each = LogReader::over(bytes, abi);
    each.discard(c.start);
    check(walk_for_each(each) == want, "for_each decodes differently from next()");
  }
  return 0;
}
