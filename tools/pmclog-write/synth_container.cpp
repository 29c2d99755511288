#include "synth_container.h"

#include <cstdio>

namespace pmclog::write {

namespace {
bool is_i386(const Abi& a) {
  return a.address_width == 4 && a.byte_order == ByteOrder::little && a.time_width == 4;
}
}  // namespace

uint16_t synth_arch(const Abi& a) {
  if (a.slot_width() == 8)  // powerpc64 also for 4-byte addresses in 8-byte slots (format.md §19)
    return static_cast<uint16_t>(a.byte_order == ByteOrder::little ? ContainerArch::amd64
                                                                   : ContainerArch::ppc64);
  if (a.byte_order == ByteOrder::little && !is_i386(a)) return static_cast<uint16_t>(ContainerArch::arm);
  return static_cast<uint16_t>(ContainerArch::other);
}

Container synth_container(const Abi& abi, uint64_t seed) {
  Container c;
  c.byte_order = abi.byte_order;
  c.arch = synth_arch(abi);
  const bool x86 = c.arch == static_cast<uint16_t>(ContainerArch::amd64) || is_i386(abi);
  Sysinfo s;
  switch (static_cast<ContainerArch>(c.arch)) {
    case ContainerArch::ppc64: s.cpu_model = "POWER9, altivec supported"; break;
    case ContainerArch::arm: s.cpu_model = "ARM Cortex-A72 r0p3"; break;
    default: s.cpu_model = x86 ? "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" : "MIPS 24Kc"; break;
  }
  s.os_release = "14.3-RELEASE";
  char id[48];
  std::snprintf(id, sizeof id, "%016llx%016llx", static_cast<unsigned long long>(seed * 0x9E3779B97F4A7C15ull),
                static_cast<unsigned long long>(~seed * 0xBF58476D1CE4E5B9ull));
  s.kernel_build_id = id;
  c.infos.push_back(make_sysinfo(s));
  if (x86) {
    // Skylake-SP: leaf 0 ("GenuineIntel", max leaf 0x16), leaf 1 (family 6 model 0x55
    // stepping 4), the extended range's first two leaves.
    const CpuidLeaf leaves[] = {
        {0x00000016, 0x756e6547, 0x6c65746e, 0x49656e69},
        {0x00050654, 0x00200800, 0x7ffefbff, 0xbfebfbff},
        {0x80000008, 0x00000000, 0x00000000, 0x00000000},
        {0x00000000, 0x00000000, 0x00000121, 0x2c100800},
    };
    c.infos.push_back(make_cpuid(leaves, c.byte_order));
  }
  c.infos.push_back(make_done());
  for (auto& i : c.infos) {
    i.offset = c.size;
    c.size += kInfoHeaderSize + i.payload.size();
  }
  return c;
}

}  // namespace pmclog::write
