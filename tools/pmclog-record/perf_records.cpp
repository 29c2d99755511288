#include "perf_records.h"

#include <linux/perf_event.h>

#include <algorithm>
#include <cstring>

namespace record {

namespace {

// A bounds-checked little cursor over the record body.
struct Cursor {
  const uint8_t* p;
  const uint8_t* end;
  bool ok = true;
  uint64_t u64() {
    uint64_t v = 0;
    if (end - p < 8) { ok = false; return 0; }
    std::memcpy(&v, p, 8);
    p += 8;
    return v;
  }
  uint32_t u32() {
    uint32_t v = 0;
    if (end - p < 4) { ok = false; return 0; }
    std::memcpy(&v, p, 4);
    p += 4;
    return v;
  }
  std::string str() {  // NUL-terminated, padded to 8
    size_t n = strnlen(reinterpret_cast<const char*>(p), static_cast<size_t>(end - p));
    std::string s(reinterpret_cast<const char*>(p), n);
    p = end;
    return s;
  }
};

size_t trailer_size(const PerfFormat& f) {
  if (!f.sample_id_all) return 0;
  size_t n = 0;
  for (uint64_t bit : {PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
                       PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER})
    if (f.sample_type & bit) n += 8;
  return n;
}

void read_trailer(Cursor c, const PerfFormat& f, PerfEvent& e) {
  if (f.sample_type & PERF_SAMPLE_TID) { e.pid = c.u32(); e.tid = c.u32(); }
  if (f.sample_type & PERF_SAMPLE_TIME) e.time = c.u64();
  if (f.sample_type & PERF_SAMPLE_ID) e.id = c.u64();
  if (f.sample_type & PERF_SAMPLE_STREAM_ID) c.u64();
  if (f.sample_type & PERF_SAMPLE_CPU) { e.cpu = c.u32(); c.u32(); }
  if (f.sample_type & PERF_SAMPLE_IDENTIFIER) e.id = c.u64();
}

void read_values(Cursor& c, uint64_t rf, PerfEvent& e) {
  if (rf & PERF_FORMAT_GROUP) {
    uint64_t nr = c.u64();
    if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) e.time_enabled = c.u64();
    if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) e.time_running = c.u64();
    for (uint64_t i = 0; i < nr && c.ok && i < 64; ++i) {
      ReadValue v;
      v.value = c.u64();
      if (rf & PERF_FORMAT_ID) v.id = c.u64();
      if (rf & PERF_FORMAT_LOST) c.u64();
      e.values.push_back(v);
    }
  } else {
    ReadValue v;
    v.value = c.u64();
    if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) e.time_enabled = c.u64();
    if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) e.time_running = c.u64();
    if (rf & PERF_FORMAT_ID) v.id = c.u64();
    if (rf & PERF_FORMAT_LOST) c.u64();
    e.values.push_back(v);
  }
}

}  // namespace

