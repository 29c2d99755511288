// Bit layouts and symbolic names of values inside records (format.md §9).
#include "pmclog/names.h"

#include <cstdio>
#include <utility>

namespace pmclog {

PmcIdLayout pmcid_layout(Generation g) {
  switch (g) {
    case Generation::M9: return PmcIdLayout::ii;
    case Generation::M10: return PmcIdLayout::iii;
    default: return PmcIdLayout::legacy;
  }
}

PmcIdParts split_pmcid(uint32_t id, Generation g) {
  PmcIdParts p{};
  p.row = id & 0xFF;
  switch (pmcid_layout(g)) {
    case PmcIdLayout::legacy:  // cpu 31..24, mode 23..16, class 15..8
      p.cpu = id >> 24;
      p.mode = (id >> 16) & 0xFF;
      p.klass = (id >> 8) & 0xFF;
      p.any_cpu = p.cpu == 0xFF;
      break;
    case PmcIdLayout::ii:  // cpu 31..20, mode 19..12, class 11..8 (r334596)
      p.cpu = id >> 20;
      p.mode = (id >> 12) & 0xFF;
      p.klass = (id >> 8) & 0xF;
      p.any_cpu = p.cpu == 0xFFF;
      break;
    case PmcIdLayout::iii:  // cpu 31..20, mode 19..16, class 15..8
      p.cpu = id >> 20;
      p.mode = (id >> 16) & 0xF;
      p.klass = (id >> 8) & 0xFF;
      p.any_cpu = p.cpu == 0xFFF;
      break;
  }
  return p;
}

uint32_t make_pmcid(const PmcIdParts& p, Generation g) {
  const uint32_t row = p.row & 0xFF;
  switch (pmcid_layout(g)) {
    case PmcIdLayout::legacy: {
      const uint32_t cpu = p.any_cpu ? 0xFFu : p.cpu & 0xFFu;
      return cpu << 24 | (p.mode & 0xFF) << 16 | (p.klass & 0xFF) << 8 | row;
    }
    case PmcIdLayout::ii: {
      const uint32_t cpu = p.any_cpu ? 0xFFFu : p.cpu & 0xFFFu;
      return cpu << 20 | (p.mode & 0xFF) << 12 | (p.klass & 0xF) << 8 | row;
    }
    case PmcIdLayout::iii: {
      const uint32_t cpu = p.any_cpu ? 0xFFFu : p.cpu & 0xFFFu;
      return cpu << 20 | (p.mode & 0xF) << 16 | (p.klass & 0xFF) << 8 | row;
    }
  }
  return 0xFFFFFFFFu;
}

uint32_t typical_pmc_version(Generation g) {
  switch (g) {
    case Generation::L1: return 0x01020003;
    case Generation::L2:
    case Generation::L3: return 0x03010000;
    case Generation::M9: return 0x09030000;
    case Generation::M10: return 0x0A000000;
  }
  return 0x03010000;
}

std::string_view pmc_mode_name(uint32_t mode) {
  switch (mode) {
    case 0: return "SS";
    case 1: return "SC";
    case 2: return "TS";
    case 3: return "TC";
    default: return "?";
  }
}

std::string pmc_flags_names(uint32_t flags, Generation g) {
  // format.md §9.2: bit meanings by era.
  const bool legacy = g <= Generation::L3;
  std::pair<uint32_t, std::string_view> bits[] = {
      {0x1, legacy ? "FORCE" : "UNUSED1"},
      {0x2, "DESCENDANTS"},
      {0x4, "LOG_PROCCSW"},
      {0x8, "LOG_PROCEXIT"},
      {0x10, "NEWVALUE"},
      {0x20, "OLDVALUE"},
      {0x40, legacy ? "KGMON" : ""},
      {0x80, g == Generation::L1 ? "" : "CALLCHAIN"},
      {0x100, legacy ? "" : "USERCALLCHAIN"},
      {0x200, g == Generation::M10 ? "EV_PMU" : ""},
      {0x10000, "ATTACHED_TO_OWNER"},
      {0x20000, "NEEDS_LOGFILE"},
      {0x40000, "ATTACH_DONE"},
  };
  std::string s;
  uint32_t rest = flags;
  for (const auto& [b, name] : bits) {
    if ((flags & b) && !name.empty()) {
      if (!s.empty()) s += '|';
      s += name;
      rest &= ~b;
    }
  }
  if (rest) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", rest);
    if (!s.empty()) s += '|';
    s += buf;
  }
  return s.empty() ? "0" : s;
}

