#include "pmcprofile/objects.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "pmcprofile/sysroot.h"

namespace pmcprofile {
namespace {

std::string last_component(std::string_view p) {
  const size_t slash = p.rfind('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

// The _text address /proc/kallsyms gives, 0 when unreadable or hidden (kptr_restrict).
uint64_t kallsyms_text_address() {
  std::ifstream in("/proc/kallsyms");
  std::string line;
  while (std::getline(in, line)) {
    const size_t sp = line.find(' ');
    if (sp == std::string::npos) continue;
    if (line.size() > sp + 3 && line.compare(sp + 3, std::string::npos, "_text") == 0)
      return std::strtoull(line.c_str(), nullptr, 16);
  }
  return 0;
}

constexpr uint32_t kNtGnuBuildId = 3;  // NT_GNU_BUILD_ID, owner "GNU"

// The build id in one note block, "" if none.
std::string build_id_in(Elf_Data* d) {
  static const char kHex[] = "0123456789abcdef";
  size_t at = 0, name_at = 0, desc_at = 0;
  GElf_Nhdr nh;
  while (d != nullptr && at < d->d_size &&
         (at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) != 0) {
    const auto* base = static_cast<const char*>(d->d_buf);
    if (nh.n_type == kNtGnuBuildId && nh.n_namesz == 4 &&
        std::string_view(base + name_at, 4) == std::string_view("GNU\0", 4) && nh.n_descsz > 0) {
      std::string hex;
      for (size_t i = 0; i < nh.n_descsz; ++i) {
        const auto b = static_cast<uint8_t>(base[desc_at + i]);
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
      }
      return hex;
    }
  }
  return {};
}

}  // namespace

bool is_kernel_image_path(std::string_view path) {
  if (path == "[kernel.kallsyms]" || path == "[kernel]") return true;
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
      } else if (ph.p_type == PT_NOTE && l.build_id.empty()) {
        l.build_id = build_id_in(elf_getdata_rawchunk(e, static_cast<int64_t>(ph.p_offset),
                                                      ph.p_filesz,
                                                      ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR));
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
    for (Elf_Scn* scn = nullptr; l.build_id.empty() && (scn = elf_nextscn(e, scn)) != nullptr;) {
      GElf_Shdr sh;
      if (gelf_getshdr(scn, &sh) != nullptr && sh.sh_type == SHT_NOTE)
        l.build_id = build_id_in(elf_getdata(scn, nullptr));
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

ObjectId ObjectTable::intern(std::string_view path, bool kernel) {
  auto it = by_path_.find(std::string(path));
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
  by_path_.emplace(o.path, id);
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
  } else if (image && o.path == "[kernel.kallsyms]") {
    if (opt_.kallsyms) o.kallsyms_text = kallsyms_text_address();
    if (o.kallsyms_text != 0) {
      o.kallsyms = true;
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
  }
}

}  // namespace pmcprofile