bool parse_perf_record(std::span<const uint8_t> rec, const PerfFormat& f, PerfEvent& e) {
  if (rec.size() < sizeof(perf_event_header)) return false;
  perf_event_header h;
  std::memcpy(&h, rec.data(), sizeof(h));
  e.misc = h.misc;
  const uint8_t* body = rec.data() + sizeof(h);
  const uint8_t* end = rec.data() + rec.size();

  if (h.type == PERF_RECORD_SAMPLE) {
    e.type = PerfEvent::Type::sample;
    Cursor c{body, end};
    const uint64_t st = f.sample_type;
    if (st & PERF_SAMPLE_IDENTIFIER) e.id = c.u64();
    if (st & PERF_SAMPLE_IP) e.ip = c.u64();
    if (st & PERF_SAMPLE_TID) { e.pid = c.u32(); e.tid = c.u32(); }
    if (st & PERF_SAMPLE_TIME) e.time = c.u64();
    if (st & PERF_SAMPLE_ADDR) c.u64();
    if (st & PERF_SAMPLE_ID) e.id = c.u64();
    if (st & PERF_SAMPLE_STREAM_ID) c.u64();
    if (st & PERF_SAMPLE_CPU) { e.cpu = c.u32(); c.u32(); }
    if (st & PERF_SAMPLE_PERIOD) e.period = c.u64();
    if (st & PERF_SAMPLE_READ) read_values(c, f.read_format, e);
    if (st & PERF_SAMPLE_CALLCHAIN) {
      uint64_t nr = c.u64();
      if (nr > static_cast<uint64_t>(end - c.p) / 8) return false;
      e.callchain.resize(nr);
      for (auto& ip : e.callchain) ip = c.u64();
    }
    if (st & PERF_SAMPLE_REGS_USER) {
      e.regs_abi = c.u64();
      if (e.regs_abi != 0) {
        e.user_regs.resize(static_cast<size_t>(__builtin_popcountll(f.regs_user)));
        for (auto& r : e.user_regs) r = c.u64();
      }
    }
    if (st & PERF_SAMPLE_STACK_USER) {
      // size, the bytes, then how many of them the kernel really copied (dyn_size).
      const uint64_t size = c.u64();
      if (size > static_cast<uint64_t>(end - c.p)) return false;
      const uint8_t* bytes = c.p;
      c.p += size;
      if (size != 0) {
        const uint64_t dyn = c.u64();
        e.user_stack.assign(bytes, bytes + std::min(size, dyn));
      }
    }
    return c.ok;
  }

  const size_t tsz = trailer_size(f);
  if (static_cast<size_t>(end - body) < tsz) return false;
  const uint8_t* tr = end - tsz;
  read_trailer(Cursor{tr, end}, f, e);
  Cursor c{body, tr};
  switch (h.type) {
    case PERF_RECORD_MMAP2:
    case PERF_RECORD_MMAP:
      e.type = PerfEvent::Type::mmap;
      e.pid = c.u32();
      e.tid = c.u32();
      e.addr = c.u64();
      e.len = c.u64();
      e.pgoff = c.u64();
      if (h.type == PERF_RECORD_MMAP2) {
        c.u64(); c.u64(); c.u64();  // maj/min, ino, ino_generation (or build id)
        e.prot = c.u32();
        c.u32();  // flags
      } else {
        e.prot = 0x4;  // PROT_EXEC: plain MMAP records are only sent for executable maps
      }
      if (!c.ok) return false;
      e.filename = c.str();
      return true;
    case PERF_RECORD_COMM:
      e.type = PerfEvent::Type::comm;
      e.pid = c.u32();
      e.tid = c.u32();
      if (!c.ok) return false;
      e.comm = c.str();
      return true;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
      e.type = h.type == PERF_RECORD_FORK ? PerfEvent::Type::fork : PerfEvent::Type::exit;
      e.pid = c.u32();
      e.ppid = c.u32();
      e.tid = c.u32();
      e.ptid = c.u32();
      e.time = c.u64();
      return c.ok;
    case PERF_RECORD_LOST:
      e.type = PerfEvent::Type::lost;
      e.id = c.u64();
      e.lost = c.u64();
      return c.ok;
    case PERF_RECORD_LOST_SAMPLES:
      e.type = PerfEvent::Type::lost_samples;
      e.lost = c.u64();
      return c.ok;
    case PERF_RECORD_THROTTLE:
    case PERF_RECORD_UNTHROTTLE:
      e.type = h.type == PERF_RECORD_THROTTLE ? PerfEvent::Type::throttle
                                              : PerfEvent::Type::unthrottle;
      e.time = c.u64();
      e.id = c.u64();
      return c.ok;
    case PERF_RECORD_READ:
      e.type = PerfEvent::Type::read;
      e.pid = c.u32();
      e.tid = c.u32();
      read_values(c, f.read_format, e);
      return c.ok;
    case PERF_RECORD_SWITCH:
      e.type = PerfEvent::Type::switch_cpu;
      return true;
    default:
      e.type = PerfEvent::Type::other;
      return true;
  }
}

}  // namespace record
