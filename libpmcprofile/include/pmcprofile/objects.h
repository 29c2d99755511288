// Objects (executables, shared libraries, kernels) named by a log, interned once per path so
// that the hot path carries small integers (perf's dso, pprof's Mapping). Each object is
// looked up on disk once, lazily, and its ELF program headers read once: they say where its
// code lies, which turns a mapping's start address into the object's own addresses.
//
// A file is used for a log's object only when it can be the object that log's system mapped
// (log_system.h): its ELF machine, class and byte order agree with the log's, its OS is the
// log's (FreeBSD: EI_OSABI 9 or a FreeBSD ABI note; Linux: anything not branded for another
// OS, since Linux libraries carry no brand), and, for the kernel image, its GNU build id is
// the one the log's container names. A refused file counts as missing, with the reason.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmcprofile/kallsyms.h"
#include "pmcprofile/log_system.h"

namespace pmcprofile {

using ObjectId = uint32_t;
inline constexpr ObjectId kNoObject = 0xFFFFFFFFu;

// Where object files are looked for.
struct LocateOptions {
  std::string sysroot;      // --sysroot/--symfs: every path from the log is looked up under it
  std::string kernel_file;  // --kernel: the kernel image (FreeBSD kernel or Linux vmlinux)
  bool kallsyms = true;     // kallsyms symbols for "[kernel.kallsyms]"
  // --kallsyms: a copy of /proc/kallsyms saved on the log's machine and boot, in place of
  // this machine's ("" for this machine's).
  std::string kallsyms_file;
  const std::string& kallsyms_path() const {
    static const std::string running = kKallsymsPath;
    return kallsyms_file.empty() ? running : kallsyms_file;
  }
};

// The OS an ELF file's ABI note names: FreeBSD's .note.tag (owner "FreeBSD", NT_FREEBSD_ABI_TAG)
// or GNU's .note.ABI-tag (owner "GNU", NT_GNU_ABI_TAG, whose first word is the OS: 0 Linux).
enum class ElfOsNote : uint8_t { none, freebsd, gnu_linux, other };

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
  // The identity: e_ident's class (1 32-bit, 2 64-bit), data (1 LSB, 2 MSB) and OS ABI
  // (0 System V, 3 GNU/Linux, 9 FreeBSD), e_machine, and the ABI note.
  uint8_t elf_class = 0, elf_data = 0, osabi = 0;
  uint16_t machine = 0;
  ElfOsNote os_note = ElfOsNote::none;
};

// Why a file with this layout cannot be an object that `sys` mapped ("" when it can be):
// "Linux ELF, log from FreeBSD". `kernel`: mapped by pid -1 (no 32-bit companion machine);
// `kernel_image`: its build id must be the container's kernel build id when that is known.
std::string refusal(const ElfLayout& l, const LogSystem& sys, bool kernel, bool kernel_image);

// refused: found, but not an object of the log's system (ObjectInfo::refused says why).
enum class Missing : uint8_t { none, not_a_file, not_found, not_elf, refused };

struct ObjectInfo {
  std::string path;  // as the log names it
  std::string name;  // the last component, for columns and unresolved frames
  bool kernel = false;  // mapped by pid -1 (kernel image or module)
  bool execed = false;  // a PROCEXEC named it: a program, not a library
  bool mapped_in = false;  // a MAP_IN placed it: its frames count from its first executable page
  uint32_t system = 0;     // ObjectTable::system(): the log's system this object belongs to
  // Set by the lookup:
  bool located = false;
  std::string file;      // the host file read for it; "" when missing
  Missing missing = Missing::none;
  std::string refused;   // with Missing::refused: why ("Linux ELF, log from FreeBSD")
  // Symbols come from /proc/kallsyms (absolute addresses): until the first symbol is looked
  // up, a candidate; then only if its _text is where the log mapped the kernel (this boot).
  // /proc/kallsyms is read only then: a log without kernel frames to name never reads it.
  bool kallsyms = false;
  uint64_t kallsyms_mapped = 0;  // the MAP_IN start of this object (0: not mapped yet)
  ElfLayout layout;
};

class ObjectTable {
 public:
  explicit ObjectTable(LocateOptions opt = {});
  // The log being read: its probe settles the system at the first intern(), and objects are
  // per (path, system). nullptr (no log, the default): files are taken unchecked.
  void set_log(LogSystemProbe* probe);
  // The id of a path (and whether pid -1 maps it: the same path is one object either way).
  ObjectId intern(std::string_view path, bool kernel = false);
  // The object, looked up on disk on first use.
  const ObjectInfo& info(ObjectId id);
  ObjectInfo& info_mutable(ObjectId id);
  // Without the disk lookup (for names only).
  const ObjectInfo& peek(ObjectId id) const { return objects_[id]; }
  size_t size() const { return objects_.size(); }
  const LocateOptions& options() const { return opt_; }
  // The system of ObjectInfo::system; nullptr for objects interned without a log.
  const LogSystem* system(uint32_t id) const { return id == 0 ? nullptr : &systems_[id - 1]; }
  // Adds another table's objects (made by another Session from later inputs), in id order;
  // returns their ids here. What a log says of an object (a kernel mapping, an exec, its
  // MAP_IN) adds up as if both had read into one table.
  std::vector<ObjectId> absorb(const ObjectTable& later);

 private:
  void locate(ObjectInfo& o);
  uint32_t current_system();
  LocateOptions opt_;
  LogSystemProbe* probe_ = nullptr;
  uint32_t probe_system_ = 0;  // the probe's settled system (0 not yet)
  std::vector<LogSystem> systems_;
  std::unordered_map<std::string, uint32_t> system_ids_;  // by LogSystem::key()
  std::deque<ObjectInfo> objects_;  // stable references
  std::unordered_map<std::string, ObjectId> by_path_;
};

// Reads the program headers of an ELF file (any byte order and class); invalid layout if not ELF.
ElfLayout read_elf_layout(const std::string& file);

// Whether a path from a log names a kernel image rather than a module or a user object.
bool is_kernel_image_path(std::string_view path);

}  // namespace pmcprofile
