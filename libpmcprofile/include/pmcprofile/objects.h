// Objects (executables, shared libraries, kernels) named by a log, interned once per path so
// that the hot path carries small integers (perf's dso, pprof's Mapping). Each object is
// looked up on disk once, lazily, and its ELF program headers read once: they say where its
// code lies, which turns a mapping's start address into the object's own addresses.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pmcprofile {

using ObjectId = uint32_t;
inline constexpr ObjectId kNoObject = 0xFFFFFFFFu;

// Where object files are looked for.
struct LocateOptions {
  std::string sysroot;      // --sysroot/--symfs: every path from the log is looked up under it
  std::string kernel_file;  // --kernel: the kernel image (FreeBSD kernel or Linux vmlinux)
  bool kallsyms = true;     // /proc/kallsyms for "[kernel.kallsyms]" of this machine's boot
};

// What the ELF program headers say (all zero when the file is missing or not ELF).
struct ElfLayout {
  bool valid = false;
  uint16_t type = 0;      // ET_EXEC 2, ET_DYN 3
  uint64_t exec_lo = 0;   // lowest address of executable code, rounded down to a 4 KiB page
  uint64_t exec_hi = 0;   // one past the highest
  uint64_t entry = 0;     // e_entry
  std::string interp;     // PT_INTERP (the run-time linker), "" for none
  std::string build_id;   // NT_GNU_BUILD_ID in lower-case hex, "" for none
  bool exec_offset_known = false;
  uint64_t exec_offset = 0;  // file offset of exec_lo (the lowest executable segment's page)
};

enum class Missing : uint8_t { none, not_a_file, not_found, not_elf };

struct ObjectInfo {
  std::string path;  // as the log names it
  std::string name;  // the last component, for columns and unresolved frames
  bool kernel = false;  // mapped by pid -1 (kernel image or module)
  bool execed = false;  // a PROCEXEC named it: a program, not a library
  // Set by the lookup:
  bool located = false;
  std::string file;      // the host file read for it; "" when missing
  Missing missing = Missing::none;
  bool kallsyms = false;     // symbols come from /proc/kallsyms (absolute addresses)
  uint64_t kallsyms_text = 0;  // its _text, to check that the log is of this boot
  ElfLayout layout;
};

class ObjectTable {
 public:
  explicit ObjectTable(LocateOptions opt = {});
  // The id of a path (and whether pid -1 maps it: the same path is one object either way).
  ObjectId intern(std::string_view path, bool kernel = false);
  // The object, looked up on disk on first use.
  const ObjectInfo& info(ObjectId id);
  ObjectInfo& info_mutable(ObjectId id);
  // Without the disk lookup (for names only).
  const ObjectInfo& peek(ObjectId id) const { return objects_[id]; }
  size_t size() const { return objects_.size(); }
  const LocateOptions& options() const { return opt_; }

 private:
  void locate(ObjectInfo& o);
  LocateOptions opt_;
  std::deque<ObjectInfo> objects_;  // stable references
  std::unordered_map<std::string, ObjectId> by_path_;
};

// Reads the program headers of an ELF file (any byte order and class); invalid layout if not ELF.
ElfLayout read_elf_layout(const std::string& file);

// Whether a path from a log names a kernel image rather than a module or a user object.
bool is_kernel_image_path(std::string_view path);

}  // namespace pmcprofile
