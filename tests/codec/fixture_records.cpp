#include "fixture_records.h"

#include <string>

#include "format_rules.h"
#include "pmclog/layout.h"

namespace codec_test {

using pmclog::ByteOrder;
using pmclog::Field;
using pmclog::RecordValue;

namespace {

// Builds the list while stamping each record with the next timestamp: the legacy header
// keeps seconds and 28-bit nanoseconds (format.md §3.2), the modern one a TSC.
class Builder {
 public:

  RecordValue& add(Kind k) {
    RecordValue r;
    r.kind = k;
    const uint32_t i = static_cast<uint32_t>(out_.size());
    r.ts_sec = 1700000000u + i;
    r.ts_nsec = (123456789u + i * 7919u) & 0xFFFFFFFu;
    r.tsc = 0x0000123456789000ull + i * 0x10203ull;
    out_.push_back(std::move(r));
    return out_.back();
  }
  std::vector<RecordValue> take() { return std::move(out_); }

 private:
  std::vector<RecordValue> out_;
};

}  // namespace

std::vector<RecordValue> fixture_records(const Abi& abi) {
  const Generation g = abi.generation;
  const bool legacy = is_legacy(g);
  const bool wide = abi.address_width == 8;
  const bool be = abi.byte_order == ByteOrder::big;
  // Address-space landmarks: amd64/powerpc64 for 8-byte producers, i386/powerpc for 4.
  const uint64_t kern = wide ? 0xffffffff80200000ull : 0xc0400000ull;
  const uint64_t kpc = wide ? 0xffffffff80b3c9f1ull : 0xc0b3c9f1ull;
  const uint64_t libc = wide ? 0x800a00000ull : 0x28100000ull;
  const uint64_t text = wide ? 0x400b2cull : 0x08048b2cull;
  // pmc ids (format.md §9.3): process-mode TS on IAP row 0, system-mode SC cpu 2 row 1.
  uint32_t proc_id = 0xff020700u, sys_id = 0x02000701u, soft_id = 0xff020f00u;
  if (g == Generation::M9) proc_id = 0xfff02700u, sys_id = 0x00201701u, soft_id = 0xfff00f05u;
  if (g == Generation::M10) proc_id = 0xfff20700u, sys_id = 0x00210701u, soft_id = 0xfff00f05u;

  Builder b;
  {
    RecordValue& r = b.add(Kind::initialize);
    switch (g) {
      case Generation::L1: r[Field::version] = 0x01020003u; break;
      case Generation::L2:
      case Generation::L3: r[Field::version] = 0x03010000u; break;
      case Generation::M9: r[Field::version] = 0x09030000u; break;
      case Generation::M10: r[Field::version] = 0x0A000000u; break;
    }
    // cputype (format.md §9.4): INTEL_PIV in L1's enum, HASWELL / PPC_7450 / SKYLAKE / POWER8 later.
    if (g == Generation::L1) r[Field::arch] = 8;
    else if (abi.narrow()) r[Field::arch] = legacy ? 0x380 : 0x390;  // PPC_970, POWER8: 64-bit CPUs
    else if (legacy) r[Field::arch] = be ? 0x300 : 0x91;
    else r[Field::arch] = be ? 0x390 : 0x98;
    if (!legacy) {
      r[Field::tsc_freq] = be ? 0 : 0x00000000b2d05e00ull;  // 3 GHz; 0 off x86 (format.md §8)
      r[Field::init_ts_sec] = 1700000000u;
      r[Field::init_ts_nsec] = 123456789u;
      r.text = be ? "POWER_004d" : "GenuineIntel-6-55-4";
    }
  }
  if (g == Generation::L1) {
    RecordValue& r = b.add(Kind::mappingchange);
    r[Field::maptype] = 1;  // insert
    r[Field::start] = wide ? 0x400000u : 0x08048000u;
    r[Field::end] = wide ? 0x4a0000u : 0x080a0000u;
    r[Field::pid] = 1234;
    r.text = "/bin/sh";
  }
  if (g == Generation::L1) {  // L2/L3 readers parse it, but no L2/L3 writer emits it (format.md §2.1)
    RecordValue& r = b.add(Kind::pcsample);
    r[Field::pid] = 1234;
    r[Field::pc] = wide ? libc + 0x1234 : text;
    r[Field::pmcid] = proc_id;
    r[Field::usermode] = 1;
  }
  {
    RecordValue& r = b.add(Kind::pmcallocate);
    r[Field::pmcid] = sys_id;
    // Codes libpmc of the era names (format.md §12.1): IAF INSTR_RETIRED_ANY in L2/L3; modern
    // libpmc has no IAF table, so K8 BU_CPU_CLK_UNHALTED, as the golden stable/12 log; L1's
    // table (as far as ours knows it) names only TSC.
    r[Field::event] = g == Generation::L1 ? 0x1000 : legacy ? 0x10000 : 0x2098;
    r[Field::flags] = g == Generation::L1 ? 0x20008u : 0x20080u;  // NEEDS_LOGFILE|CALLCHAIN
    if (!legacy) r[Field::rate] = 0x0000000500000000ull;  // > 2^32, low word 0
  }
  {
    RecordValue& r = b.add(Kind::pmcallocate);
    r[Field::pmcid] = proc_id;
    r[Field::event] = 0x1000;
    r[Field::flags] = 0x4;
    if (!legacy) r[Field::rate] = 65536;
  }
  if (g != Generation::L1 && g != Generation::L2) {
    RecordValue& r = b.add(Kind::pmcallocatedyn);
    r[Field::pmcid] = soft_id;
    r[Field::event] = 0x20005;
    r[Field::flags] = 0x20080;
    if (!legacy) r[Field::rate] = 0x10000;
    r.text = "SOFT-CLOCK.HARD";
  }
  {
    RecordValue& r = b.add(Kind::pmcattach);
    r[Field::pmcid] = proc_id;
    r[Field::pid] = 1234;
    r.text = "/usr/bin/yes";
  }
  {
    RecordValue& r = b.add(Kind::procexec);
    r[Field::pid] = 1234;
    r[Field::pmcid] = proc_id;
    r[Field::entryaddr] = wide ? 0x800600140ull : 0x28061140u;
    if (g == Generation::M10) r[Field::dynaddr] = wide ? 0x1021000u : 0x00401000u;
    r.text = "/usr/bin/yes";
  }
  if (g == Generation::M9 || g == Generation::M10) {
    RecordValue& r = b.add(Kind::proc_create);
    r[Field::pid] = 1240;
    r[Field::flags] = 0x10004000;
    r.text = "yes";
  }
  if (g == Generation::M9 || g == Generation::M10) {
    RecordValue& r = b.add(Kind::thr_create);
    r[Field::tid] = 100321;
    r[Field::pid] = 1240;
    r[Field::flags] = 0x10004000;
    r.text = "thread-name-19chars";  // MAXCOMLEN: fills the 20-byte field with its NUL
  }
  if (g != Generation::L1) {
    RecordValue& r = b.add(Kind::map_in);
    r[Field::pid] = 0xffffffffu;  // -1: the kernel
    r[Field::start] = kern;
    r.text = "/boot/kernel/kernel";
  }
  if (g != Generation::L1) {
    RecordValue& r = b.add(Kind::map_in);
    r[Field::pid] = 1234;
    r[Field::start] = libc;
    r.text = "/lib/libc.so.7";  // 15 bytes with the NUL: needs padding in every ABI
  }
  if (g != Generation::L1) {
    RecordValue& r = b.add(Kind::callchain);
    r[Field::pid] = 1234;
    if (!legacy) r[Field::tid] = 100321;
    r[Field::pmcid] = sys_id;
    r[Field::cpuflags] = 2u << 16;  // cpu 2, kernel
    r.pcs = {kpc, kpc + 0x1c40, kern + 0x812345};
  }
  if (g != Generation::L1) {
    RecordValue& r = b.add(Kind::callchain);
    r[Field::pid] = 1234;
    if (!legacy) r[Field::tid] = 100321;
    r[Field::pmcid] = sys_id;
    r[Field::cpuflags] = (3u << 16) | 1u;  // cpu 3, user space
    r.pcs = {libc + 0x1234, text, libc + 0x5678, text + 0x40};
  }
  {
    RecordValue& r = b.add(Kind::proccsw);
    r[Field::pmcid] = proc_id;
    r[Field::value] = 0x0000000500000007ull;  // > 2^32: checks the low-word-first rule
    r[Field::pid] = 1234;
    if (!legacy) r[Field::tid] = 100321;
  }
  {
    RecordValue& r = b.add(Kind::userdata);
    r[Field::userdata] = 0xcafe;
  }
  {
    RecordValue& r = b.add(Kind::procfork);
    r[Field::oldpid] = 1234;
    r[Field::newpid] = 1241;
  }
  if (g != Generation::L1) {
    RecordValue& r = b.add(Kind::map_out);
    r[Field::pid] = 1234;
    r[Field::start] = libc;
    r[Field::end] = libc + 0x200000;
  }
  if (g == Generation::M9 || g == Generation::M10) {
    RecordValue& r = b.add(Kind::thr_exit);
    r[Field::tid] = 100321;
  }
  {
    RecordValue& r = b.add(Kind::procexit);
    r[Field::pmcid] = proc_id;
    r[Field::value] = 98765432;
    r[Field::pid] = 1234;
  }
  {
    RecordValue& r = b.add(Kind::sysexit);
    r[Field::pid] = 1234;
  }
  {
    RecordValue& r = b.add(Kind::pmcdetach);
    r[Field::pmcid] = proc_id;
    r[Field::pid] = 1234;
  }
  b.add(Kind::dropnotify);
  b.add(Kind::closelog);
  return b.take();
}

}  // namespace codec_test
