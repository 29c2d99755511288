// The PMCL container (format.md §18): names, parsing with file offsets, encoding, payload
// builders. The JSON Lines form is in container_json.cpp, the host facts in container_host.cpp.
#include "pmclog/container.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "pmclog/endian_io.h"
#include "pmclog/text.h"

namespace pmclog {

namespace {

constexpr std::string_view kArchNames[] = {"other", "amd64", "arm64", "ppc64", "riscv64", "arm"};
constexpr std::string_view kInfoNames[] = {"done", "sysinfo", "pmcinfo", "cpuid"};

std::string num(uint64_t v) { return std::to_string(v); }

}  // namespace

std::optional<std::string_view> container_arch_name(uint16_t arch) {
  if (arch < std::size(kArchNames)) return kArchNames[arch];
  return std::nullopt;
}
std::optional<uint16_t> parse_container_arch(std::string_view name) {
  for (size_t i = 0; i < std::size(kArchNames); ++i)
    if (kArchNames[i] == name) return static_cast<uint16_t>(i);
  return std::nullopt;
}
std::optional<uint8_t> container_arch_width(uint16_t arch) {
  switch (static_cast<ContainerArch>(arch)) {
    case ContainerArch::amd64:
    case ContainerArch::arm64:
    case ContainerArch::ppc64:  // EMIT64 on __powerpc64__ in the trees of pmc record's era (format.md §19)
    case ContainerArch::riscv64: return 8;
    case ContainerArch::arm: return 4;
    default: return std::nullopt;
  }
}
std::optional<std::string_view> info_type_name(uint8_t type) {
  if (type < std::size(kInfoNames)) return kInfoNames[type];
  return std::nullopt;
}
std::optional<uint8_t> parse_info_type(std::string_view name) {
  for (size_t i = 0; i < std::size(kInfoNames); ++i)
    if (kInfoNames[i] == name) return static_cast<uint8_t>(i);
  return std::nullopt;
}

std::string_view container_problem_id(ContainerProblem p) {
  switch (p) {
    case ContainerProblem::truncated: return "container-truncated";
    case ContainerProblem::past_end: return "container-past-end";
    case ContainerProblem::no_done: return "container-no-done";
    case ContainerProblem::bad_version: return "container-version";
    case ContainerProblem::sysinfo_length: return "container-sysinfo-length";
    case ContainerProblem::cpuid_length: return "container-cpuid-length";
    case ContainerProblem::pmcinfo_length: return "container-pmcinfo-length";
    case ContainerProblem::done_length: return "container-done-length";
    case ContainerProblem::unknown_arch: return "container-arch";
    case ContainerProblem::unknown_info: return "container-unknown-info";
  }
  return "container";
}

bool container_problem_fatal(ContainerProblem p) {
  switch (p) {
    case ContainerProblem::truncated:
    case ContainerProblem::past_end:
    case ContainerProblem::no_done:
    case ContainerProblem::bad_version:
    case ContainerProblem::sysinfo_length: return true;
    default: return false;
  }
}

bool ContainerParse::fatal() const { return first_fatal() != nullptr; }
const ContainerIssue* ContainerParse::first_fatal() const {
  for (const auto& i : issues)
    if (container_problem_fatal(i.problem)) return &i;
  return nullptr;
}

bool has_container_magic(std::span<const uint8_t> b) {
  return b.size() >= 4 && (detail::load32(ByteOrder::little, b.data()) == kContainerMagic ||
                           detail::load32(ByteOrder::big, b.data()) == kContainerMagic);
}

std::span<const uint8_t> sysinfo_field(const ContainerInfo& info, int i) {
  return std::span<const uint8_t>(info.payload).subspan(static_cast<size_t>(i) * kSysinfoStringSize,
                                                        kSysinfoStringSize);
}

namespace {
std::string c_string(std::span<const uint8_t> b) {
  const auto* p = reinterpret_cast<const char*>(b.data());
  return std::string(p, strnlen(p, b.size()));
}
}  // namespace

std::optional<Sysinfo> sysinfo_of(const ContainerInfo& info) {
  if (info.type != static_cast<uint8_t>(InfoType::sysinfo) || info.payload.size() != kSysinfoSize)
    return std::nullopt;
  return Sysinfo{c_string(sysinfo_field(info, 0)), c_string(sysinfo_field(info, 1)),
                 c_string(sysinfo_field(info, 2))};
}

std::vector<CpuidLeaf> cpuid_leaves_of(const ContainerInfo& info, ByteOrder o) {
  std::vector<CpuidLeaf> v;
  for (size_t at = 0; at + kCpuidLeafSize <= info.payload.size(); at += kCpuidLeafSize) {
    const uint8_t* p = info.payload.data() + at;
    v.push_back({detail::load32(o, p), detail::load32(o, p + 4), detail::load32(o, p + 8),
                 detail::load32(o, p + 12)});
  }
  return v;
}

std::optional<Pmcinfo> pmcinfo_of(const ContainerInfo& info, ByteOrder o) {
  if (info.payload.size() < 8) return std::nullopt;
  return Pmcinfo{detail::load64_native(o, info.payload.data()),
                 c_string(std::span<const uint8_t>(info.payload).subspan(8))};
}

ContainerParse parse_container(std::span<const uint8_t> d, bool complete) {
  ContainerParse res;
  if (!has_container_magic(d)) return res;
  Container& c = res.container.emplace();
  c.byte_order = d[0] == 0x4C ? ByteOrder::little : ByteOrder::big;
  const ByteOrder o = c.byte_order;
  const uint64_t size = d.size();
  const std::string end_of = complete ? "the end of the data at offset " + num(size)
                                      : "the first " + num(size) + " bytes examined";
  auto issue = [&](ContainerProblem p, uint64_t at, std::string msg) {
    res.issues.push_back({p, at, "PMCL container: " + std::move(msg)});
  };
  if (size < kContainerHeaderSize) {
    issue(ContainerProblem::truncated, 0,
          "the 8-byte file header at offset 0 is cut by " + end_of);
    c.size = size;
    return res;
  }
  c.version = detail::load16(o, d.data() + 4);
  c.arch = detail::load16(o, d.data() + 6);
  if (c.version > kContainerVersionMax) {
    issue(ContainerProblem::bad_version, 4,
          "version " + num(c.version) + " at offset 4 is above " + num(kContainerVersionMax) +
              ", the only version this reader knows");
    return res;
  }
  if (!container_arch_name(c.arch))
    issue(ContainerProblem::unknown_arch, 6,
          "arch " + num(c.arch) + " at offset 6 is not a known code (0..5)");
  uint64_t pos = kContainerHeaderSize;
  for (;;) {
    if (pos == size) {
      issue(ContainerProblem::no_done, pos,
            "no DONE info header before " + end_of + " (the info list ends there)");
      break;
    }
    if (pos + kInfoHeaderSize > size) {
      issue(ContainerProblem::truncated, pos,
            "the 8-byte info header at offset " + num(pos) + " is cut by " + end_of);
      break;
    }
    const uint8_t* h = d.data() + pos;
    ContainerInfo info;
    info.offset = pos;
    info.type = h[0];
    info.reserved8 = h[1];
    const uint16_t len = detail::load16(o, h + 2);
    info.reserved32 = detail::load32(o, h + 4);
    const auto tname = info_type_name(info.type);
    std::string what = "info at offset ";
    what += num(pos);
    what += " (type ";
    what += num(info.type);
    if (tname) {
      what += ' ';
      what += *tname;
    }
    what += ", length ";
    what += num(len);
    what += ')';
    if (pos + kInfoHeaderSize + len > size) {
      issue(ContainerProblem::past_end, pos,
            what + ": its payload ends at offset " + num(pos + kInfoHeaderSize + len) +
                ", past " + end_of);
      break;
    }
    info.payload.assign(h + kInfoHeaderSize, h + kInfoHeaderSize + len);
    switch (info.type) {
      case static_cast<uint8_t>(InfoType::done):
        if (len != 0) issue(ContainerProblem::done_length, pos, what + ": DONE has length 0");
        break;
      case static_cast<uint8_t>(InfoType::sysinfo):
        if (len != kSysinfoSize)
          issue(ContainerProblem::sysinfo_length, pos,
                what + ": SYSINFO is 192 bytes (three 64-byte strings)");
        break;
      case static_cast<uint8_t>(InfoType::pmcinfo):
        if (len < 8)
          issue(ContainerProblem::pmcinfo_length, pos,
                what + ": PMCINFO needs at least 8 bytes for its rate");
        break;
      case static_cast<uint8_t>(InfoType::cpuid):
        if (len % kCpuidLeafSize != 0)
          issue(ContainerProblem::cpuid_length, pos,
                what + ": CPUID is 16 bytes per leaf, and " + num(len) + " is not a multiple of 16");
        break;
      default:
        issue(ContainerProblem::unknown_info, pos,
              what + ": unknown info type, skipped by its length");
        break;
    }
    pos += kInfoHeaderSize + len;
    const bool done = info.type == static_cast<uint8_t>(InfoType::done);
    c.infos.push_back(std::move(info));
    if (done) break;
  }
  c.size = pos;
  return res;
}

Result<size_t> encode_container_header(const Container& c, std::vector<uint8_t>& out) {
  const size_t at = out.size();
  out.resize(at + kContainerHeaderSize);
  uint8_t* p = out.data() + at;
  detail::store32(c.byte_order, p, kContainerMagic);
  detail::store16(c.byte_order, p + 4, c.version);
  detail::store16(c.byte_order, p + 6, c.arch);
  return kContainerHeaderSize;
}

Result<size_t> encode_container_info(const ContainerInfo& info, ByteOrder o,
                                     std::vector<uint8_t>& out) {
  if (info.payload.size() > 0xFFFF) {
    Error e;
    e.code = Errc::value_out_of_range;
    e.message = "PMCL info payload of " + num(info.payload.size()) +
                " bytes does not fit the 16-bit length (at most 65535)";
    return e;
  }
  const size_t at = out.size();
  out.resize(at + kInfoHeaderSize);
  uint8_t* p = out.data() + at;
  p[0] = info.type;
  p[1] = info.reserved8;
  detail::store16(o, p + 2, static_cast<uint16_t>(info.payload.size()));
  detail::store32(o, p + 4, info.reserved32);
  out.insert(out.end(), info.payload.begin(), info.payload.end());
  return kInfoHeaderSize + info.payload.size();
}

Result<size_t> encode_container(const Container& c, std::vector<uint8_t>& out) {
  const size_t at = out.size();
  encode_container_header(c, out);
  for (const auto& i : c.infos) {
    auto r = encode_container_info(i, c.byte_order, out);
    if (!r.ok()) {
      out.resize(at);
      return r.error();
    }
  }
  return out.size() - at;
}

ContainerInfo make_sysinfo(const Sysinfo& s) {
  ContainerInfo info;
  info.type = static_cast<uint8_t>(InfoType::sysinfo);
  info.payload.assign(kSysinfoSize, 0);
  const std::string* f[3] = {&s.cpu_model, &s.os_release, &s.kernel_build_id};
  for (int i = 0; i < 3; ++i) {
    const size_t n = std::min(f[i]->size(), kSysinfoStringSize - 1);
    std::memcpy(info.payload.data() + static_cast<size_t>(i) * kSysinfoStringSize, f[i]->data(), n);
  }
  return info;
}

ContainerInfo make_cpuid(std::span<const CpuidLeaf> leaves, ByteOrder o) {
  ContainerInfo info;
  info.type = static_cast<uint8_t>(InfoType::cpuid);
  info.payload.resize(leaves.size() * kCpuidLeafSize);
  uint8_t* p = info.payload.data();
  for (const CpuidLeaf& l : leaves) {
    detail::store32(o, p, l.eax);
    detail::store32(o, p + 4, l.ebx);
    detail::store32(o, p + 8, l.ecx);
    detail::store32(o, p + 12, l.edx);
    p += kCpuidLeafSize;
  }
  return info;
}

ContainerInfo make_pmcinfo(const Pmcinfo& pm, ByteOrder o) {
  ContainerInfo info;
  info.type = static_cast<uint8_t>(InfoType::pmcinfo);
  info.payload.assign(8 + pm.event.size() + 1, 0);
  detail::store64_native(o, info.payload.data(), pm.rate);
  if (!pm.event.empty()) std::memcpy(info.payload.data() + 8, pm.event.data(), pm.event.size());
  return info;
}

ContainerInfo make_done() {
  ContainerInfo info;
  info.type = static_cast<uint8_t>(InfoType::done);
  return info;
}

std::string describe_container_header(const Container& c) {
  return "@0 PMCL header: magic 0x504d434c (" + std::string(byte_order_name(c.byte_order)) +
         "-endian), version " + num(c.version) + ", arch " +
         std::string(container_arch_name(c.arch).value_or("unknown")) + " (" + num(c.arch) +
         "), " + num(c.infos.size()) + " info(s), stream at offset " + num(c.size);
}

std::string describe_container_info(const ContainerInfo& info, ByteOrder o) {
  // Built by appending: GCC 12 sees false overlaps in chains of std::string operator+.
  std::string s = "@";
  s += num(info.offset);
  s += " PMCL info ";
  if (const auto name = info_type_name(info.type)) {
    s += *name;
  } else {
    s += "unknown type ";
    s += num(info.type);
  }
  s += " (";
  s += num(info.payload.size());
  s += " bytes";
  char buf[128];
  if (info.reserved8 || info.reserved32) {
    std::snprintf(buf, sizeof buf, "; reserved 0x%02x 0x%08x", info.reserved8, info.reserved32);
    s += buf;
  }
  s += ')';
  auto quoted = [&s](std::string_view key, std::string_view v) {
    s += ' ';
    s += key;
    s += "=\"";
    append_escaped(s, v);
    s += '"';
  };
  if (auto si = sysinfo_of(info)) {
    quoted("cpu_model", si->cpu_model);
    quoted("os_release", si->os_release);
    quoted("kernel_build_id", si->kernel_build_id);
  } else if (info.type == static_cast<uint8_t>(InfoType::pmcinfo)) {
    if (auto p = pmcinfo_of(info, o)) {
      s += " rate=";
      s += num(p->rate);
      quoted("event", p->event);
    }
  } else if (info.type == static_cast<uint8_t>(InfoType::cpuid)) {
    const auto leaves = cpuid_leaves_of(info, o);
    s += " leaves=";
    s += num(leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::snprintf(buf, sizeof buf, "\n    [%zu] eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x", i,
                    leaves[i].eax, leaves[i].ebx, leaves[i].ecx, leaves[i].edx);
      s += buf;
    }
  }
  return s;
}

}  // namespace pmclog
