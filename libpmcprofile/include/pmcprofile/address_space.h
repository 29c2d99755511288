// Address-space replay: per-process mapping sets built from a log's records (in time order),
// answering "which object, and where in it, is this address of this process". Objects come
// from an ObjectTable; a mapping keeps a bias so that object address = address - bias.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "pmcprofile/objects.h"

namespace pmcprofile {

// Why a frame has no symbol (the report's closing lines count these).
enum class Unresolved : uint8_t {
  none,
  no_mapping,      // the address is outside every mapping of its process
  object_missing,  // the object's file was not found (or is not ELF)
  no_symbols,      // the object was read but no symbol covers the address
};
inline constexpr int kUnresolvedKinds = 4;

// Why a frame stayed unresolved, as reports say it ("resolved" for none).
inline const char* unresolved_reason(Unresolved u) {
  switch (u) {
    case Unresolved::no_mapping: return "outside every mapping";
    case Unresolved::object_missing: return "object missing";
    case Unresolved::no_symbols: return "no symbols";
    default: return "resolved";
  }
}

// A frame resolved against the address spaces.
struct Location {
  ObjectId object = kNoObject;  // kNoObject: outside every mapping
  uint64_t address = 0;         // in the object's own addresses; the raw address without one
  bool kernel = false;
};

struct Mapping {
  uint64_t end = UINT64_MAX;  // one past; UINT64_MAX when the log does not say
  ObjectId object = kNoObject;
  uint64_t bias = 0;          // object address = address - bias
};

class AddressSpaces {
 public:
  explicit AddressSpaces(ObjectTable& objects, uint8_t address_width = 8)
      : objects_(objects), width_(address_width) {}

  // PROCEXEC: the old image is gone; the new one is placed at `dynaddr` when the log gives
  // the PIE load base, else at its own addresses when it is not position-independent (an
  // ET_EXEC always: a dynaddr given for one is not a bias). The
  // run-time linker named by its PT_INTERP is placed from `entryaddr` (legacy/M9: the
  // linker's entry point; M10: AT_BASE, its load base).
  void exec(uint32_t pid, std::string_view path, uint64_t entryaddr, uint64_t dynaddr,
            bool two_address_form);
  // PMCATTACH: the process's image, when nothing is known of it yet.
  void attach(uint32_t pid, std::string_view path);
  // MAP_IN: `start` is where the object's first executable page is mapped (a user ET_EXEC
  // is at its own addresses wherever). pid -1: kernel.
  void map_in(uint32_t pid, uint64_t start, std::string_view path, uint64_t end = UINT64_MAX);
  // MAP_OUT: mappings starting in [start, end) go.
  void map_out(uint32_t pid, uint64_t start, uint64_t end);
  void fork(uint32_t parent, uint32_t child);  // the child starts with the parent's mappings
  void exit(uint32_t pid);

  // Whether a frame of a kernel-mode record is a kernel address.
  bool is_kernel_address(uint64_t addr) const;
  Location resolve_user(uint32_t pid, uint64_t addr);
  Location resolve_kernel(uint64_t addr);
  // The kernel object that takes kernel frames when no pid -1 mapping covers them.
  ObjectId fallback_kernel();

  size_t process_count() const { return procs_.size(); }

 private:
  using Maps = std::map<uint64_t, Mapping>;  // by start
  void add(Maps& m, uint64_t start, Mapping map);
  Location lookup(const Maps& m, uint64_t addr) const;

  ObjectTable& objects_;
  uint8_t width_;
  std::unordered_map<uint32_t, Maps> procs_;
  Maps kernel_;
  uint64_t kernel_floor_ = UINT64_MAX;  // lowest pid -1 mapping
  ObjectId fallback_kernel_ = kNoObject;
  // One-entry cache of the last process looked up (samples come in runs of one process).
  uint32_t last_pid_ = 0xFFFFFFFEu;
  Maps* last_maps_ = nullptr;
};

}  // namespace pmcprofile
