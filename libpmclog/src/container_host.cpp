// The container facts of this machine, as `pmc record` gathers them on FreeBSD (format.md
// §18), read the Linux way: /proc/cpuinfo's model, uname's release, the GNU build-id note
// in /sys/kernel/notes, and the CPUID leaves on x86 (standard, hypervisor, extended ranges).
#include <sys/utsname.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "pmclog/container.h"
#include "pmclog/endian_io.h"
#include "pmclog/text.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace pmclog {

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, fallback;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    const std::string value = trim(line.substr(colon + 1));
    if (key == "model name") return value;
    // Other architectures name the CPU differently (ppc64: "cpu", some arm: "Hardware").
    if (fallback.empty() && (key == "cpu" || key == "Hardware" || key == "uarch")) fallback = value;
  }
  return fallback;
}

// The build id from an ELF note list (native byte order): the NT_GNU_BUILD_ID (3) note of
// owner "GNU", as hex.
std::string kernel_build_id() {
  std::ifstream in("/sys/kernel/notes", std::ios::binary);
  const std::string notes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const ByteOrder o = std::endian::native == std::endian::little ? ByteOrder::little : ByteOrder::big;
  const auto* p = reinterpret_cast<const uint8_t*>(notes.data());
  size_t pos = 0;
  auto pad4 = [](size_t n) { return (n + 3) & ~size_t{3}; };
  while (pos + 12 <= notes.size()) {
    const uint32_t namesz = detail::load32(o, p + pos), descsz = detail::load32(o, p + pos + 4),
                   type = detail::load32(o, p + pos + 8);
    const size_t name_at = pos + 12, desc_at = name_at + pad4(namesz);
    if (namesz > notes.size() || descsz > notes.size() || desc_at + descsz > notes.size()) break;
    if (type == 3 && namesz == 4 && std::memcmp(p + name_at, "GNU", 4) == 0)
      return hex_bytes(std::string_view(notes.data() + desc_at, descsz));
    pos = desc_at + pad4(descsz);
  }
  return {};
}

#if defined(__x86_64__) || defined(__i386__)
void cpuid_range(uint32_t base, std::vector<CpuidLeaf>& out) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid_count(base, 0, a, b, c, d);
  if (a < base) return;
  const uint32_t last = std::min<uint32_t>(a, base + 255);  // bounded: the length is 16 bits
  for (uint32_t leaf = base; leaf <= last; ++leaf) {
    __cpuid_count(leaf, 0, a, b, c, d);
    out.push_back({a, b, c, d});
  }
}
#endif

}  // namespace

uint16_t host_arch() {
#if defined(__x86_64__)
  return static_cast<uint16_t>(ContainerArch::amd64);
#elif defined(__aarch64__)
  return static_cast<uint16_t>(ContainerArch::arm64);
#elif defined(__powerpc64__)
  return static_cast<uint16_t>(ContainerArch::ppc64);
#elif defined(__riscv) && __riscv_xlen == 64
  return static_cast<uint16_t>(ContainerArch::riscv64);
#elif defined(__arm__)
  return static_cast<uint16_t>(ContainerArch::arm);
#else
  return static_cast<uint16_t>(ContainerArch::other);
#endif
}

Container host_container(ByteOrder o) {
  Container c;
  c.byte_order = o;
  c.arch = host_arch();
  Sysinfo s;
  s.cpu_model = cpu_model();
  struct utsname u {};
  if (::uname(&u) == 0) s.os_release = u.release;
  s.kernel_build_id = kernel_build_id();
  c.infos.push_back(make_sysinfo(s));
#if defined(__x86_64__) || defined(__i386__)
  std::vector<CpuidLeaf> leaves;
  unsigned a = 0, b = 0, cx = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &cx, &d)) {
    cpuid_range(0, leaves);
    __cpuid_count(1, 0, a, b, cx, d);
    if (cx & (1u << 31)) cpuid_range(0x40000000, leaves);  // a hypervisor is present
    cpuid_range(0x80000000, leaves);
  }
  c.infos.push_back(make_cpuid(leaves, c.byte_order));
#endif
  c.infos.push_back(make_done());
  for (auto& i : c.infos) {
    i.offset = c.size;
    c.size += kInfoHeaderSize + i.payload.size();
  }
  return c;
}

}  // namespace pmclog