namespace {

struct CpuName {
  uint32_t value;
  std::string_view name;
  bool modern_only;
};

// L2 and later: explicit values (format.md §9.4).
constexpr CpuName kCpuTypes[] = {
    {0x00, "AMD_K7", false}, {0x01, "AMD_K8", false}, {0x80, "INTEL_P5", false},
    {0x81, "INTEL_P6", false}, {0x82, "INTEL_CL", false}, {0x83, "INTEL_PII", false},
    {0x84, "INTEL_PIII", false}, {0x85, "INTEL_PM", false}, {0x86, "INTEL_PIV", false},
    {0x87, "INTEL_CORE", false}, {0x88, "INTEL_CORE2", false},
    {0x89, "INTEL_CORE2EXTREME", false}, {0x8A, "INTEL_ATOM", false},
    {0x8B, "INTEL_COREI7", false}, {0x8C, "INTEL_WESTMERE", false},
    {0x8D, "INTEL_SANDYBRIDGE", false}, {0x8E, "INTEL_IVYBRIDGE", false},
    {0x8F, "INTEL_SANDYBRIDGE_XEON", false}, {0x90, "INTEL_IVYBRIDGE_XEON", false},
    {0x91, "INTEL_HASWELL", false}, {0x92, "INTEL_ATOM_SILVERMONT", false},
    {0x93, "INTEL_NEHALEM_EX", false}, {0x94, "INTEL_WESTMERE_EX", false},
    {0x95, "INTEL_HASWELL_XEON", false}, {0x96, "INTEL_BROADWELL", false},
    {0x97, "INTEL_BROADWELL_XEON", false}, {0x98, "INTEL_SKYLAKE", false},
    {0x99, "INTEL_SKYLAKE_XEON", false}, {0x9A, "INTEL_ATOM_GOLDMONT", true},
    {0x9B, "INTEL_ICELAKE", true}, {0x9C, "INTEL_ICELAKE_XEON", true},
    {0x9D, "INTEL_ALDERLAKE", true}, {0x9E, "INTEL_ATOM_GOLDMONT_P", true},
    {0x9F, "INTEL_ATOM_TREMONT", true}, {0x100, "INTEL_XSCALE", false},
    {0x200, "MIPS_24K", false}, {0x201, "MIPS_OCTEON", false}, {0x202, "MIPS_74K", false},
    {0x203, "MIPS_BERI", true}, {0x300, "PPC_7450", false}, {0x340, "PPC_E500", false},
    {0x380, "PPC_970", false}, {0x390, "PPC_POWER8", true}, {0x400, "GENERIC", false},
    {0x500, "ARMV7_CORTEX_A5", false}, {0x501, "ARMV7_CORTEX_A7", false},
    {0x502, "ARMV7_CORTEX_A8", false}, {0x503, "ARMV7_CORTEX_A9", false},
    {0x504, "ARMV7_CORTEX_A15", false}, {0x505, "ARMV7_CORTEX_A17", false},
    {0x600, "ARMV8_CORTEX_A53", false}, {0x601, "ARMV8_CORTEX_A57", false},
    {0x602, "ARMV8_CORTEX_A76", true},
};

// L1: implicit enum order (format.md §9.4).
constexpr std::string_view kL1CpuTypes[] = {"AMD_K7",   "AMD_K8",     "INTEL_P5",
                                            "INTEL_P6", "INTEL_CL",   "INTEL_PII",
                                            "INTEL_PIII", "INTEL_PM", "INTEL_PIV"};

}  // namespace

std::string_view cputype_name(uint32_t cputype, Generation g) {
  if (g == Generation::L1) {
    return cputype < std::size(kL1CpuTypes) ? kL1CpuTypes[cputype] : std::string_view{};
  }
  const bool modern = g >= Generation::M9;
  for (const CpuName& c : kCpuTypes) {
    if (c.value == cputype && (modern || !c.modern_only)) return c.name;
  }
  return {};
}

}  // namespace pmclog
