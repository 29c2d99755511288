#include "pmcprofile/log_system.h"

#include <elf.h>

#include <cctype>

#include "pmclog/kind.h"
#include "pmclog/layout.h"

namespace pmcprofile {
namespace {

using pmclog::Field;
using pmclog::Kind;

constexpr uint32_t kCputypeGeneric = 0x400;  // PMC_CPU_GENERIC (format.md §9.4)

// The kernel's machine for a container arch code (format.md §18); 0 for "other".
uint16_t machine_of_arch(uint16_t arch) {
  switch (static_cast<pmclog::ContainerArch>(arch)) {
    case pmclog::ContainerArch::amd64: return EM_X86_64;
    case pmclog::ContainerArch::arm64: return EM_AARCH64;
    case pmclog::ContainerArch::ppc64: return EM_PPC64;
    case pmclog::ContainerArch::riscv64: return EM_RISCV;
    case pmclog::ContainerArch::arm: return EM_ARM;
    default: return 0;
  }
}

// The machine a cputype's family implies (format.md §9.4); 0 for GENERIC or unknown.
uint16_t machine_of_cputype(uint32_t t, const pmclog::Abi& abi) {
  const bool wide = abi.slot_width() == 8;
  const uint16_t x86 = abi.address_width == 8 ? EM_X86_64 : EM_386;
  if (abi.generation == pmclog::Generation::L1) return t <= 8 ? x86 : 0;  // all x86 then
  if (t <= 0x01 || (t >= 0x80 && t <= 0xAF)) return x86;
  if (t == 0x100 || (t >= 0x500 && t <= 0x5FF)) return EM_ARM;
  if (t >= 0x200 && t <= 0x2FF) return EM_MIPS;
  if (t >= 0x300 && t <= 0x3FF) return wide ? EM_PPC64 : EM_PPC;
  if (t >= 0x600 && t <= 0x6FF) return abi.address_width == 8 ? EM_AARCH64 : EM_ARM;
  return 0;
}

// x86 vendors of the kernel's cpuid string ("GenuineIntel-6-55", format.md §8).
uint16_t machine_of_cpuid(std::string_view cpuid, const pmclog::Abi& abi) {
  for (std::string_view v : {"GenuineIntel", "AuthenticAMD", "HygonGenuine", "CentaurHauls"})
    if (cpuid.substr(0, v.size()) == v) return abi.address_width == 8 ? EM_X86_64 : EM_386;
  return 0;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool is_freebsd_release(std::string_view r) {
  if (r.find("FreeBSD") != std::string_view::npos) return true;  // a whole `uname -sr`
  // MAJOR.MINOR-BRANCH: the branch names FreeBSD's newvers.sh gives.
  size_t i = 0;
  const auto digits = [&] {
    const size_t from = i;
    while (i < r.size() && std::isdigit(static_cast<unsigned char>(r[i]))) ++i;
    return i > from;
  };
  if (!digits() || i >= r.size() || r[i++] != '.' || !digits() || i >= r.size() || r[i++] != '-')
    return false;
  for (std::string_view b : {"RELEASE", "CURRENT", "STABLE", "PRERELEASE", "BETA", "RC", "ALPHA"})
    if (r.substr(i, b.size()) == b) return true;
  return false;
}

std::string LogSystem::key() const {
  return std::string(os_name()) + '/' + std::to_string(machine) + (big_endian ? "/be/" : "/le/") +
         std::to_string(address_width) + '/' + std::to_string(address_slot) + '/' + kernel_build_id;
}

LogSystemProbe::LogSystemProbe(const pmclog::Abi& abi,
                               const std::optional<pmclog::Container>& container)
    : abi_(abi) {
  sys_.big_endian = abi.byte_order == pmclog::ByteOrder::big;
  sys_.address_width = abi.address_width;
  sys_.address_slot = abi.slot_width();
  if (!container) return;
  sys_.machine = machine_of_arch(container->arch);
  for (const auto& info : container->infos) {
    if (info.type != static_cast<uint8_t>(pmclog::InfoType::sysinfo)) continue;
    const auto si = pmclog::sysinfo_of(info);
    if (!si) continue;
    sys_.kernel_build_id = lower(si->kernel_build_id);
    if (si->os_release.empty()) continue;
    container_says_ = true;
    sys_.os = is_freebsd_release(si->os_release) ? LogOs::freebsd : LogOs::gnu_linux;
    sys_.os_evidence = "the container's SYSINFO says \"" + si->os_release + "\"";
  }
}

void LogSystemProbe::see(const pmclog::Record& r) {
  if (settled_) return;
  if (r.kind == Kind::initialize) {
    const auto cputype = static_cast<uint32_t>(r[Field::arch]);
    cputype_machine_ = machine_of_cputype(cputype, abi_);
    cpuid_machine_ = machine_of_cpuid(r.text, abi_);
    if (cputype != kCputypeGeneric && freebsd_evidence_.empty())
      freebsd_evidence_ = "INITIALIZE names a hardware cputype";
  } else if (r.kind == Kind::map_in || r.kind == Kind::mappingchange) {
    if (!r.text.empty() && r.text[0] != '/') {
      if (!linux_mark_)
        linux_evidence_ = "a mapping named \"" + std::string(r.text.substr(0, 40)) +
                          "\" (pmclog-record on Linux)";
      linux_mark_ = true;
    } else if (static_cast<uint32_t>(r[Field::pid]) == pmclog::kKernelPid &&
               r.text.substr(0, 6) == "/boot/" && freebsd_evidence_.empty()) {
      freebsd_evidence_ = "a kernel mapping under /boot/";
    }
  }
}

const LogSystem& LogSystemProbe::settle() {
  if (settled_) return sys_;
  settled_ = true;
  if (sys_.machine == 0) sys_.machine = cputype_machine_ != 0 ? cputype_machine_ : cpuid_machine_;
  if (container_says_) return sys_;
  if (linux_mark_) {
    sys_.os = LogOs::gnu_linux;
    sys_.os_evidence = linux_evidence_;
  } else {
    sys_.os = LogOs::freebsd;
    sys_.os_evidence = freebsd_evidence_.empty() ? "no mark of pmclog-record on Linux" : freebsd_evidence_;
  }
  return sys_;
}

}  // namespace pmcprofile
