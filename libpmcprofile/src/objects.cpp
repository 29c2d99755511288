#include "pmcprofile/objects.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "pmclog/container.h"
#include "pmcprofile/kallsyms.h"
#include "pmcprofile/sysroot.h"

namespace pmcprofile {
namespace {

std::string last_component(std::string_view p) {
  const size_t slash = p.rfind('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

// The running kernel's build id, as the container of pmclog-record --container names it.
std::string host_kernel_build_id() {
  const pmclog::Container c = pmclog::host_container(pmclog::ByteOrder::little);
  for (const auto& info : c.infos)
    if (auto si = pmclog::sysinfo_of(info)) return si->kernel_build_id;
  return {};
}

constexpr uint32_t kNtGnuBuildId = 3;  // NT_GNU_BUILD_ID, owner "GNU"
constexpr uint32_t kNtAbiTag = 1;      // NT_GNU_ABI_TAG (owner "GNU"), NT_FREEBSD_ABI_TAG ("FreeBSD")
constexpr uint8_t kOsAbiGnu = 3, kOsAbiFreeBsd = 9;  // EI_OSABI: ELFOSABI_GNU, ELFOSABI_FREEBSD

// The build id and the ABI tag in one note block (each kept when already found).
void read_notes(Elf_Data* d, ElfLayout& l) {
  static const char kHex[] = "0123456789abcdef";
  size_t at = 0, name_at = 0, desc_at = 0;
  GElf_Nhdr nh;
  while (d != nullptr && at < d->d_size &&
         (at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) != 0) {
    const auto* base = static_cast<const char*>(d->d_buf);
    const std::string_view owner(base + name_at, nh.n_namesz);
    if (owner == std::string_view("GNU\0", 4) && nh.n_type == kNtGnuBuildId && nh.n_descsz > 0 &&
        l.build_id.empty()) {
      for (size_t i = 0; i < nh.n_descsz; ++i) {
        const auto b = static_cast<uint8_t>(base[desc_at + i]);
        l.build_id += kHex[b >> 4];
        l.build_id += kHex[b & 15];
      }
    } else if (owner == std::string_view("GNU\0", 4) && nh.n_type == kNtAbiTag &&
               nh.n_descsz >= 4 && l.os_note == ElfOsNote::none) {
      // The first word is the OS (0 Linux, 1 Hurd, 2 Solaris, 3 kFreeBSD ...): zero in
      // either byte order.
      const bool zero = base[desc_at] == 0 && base[desc_at + 1] == 0 && base[desc_at + 2] == 0 &&
                        base[desc_at + 3] == 0;
      l.os_note = zero ? ElfOsNote::gnu_linux : ElfOsNote::other;
    } else if (owner == std::string_view("FreeBSD\0", 8) && nh.n_type == kNtAbiTag &&
               l.os_note == ElfOsNote::none) {
      l.os_note = ElfOsNote::freebsd;
    }
  }
}

const char* machine_name(uint16_t m) {
  switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "i386";
    case EM_AARCH64: return "aarch64";
    case EM_ARM: return "arm";
    case EM_PPC64: return "powerpc64";
    case EM_PPC: return "powerpc";
    case EM_MIPS: return "mips";
    case EM_RISCV: return "riscv";
    default: return nullptr;
  }
}

std::string machine_text(uint16_t m) {
  const char* n = machine_name(m);
  return n != nullptr ? n : "machine " + std::to_string(m);
}

// A 64-bit kernel also runs its 32-bit companion's programs (lib32, compat32).
bool runs(uint16_t kernel_machine, uint16_t m) {
  return m == kernel_machine || (kernel_machine == EM_X86_64 && m == EM_386) ||
         (kernel_machine == EM_AARCH64 && m == EM_ARM) || (kernel_machine == EM_PPC64 && m == EM_PPC);
}

// The OS an ELF file is branded for, as a reason's first words.
enum class Brand : uint8_t { freebsd, gnu_linux, other, none };
Brand brand_of(const ElfLayout& l) {
  if (l.osabi == kOsAbiFreeBsd || l.os_note == ElfOsNote::freebsd) return Brand::freebsd;
  if (l.osabi == kOsAbiGnu || l.os_note == ElfOsNote::gnu_linux) return Brand::gnu_linux;
  if (l.osabi != 0 || l.os_note == ElfOsNote::other) return Brand::other;
  return Brand::none;
}

}  // namespace

std::string refusal(const ElfLayout& l, const LogSystem& sys, bool kernel, bool kernel_image) {
  const std::string from = std::string(", log from ") + sys.os_name();
  if ((l.elf_data == ELFDATA2MSB) != sys.big_endian)
    return std::string(sys.big_endian ? "little" : "big") + "-endian ELF, log " +
           (sys.big_endian ? "big" : "little") + "-endian";
  if (l.elf_class == ELFCLASS64 && sys.address_slot == 4)
    return "64-bit ELF, log of 32-bit addresses";
  if (sys.machine != 0 && !(kernel ? l.machine == sys.machine : runs(sys.machine, l.machine)))
    return "ELF for " + machine_text(l.machine) + ", log from " + machine_text(sys.machine);
  switch (brand_of(l)) {
    case Brand::freebsd:
      if (sys.os != LogOs::freebsd) return "FreeBSD ELF" + from;
      break;
    case Brand::gnu_linux:
      if (sys.os != LogOs::gnu_linux) return "Linux ELF" + from;
      break;
    case Brand::other:
      return "ELF for OS ABI " + std::to_string(l.osabi) + from;
    case Brand::none:
      // Linux's toolchain brands only some objects; FreeBSD's brands every one.
      if (sys.os == LogOs::freebsd) return "ELF not branded FreeBSD (System V, no FreeBSD note)" + from;
      break;
  }
  if (kernel_image && !sys.kernel_build_id.empty() && l.build_id != sys.kernel_build_id)
    return "build id " + (l.build_id.empty() ? std::string("none") : l.build_id) +
           ", the log's kernel " + sys.kernel_build_id;
  return {};
}

bool is_kernel_image_path(std::string_view path) {
  if (path == kRunningKernelObject || path == "[kernel]") return true;
  const std::string base = last_component(path);
  return base == "kernel" || base == "kernel.debug" || base.rfind("vmlinux", 0) == 0;
}

ElfLayout read_elf_layout(const std::string& file) {
  ElfLayout l;
  elf_version(EV_CURRENT);
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return l;
  Elf* e = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  GElf_Ehdr eh;
  size_t n = 0;
  if (e != nullptr && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) != nullptr &&
      elf_getphdrnum(e, &n) == 0) {
    l.type = eh.e_type;
    l.elf_class = eh.e_ident[EI_CLASS];
    l.elf_data = eh.e_ident[EI_DATA];
    l.osabi = eh.e_ident[EI_OSABI];
    l.machine = eh.e_machine;
    l.entry = eh.e_entry;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(e, static_cast<int>(i), &ph) == nullptr) continue;
      if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) != 0) {
        if (ph.p_vaddr < lo) {
          // exec_lo is this address rounded down to 4 KiB: the same distance back from its
          // file offset (loadable segments are page-congruent).
          const uint64_t back = ph.p_vaddr & 0xFFF;
          l.exec_offset_known = ph.p_offset >= back;
          l.exec_offset = l.exec_offset_known ? ph.p_offset - back : 0;
        }
        lo = std::min<uint64_t>(lo, ph.p_vaddr);
        hi = std::max<uint64_t>(hi, ph.p_vaddr + ph.p_memsz);
      } else if (ph.p_type == PT_NOTE) {
        read_notes(elf_getdata_rawchunk(e, static_cast<int64_t>(ph.p_offset), ph.p_filesz,
                                        ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR),
                   l);
      } else if (ph.p_type == PT_INTERP && ph.p_filesz > 1 && ph.p_filesz < 4096) {
        std::string s(ph.p_filesz, '\0');
        if (pread(fd, s.data(), s.size(), static_cast<off_t>(ph.p_offset)) ==
            static_cast<ssize_t>(s.size())) {
          s.resize(strnlen(s.data(), s.size()));
          l.interp = s;
        }
      }
    }
    // A separate debug file, or an object without program headers: the note sections.
    for (Elf_Scn* scn = nullptr;
         (l.build_id.empty() || l.os_note == ElfOsNote::none) && (scn = elf_nextscn(e, scn)) != nullptr;) {
      GElf_Shdr sh;
      if (gelf_getshdr(scn, &sh) != nullptr && sh.sh_type == SHT_NOTE)
        read_notes(elf_getdata(scn, nullptr), l);
    }
    if (lo != UINT64_MAX) {
      l.valid = true;
      l.exec_lo = lo & ~uint64_t{0xFFF};
      l.exec_hi = hi;
    }
  }
  if (e != nullptr) elf_end(e);
  close(fd);
  return l;
}

