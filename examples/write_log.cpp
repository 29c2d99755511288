// Writes a small modern (M10, 64-bit, little-endian) log: INITIALIZE, one sampling PMC, a
// process with its executable mapped, five callchain samples in two threads, CLOSELOG.
//   write_log OUT
#include <pmclog/pmclog.h>

#include <cstdio>
#include <vector>

namespace {

// Appends one record; the encoder computes the length and zeroes what the kernel would not
// write. A value that does not fit its field is an error, not a truncation.
bool put(std::vector<uint8_t>& out, const pmclog::Abi& abi, const pmclog::RecordValue& r) {
  auto n = pmclog::encode(r, abi, out);
  if (!n) std::fprintf(stderr, "encode: %s\n", n.error().message.c_str());
  return n.ok();
}

pmclog::RecordValue make(pmclog::Kind k, uint64_t tsc) {
  pmclog::RecordValue r;
  r.kind = k;
  r.tsc = tsc;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_log OUT\n");
    return 2;
  }
  using pmclog::Field;
  using pmclog::Kind;
  const pmclog::Abi abi = pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little);
  // A process-mode sampling PMC (TS) of class 1, row 0.
  const uint32_t pmcid = pmclog::make_pmcid(
      {.cpu = 0, .mode = 2, .klass = 1, .row = 0, .any_cpu = true}, abi.generation);
  std::vector<uint8_t> out;
  bool ok = true;

  auto init = make(Kind::initialize, 1000);
  init[Field::version] = pmclog::typical_pmc_version(abi.generation);
  init[Field::arch] = 0x91;  // the cputype
  init.text = "GenuineIntel-6-55-4";
  ok &= put(out, abi, init);

  auto alloc = make(Kind::pmcallocate, 1010);
  alloc[Field::pmcid] = pmcid;
  // An event code libpmc can name (event_names.h): pmcstat stops at one it cannot.
  alloc[Field::event] = 0x2098;  // BU_CPU_CLK_UNHALTED in the modern table
  alloc[Field::rate] = 65536;
  ok &= put(out, abi, alloc);
  if (pmclog::event_name(0x2098, 0x91, abi.generation) != "BU_CPU_CLK_UNHALTED") return 1;

  auto exec = make(Kind::procexec, 1020);
  exec[Field::pid] = 100;
  exec[Field::pmcid] = pmcid;
  exec.text = "/usr/bin/example";
  ok &= put(out, abi, exec);

  auto map = make(Kind::map_in, 1030);
  map[Field::pid] = 100;
  map[Field::start] = 0x400000;
  map.text = "/usr/bin/example";
  ok &= put(out, abi, map);

  // Five samples: three in thread 101, two in thread 102, leaf first.
  for (uint64_t i = 0; i < 5; ++i) {
    auto s = make(Kind::callchain, 2000 + i);
    s[Field::pid] = 100;
    s[Field::tid] = i < 3 ? 101 : 102;
    s[Field::pmcid] = pmcid;
    s[Field::cpuflags] = (i % 2) << 16 | 1;  // cpu i%2, user mode
    s.pcs = {0x401000 + 0x10 * i, 0x402000, 0x403000};
    ok &= put(out, abi, s);
  }
  ok &= put(out, abi, make(Kind::closelog, 3000));
  if (!ok) return 1;

  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr || std::fwrite(out.data(), 1, out.size(), f) != out.size() ||
      std::fclose(f) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
