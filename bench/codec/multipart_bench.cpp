// Multipart callchains (format.md §17) cost per frame against plain ones: two logs of the
// same records and callchains, one plain and one where every record also carries an IBS_OP part in
// front (header slot, 8 value slots, then the frames as the CALLCHAIN part), decoded in the
// same run, interleaved, each repeated; medians of ns per frame. "plain" reads every frame of
// every record through Record::pcs; "multipart" decodes the parts of every record
// (pmclog::parts), reads the IBS RIP and every frame of the CALLCHAIN part; "plain, checked"
// is the plain log read by the multipart-aware loop (is_multipart is false for every record).
//
//   pmclog-bench-multipart [--runs N] [--mib N] [--width 4|8] [--byte-order little|big] [--json]
//
// --json adds the medians as one JSON object on the last line (bench/run reads it).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "pmclog/pmclog.h"

using namespace pmclog;
using Clock = std::chrono::steady_clock;

namespace {

struct Log {
  std::vector<uint8_t> bytes;
  uint64_t frames = 0;
};

// depth 0: 8..32 frames at random; else exactly `depth` frames per record.
Log make_log(const Abi& abi, size_t records, bool multipart, int fixed_depth = 0) {
  Log log;
  std::mt19937_64 rng(42);  // the same chains in both logs
  RecordValue init;
  init.kind = Kind::initialize;
  init[Field::version] = 0x0A000000;
  init[Field::arch] = 0x01;
  if (!encode(init, abi, log.bytes).ok()) std::abort();
  uint64_t tsc = 1000;
  const uint32_t per = slots_per_u64(abi.address_width);
  const uint64_t mask = abi.address_width == 4 ? 0xFFFFFFFFull : ~0ull;
  for (size_t n = 0; n < records; ++n) {
    RecordValue r;
    r.kind = Kind::callchain;
    r.tsc = tsc += 1000;
    r[Field::pid] = 100 + rng() % 50;
    r[Field::tid] = 100000 + rng() % 50;
    r[Field::pmcid] = 0x200;
    r[Field::cpuflags] = ((rng() % 8) << 16) | (rng() & 1) | (multipart ? kCallchainMultipart : 0);
    const int random_depth = 8 + static_cast<int>(rng() % 25);
    const int depth = fixed_depth ? fixed_depth : random_depth;
    std::vector<uint64_t> frames;
    for (int i = 0; i < depth; ++i) frames.push_back((0x400000 + (rng() % 0x100000)) & mask);
    log.frames += frames.size();
    if (multipart) {
      std::vector<PartSpec> spec(2);
      spec[0].type = static_cast<uint8_t>(PartType::ibs_op);
      spec[0].slots.resize(8 * per);
      for (uint32_t k = 0; k < 8; ++k)
        split_u64(abi.byte_order, abi.address_width, k == kIbsOpRip ? frames[0] : rng(),
                  &spec[0].slots[k * per]);
      spec[1].type = static_cast<uint8_t>(PartType::callchain);
      spec[1].slots = frames;
      r.pcs = build_multipart(abi.byte_order, abi.address_width, spec);
    } else {
      r.pcs = frames;
    }
    if (!encode(r, abi, log.bytes).ok()) std::abort();
  }
  return log;
}

__attribute__((noinline)) uint64_t plain(std::span<const uint8_t> d, const Abi& abi) {
  LogReader rd = LogReader::over(d, abi);
  Error e;
  uint64_t s = 0;
  rd.for_each([&](const Record& r) {
    uint64_t t = 0;  // a local sum: kept in a register through the frame loop
    r.pcs.for_each([&](uint64_t pc) { t += pc; });
    s += t;
  }, e);
  return s;
}

// What a multipart-aware consumer does (pmclog-report's sample path): parts on demand.
__attribute__((noinline)) uint64_t aware(std::span<const uint8_t> d, const Abi& abi) {
  LogReader rd = LogReader::over(d, abi);
  Error e;
  uint64_t s = 0;
  rd.for_each([&](const Record& r) {
    uint64_t t = 0;
    if (!is_multipart(r)) {
      r.pcs.for_each([&](uint64_t pc) { t += pc; });
      s += t;
      return;
    }
    const Parts ps = parts(r, abi);
    if (const Part* op = ps.find(PartType::ibs_op)) t += ps.value(*op, kIbsOpRip);
    if (const Part* cc = ps.find(PartType::callchain))
      ps.slots(*cc).for_each([&](uint64_t pc) { t += pc; });
    s += t;
  }, e);
  return s;
}

// The frames of the multipart log without the parts: every slot as if plain (the bytes'
// cost of the longer records alone).
__attribute__((noinline)) uint64_t all_slots(std::span<const uint8_t> d, const Abi& abi) {
  return plain(d, abi);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 15;
  size_t mib = 64;
  Abi abi = Abi::make(Generation::M10, 8, ByteOrder::little);
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--json") {
      json = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "pmclog-bench-multipart: %s needs a value\n", argv[i]);
      return 2;
    }
    const std::string a = argv[i], v = argv[++i];
    if (a == "--runs") runs = std::max(1, std::atoi(v.c_str()));
    else if (a == "--mib") mib = static_cast<size_t>(std::max(1, std::atoi(v.c_str())));
    else if (a == "--width") abi = Abi::make(abi.generation, v == "4" ? 4 : 8, abi.byte_order);
    else if (a == "--byte-order") abi.byte_order = v == "big" ? ByteOrder::big : ByteOrder::little;
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--mib N] [--width 4|8] [--byte-order little|big] [--json]\n", argv[0]);
      return 2;
    }
  }
  // The same records in both logs (the multipart one is longer by its header and IBS slots).
  const size_t records = (mib << 20) / (32 + 20 * abi.address_width);
  const Log pl = make_log(abi, records, false);
  const Log mp = make_log(abi, records, true);
  std::vector<double> t_plain, t_checked, t_mp, t_slots;
  uint64_t sink = 0;
  auto time = [&](auto&& f) {
    const auto t0 = Clock::now();
    sink += f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  for (int r = 0; r < runs; ++r) {  // interleaved: each run times all three in turn
    t_plain.push_back(time([&] { return plain(pl.bytes, abi); }));
    t_checked.push_back(time([&] { return aware(pl.bytes, abi); }));
    t_mp.push_back(time([&] { return aware(mp.bytes, abi); }));
    t_slots.push_back(time([&] { return all_slots(mp.bytes, abi); }));
  }
  std::printf("ABI: %s; %llu frames in each log (plain %.1f MiB, multipart %.1f MiB); %d runs, "
              "medians\n",
              describe(abi).c_str(), static_cast<unsigned long long>(pl.frames),
              pl.bytes.size() / 1048576.0, mp.bytes.size() / 1048576.0, runs);
  auto row = [&](const char* name, const std::vector<double>& t, const Log& l) {
    const double m = median(t);
    std::printf("  %-34s %7.3f ns/frame  %8.1f MB/s\n", name, m * 1e9 / l.frames,
                l.bytes.size() / m / 1e6);
  };
  row("plain (Record::pcs)", t_plain, pl);
  row("plain, multipart-aware loop", t_checked, pl);
  row("multipart (parts: RIP + CALLCHAIN)", t_mp, mp);
  row("multipart log, every slot as plain", t_slots, mp);

  // Per frame and per record apart: logs of 8 and of kDeep frames per record, the same
  // records in each; the difference of the times over the more frames per record is the
  // cost of one more frame, what is left at depth 8 the cost per record. The difference is
  // taken within each run and its median quoted: a difference of two medians, each with
  // the machine's drift in it, moved the ratio from 0.89 to 1.14 between quiet runs.
  constexpr uint32_t kDeep = 64;
  const size_t rec2 = records / 4;
  const Log p8 = make_log(abi, rec2, false, 8), p32 = make_log(abi, rec2, false, kDeep);
  const Log m8 = make_log(abi, rec2, true, 8), m32 = make_log(abi, rec2, true, kDeep);
  std::vector<double> tp8, tp32, tm8, tm32;
  for (int r = 0; r < runs; ++r) {
    tp8.push_back(time([&] { return aware(p8.bytes, abi); }));
    tm8.push_back(time([&] { return aware(m8.bytes, abi); }));
    tp32.push_back(time([&] { return aware(p32.bytes, abi); }));
    tm32.push_back(time([&] { return aware(m32.bytes, abi); }));
  }
  struct Split {
    double per_frame, per_record;  // ns
  };
  auto split = [&](const char* name, const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> d(a.size());
    for (size_t i = 0; i < a.size(); ++i) d[i] = b[i] - a[i];
    const double per_frame = median(d) / (double{kDeep - 8} * rec2);
    const double per_record = median(a) / rec2 - 8 * per_frame;
    std::printf("  %-34s %7.3f ns per extra frame, %7.2f ns per record\n", name, per_frame * 1e9,
                per_record * 1e9);
    return Split{per_frame * 1e9, per_record * 1e9};
  };
  std::printf("depth 8 vs depth %u, %zu records each, %d runs, medians\n", kDeep, rec2, runs);
  const Split sp = split("plain", tp8, tp32);
  const Split sm = split("multipart (RIP + CALLCHAIN part)", tm8, tm32);
  if (json) {  // for bench/run: one object, the last line; medians in ns per frame
    auto ns = [&](const std::vector<double>& t, const Log& l) { return median(t) * 1e9 / l.frames; };
    std::printf("{\"abi\":\"%s\",\"frames\":%llu,\"runs\":%d,\"plain_bytes\":%zu,"
                "\"multipart_bytes\":%zu,\"deep_depth\":%u,\"ns_per_frame\":{\"plain\":%.4f,\"plain_checked\":%.4f,"
                "\"multipart\":%.4f,\"multipart_slots\":%.4f},\"split_records\":%zu,"
                "\"ns_per_extra_frame\":{\"plain\":%.4f,\"multipart\":%.4f},"
                "\"ns_per_record\":{\"plain\":%.4f,\"multipart\":%.4f}}\n",
                describe(abi).c_str(), static_cast<unsigned long long>(pl.frames), runs,
                pl.bytes.size(), mp.bytes.size(), kDeep, ns(t_plain, pl), ns(t_checked, pl), ns(t_mp, mp),
                ns(t_slots, mp), rec2, sp.per_frame, sm.per_frame, sp.per_record, sm.per_record);
  }
  return sink == 42 ? 1 : 0;
}