ObjectTable::ObjectTable(LocateOptions opt) : opt_(std::move(opt)) {}

void ObjectTable::set_log(LogSystemProbe* probe) {
  probe_ = probe;
  probe_system_ = 0;
}

uint32_t ObjectTable::current_system() {
  if (probe_ == nullptr) return 0;
  if (probe_system_ == 0) {
    const LogSystem& sys = probe_->settle();
    auto [it, fresh] = system_ids_.try_emplace(sys.key(), static_cast<uint32_t>(systems_.size() + 1));
    if (fresh) systems_.push_back(sys);
    probe_system_ = it->second;
  }
  return probe_system_;
}

ObjectId ObjectTable::intern(std::string_view path, bool kernel) {
  const uint32_t sys = current_system();
  std::string key(path);
  key += '\0';
  key += std::to_string(sys);
  auto it = by_path_.find(key);
  if (it != by_path_.end()) {
    if (kernel) objects_[it->second].kernel = true;
    return it->second;
  }
  const auto id = static_cast<ObjectId>(objects_.size());
  ObjectInfo& o = objects_.emplace_back();
  o.path = std::string(path);
  o.name = last_component(path);
  if (o.name.empty()) o.name = o.path;
  o.kernel = kernel;
  o.system = sys;
  by_path_.emplace(std::move(key), id);
  return id;
}

