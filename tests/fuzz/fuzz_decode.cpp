// Fuzz target for the decoder, the readers and the encoder. Oracles, checked on every input:
// - no crash, no out-of-bounds read (run under ASan);
// - every record the decoder accepts re-encodes, with its unwritten bytes, to its raw bytes;
// - the streaming reader, fed in odd-sized chunks, sees the same records and errors at the
//   same offsets as the span reader;
// - LogReader::for_each (whose fast path is a separate inline decoder) sees the same records,
//   with the same fields, as next();
// - a multipart callchain's parts (parts.h) lie inside its slots, in order, whatever the header.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "pmclog/pmclog.h"

using namespace pmclog;

namespace {

struct Event {
  uint64_t offset;
  int step;  // 0 record, 1 error
  uint8_t kind;
  bool operator==(const Event&) const = default;
};

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz oracle failed: %s\n", what);
    std::abort();
  }
}

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

std::vector<Event> walk(LogReader& rd, const Abi& abi, bool check_roundtrip) {
  std::vector<Event> events;
  Record r;
  Error e;
  for (int guard = 0; guard < 100000; ++guard) {
    const Step st = rd.next(r, e);
    if (st == Step::end) break;
    if (st == Step::record) {
      events.push_back({r.offset, 0, static_cast<uint8_t>(r.kind)});
      check_parts(r, abi);
      if (check_roundtrip) {
        std::vector<uint8_t> bytes;
        const auto len = encode(to_value(r, abi), abi, bytes, EncodeOptions{false});
        check(len.ok(), "a decoded record does not encode");
        check(apply_patches(bytes, unwritten_bytes(r, abi)), "patch outside the record");
        check(bytes.size() == r.raw.size() &&
                  std::memcmp(bytes.data(), r.raw.data(), bytes.size()) == 0,
              "re-encoding differs from the decoded bytes");
      }
      continue;
    }
    events.push_back({e.offset, 1, static_cast<uint8_t>(e.code)});
    check(e.offset == rd.offset(), "error offset is not the reader's position");
    check(!e.message.empty(), "error without a message");
    if (!rd.skip()) {
      const SkippedRange sk = rd.resync();
      check(sk.to > sk.from, "resync made no progress");
    }
  }
  return events;
}

// The same walk through for_each, recording what next() would have: offsets, kinds and a
// digest of every field, so a fast-path decoding difference shows.
std::vector<Event> walk_for_each(LogReader& rd) {
  std::vector<Event> events;
  Error e;
  for (int guard = 0; guard < 100000; ++guard) {
    const Step st = rd.for_each([&](const Record& r) {
      events.push_back({r.offset, 0, static_cast<uint8_t>(r.kind)});
    }, e);
    if (st == Step::end) break;
    check(st == Step::error, "for_each stopped without a reason");
    events.push_back({e.offset, 1, static_cast<uint8_t>(e.code)});
    if (!rd.skip()) rd.resync();
  }
  return events;
}

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  std::vector<Abi> abis;
  if (auto det = detect_abi(bytes); det.ok()) abis.push_back(det->abi);
  if (size > 0) {  // one more ABI chosen by the input, so every ABI gets exercised
    const uint8_t k = data[0];
    const auto g = static_cast<Generation>(k % kGenerationCount);
    const ByteOrder o = (k & 16) ? ByteOrder::big : ByteOrder::little;
    // 4-byte addresses in 8-byte slots too (powerpc64, format.md §19)
    abis.push_back((k & 40) == 32 ? Abi::make_narrow(g, o) : Abi::make(g, (k & 8) ? 8 : 4, o));
  }
  for (const Abi& abi : abis) {
    LogReader span = LogReader::over(bytes, abi);
    const auto a = walk(span, abi, true);
    LogReader stream = LogReader::stream(span_source(bytes, 1 + size % 977), abi);
    const auto b = walk(stream, abi, false);
    check(a == b, "stream and span readers disagree");
    LogReader each = LogReader::over(bytes, abi);
    check(walk_for_each(each) == a, "for_each and next() disagree");
    // Field by field, over the records both readers accept before the first error.
    LogReader x = LogReader::over(bytes, abi), y = LogReader::over(bytes, abi);
    std::vector<uint64_t> dx, dy;
    Record r;
    Error e;
    while (x.next(r, e) == Step::record) dx.push_back(digest(r));
    y.for_each([&](const Record& rec) { dy.push_back(digest(rec)); }, e);
    check(dx == dy, "for_each decodes a field differently from next()");
  }
  return 0;
}
