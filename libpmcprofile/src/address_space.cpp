#include "pmcprofile/address_space.h"

#include "pmclog/layout.h"

namespace pmcprofile {

using pmclog::kKernelPid;
constexpr uint16_t kEtExec = 2;  // ELF e_type of a fixed-address executable
constexpr uint16_t kEtDyn = 3;   // of a PIE or shared object

void AddressSpaces::add(Maps& m, uint64_t start, Mapping map) { m[start] = map; }

void AddressSpaces::exec(uint32_t pid, std::string_view path, uint64_t entryaddr,
                         uint64_t dynaddr, bool two_address_form) {
  last_maps_ = nullptr;
  Maps& m = procs_[pid];
  m.clear();
  const ObjectId id = objects_.intern(path);
  objects_.info_mutable(id).execed = true;
  const ObjectInfo& o = objects_.info(id);
  if (o.layout.valid) {
    // dynaddr is the load base of a PIE (0 for a fixed-address executable). A fixed-address
    // executable runs at its own addresses whatever the log says: a writer that logged its
    // image base there would shift every frame by it.
    if (two_address_form && dynaddr != 0 && o.layout.type != kEtExec) {
      add(m, dynaddr + o.layout.exec_lo, {dynaddr + o.layout.exec_hi, id, dynaddr});
    } else if (o.layout.type != kEtDyn) {
      add(m, o.layout.exec_lo, {o.layout.exec_hi, id, 0});
    }
    // The run-time linker. Logs of older pmclog-record versions hold the image base instead
    // (twice in M10): a page-aligned address is a load base, not an entry point, so it places
    // no linker.
    const bool image_base = entryaddr == dynaddr || (!two_address_form && (entryaddr & 0xFFF) == 0);
    if (!o.layout.interp.empty() && entryaddr != 0 && !image_base) {
      const ObjectId rid = objects_.intern(o.layout.interp);
      const ObjectInfo& r = objects_.info(rid);
      if (r.layout.valid) {
        const uint64_t base = two_address_form ? entryaddr : entryaddr - r.layout.entry;
        add(m, base + r.layout.exec_lo, {base + r.layout.exec_hi, rid, base});
      }
    }
  } else if (two_address_form && dynaddr != 0) {
    // Not on disk: the frame still names the object, at an offset from its load base.
    add(m, dynaddr, {UINT64_MAX, id, dynaddr});
  }
}

void AddressSpaces::attach(uint32_t pid, std::string_view path) {
  auto it = procs_.find(pid);
  if (it != procs_.end() && !it->second.empty()) return;
  last_maps_ = nullptr;
  Maps& m = procs_[pid];
  const ObjectId id = objects_.intern(path);
  const ObjectInfo& o = objects_.info(id);
  if (o.layout.valid && o.layout.type != kEtDyn)
    add(m, o.layout.exec_lo, {o.layout.exec_hi, id, 0});
}

void AddressSpaces::map_in(uint32_t pid, uint64_t start, std::string_view path, uint64_t end) {
  const bool kernel = pid == kKernelPid;
  const ObjectId id = objects_.intern(path, kernel);
  ObjectInfo& o = objects_.info_mutable(id);
  o.mapped_in = true;  // unresolved frames are named by their distance from `start`
  Mapping map{end, id, start};
  if (o.kallsyms) {
    if (o.kallsyms_mapped != 0 && start != o.kallsyms_mapped) {
      // Two places for one kernel: no single boot's kallsyms describes both.
      o.kallsyms = false;
      o.missing = Missing::not_found;
    }
    o.kallsyms_mapped = start;
    map.bias = 0;  // kallsyms holds run-time addresses
  } else if (o.layout.valid) {
    // A user program built for a fixed address has no bias wherever the mapping is said to
    // start (a kernel image may: KASLR slides vmlinux, an ET_EXEC too).
    map.bias = o.layout.type == kEtExec && !kernel ? 0 : start - o.layout.exec_lo;
    if (end == UINT64_MAX) map.end = map.bias + o.layout.exec_hi;
  } else if (kernel && is_kernel_image_path(path)) {
    map.bias = 0;  // an unread kernel image: its frames keep their run-time addresses
  }
  if (kernel) {
    add(kernel_, start, map);
    kernel_floor_ = std::min(kernel_floor_, start);
  } else {
    last_maps_ = nullptr;
    add(procs_[pid], start, map);
  }
}

void AddressSpaces::map_out(uint32_t pid, uint64_t start, uint64_t end) {
  Maps* m = &kernel_;
  if (pid != kKernelPid) {
    auto it = procs_.find(pid);
    if (it == procs_.end()) return;
    m = &it->second;
  }
  auto it = m->lower_bound(start);
  while (it != m->end() && it->first < end) it = m->erase(it);
}

void AddressSpaces::fork(uint32_t parent, uint32_t child) {
  last_maps_ = nullptr;
  auto it = procs_.find(parent);
  if (it == procs_.end()) {
    procs_[child].clear();
    return;
  }
  Maps copy = it->second;
  procs_[child] = std::move(copy);
}

void AddressSpaces::exit(uint32_t pid) {
  last_maps_ = nullptr;
  procs_.erase(pid);
}

bool AddressSpaces::is_kernel_address(uint64_t addr) const {
  if (addr >= kernel_floor_) return true;
  // Without pid -1 mappings: the upper half (64-bit) or the top GiB (32-bit, KERNBASE).
  return width_ == 8 ? addr >= 0xFFFF800000000000ull : addr >= 0xC0000000ull;
}

Location AddressSpaces::lookup(const Maps& m, uint64_t addr) const {
  auto it = m.upper_bound(addr);
  if (it == m.begin()) return {kNoObject, addr, false};
  --it;
  if (addr >= it->second.end) return {kNoObject, addr, false};
  return {it->second.object, addr - it->second.bias, false};
}

Location AddressSpaces::resolve_user(uint32_t pid, uint64_t addr) {
  if (pid != last_pid_ || last_maps_ == nullptr) {
    auto it = procs_.find(pid);
    if (it == procs_.end()) return {kNoObject, addr, false};
    last_pid_ = pid;
    last_maps_ = &it->second;
  }
  return lookup(*last_maps_, addr);
}

ObjectId AddressSpaces::fallback_kernel() {
  if (fallback_kernel_ == kNoObject) fallback_kernel_ = objects_.intern("[kernel]", true);
  return fallback_kernel_;
}

Location AddressSpaces::resolve_kernel(uint64_t addr) {
  Location l = lookup(kernel_, addr);
  if (l.object == kNoObject) {
    // No kernel mapping in the log: the kernel image at its own addresses.
    l.object = fallback_kernel();
    l.address = addr;
  }
  l.kernel = true;
  return l;
}

}  // namespace pmcprofile