const ObjectInfo& ObjectTable::info(ObjectId id) { return info_mutable(id); }

ObjectInfo& ObjectTable::info_mutable(ObjectId id) {
  ObjectInfo& o = objects_[id];
  if (!o.located) locate(o);
  return o;
}

void ObjectTable::locate(ObjectInfo& o) {
  o.located = true;
  const bool image = o.kernel && is_kernel_image_path(o.path);
  if (image && !opt_.kernel_file.empty()) {
    o.file = opt_.kernel_file;  // named by the user: not confined to the sysroot
  } else if (image && o.path == kRunningKernelObject) {
    // A Linux kernel named by kallsyms: this machine's running kernel, or the one a saved
    // copy (--kallsyms) describes. Only for a Linux log of it (the _text check that the
    // Symbolizer makes, and for this machine's, the build id when the log's container names
    // one: a saved copy has none to compare).
    if (const LogSystem* sys = system(o.system)) {
      const bool host = opt_.kallsyms_file.empty();
      o.refused = sys->os != LogOs::gnu_linux
                      ? std::string(host ? "this machine's kernel" : "Linux kallsyms") +
                            ", log from " + sys->os_name()
                  : host && !sys->kernel_build_id.empty() &&
                          host_kernel_build_id() != sys->kernel_build_id
                      ? "this machine's kernel is not the log's (build id " +
                            sys->kernel_build_id + ")"
                      : "";
      if (!o.refused.empty()) {
        o.missing = Missing::refused;
        return;
      }
    }
    if (opt_.kallsyms) {
      o.kallsyms = true;  // checked against this boot when its first symbol is wanted
      return;
    }
    o.missing = Missing::not_found;
    return;
  } else if (o.path.empty() || o.path[0] != '/') {
    o.missing = Missing::not_a_file;  // [vdso], //anon, [kernel] ...
    return;
  } else if (auto f = resolve_in_sysroot(opt_.sysroot, o.path)) {
    o.file = *f;
  } else {
    o.missing = Missing::not_found;
    return;
  }
  o.layout = read_elf_layout(o.file);
  if (!o.layout.valid) {
    o.missing = Missing::not_elf;
    o.file.clear();
    return;
  }
  if (const LogSystem* sys = system(o.system)) {
    o.refused = refusal(o.layout, *sys, o.kernel, image);
    if (!o.refused.empty()) {
      // Not the log's object: as if missing, so that nothing of it is used (nor its layout).
      o.missing = Missing::refused;
      o.file.clear();
      o.layout = {};
    }
  }
}

}  // namespace pmcprofile
