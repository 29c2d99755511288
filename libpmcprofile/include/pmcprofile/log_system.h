// The system a log was recorded on, told from the log alone (its container, INITIALIZE and
// mappings), so that an object file is used for its frames only when it can be the object
// that system mapped (ObjectTable checks each file against it).
//
// Operating system. The format is FreeBSD's: a log is FreeBSD's unless it carries a mark that
// only pmclog-record on Linux leaves:
//   1. a PMCL container whose SYSINFO os_release is not a FreeBSD release ("6.1.0-18-amd64"
//      rather than "14.3-RELEASE"), which settles it either way;
//   2. else a MAP_IN (or MAPPINGCHANGE) whose path is not absolute: perf's names
//      "[kernel.kallsyms]", "[vdso]", "//anon". FreeBSD's kernel logs a mapping only by its
//      file's path, and pmclog-record maps the vDSO of every process it follows.
// A kernel mapping under /boot/ or a hardware cputype in INITIALIZE (pmclog-record always
// writes GENERIC) is named as the evidence when there is one.
// Machine: the container's arch, else INITIALIZE's cputype family, else its cpuid string's
// vendor; with the log's byte order and address width.
// The decision is taken when the first object is looked up, from the records read by then:
// the replay reads up to its reordering window (Options::reorder_window) ahead of that.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pmclog/abi.h"
#include "pmclog/container.h"
#include "pmclog/record.h"

namespace pmcprofile {

enum class LogOs : uint8_t { freebsd, linux };

struct LogSystem {
  LogOs os = LogOs::freebsd;
  std::string os_evidence;  // what said so ("no mark of pmclog-record", "a /boot kernel mapping")
  uint16_t machine = 0;     // ELF e_machine of the kernel (EM_X86_64 ...); 0 not known
  bool big_endian = false;
  uint8_t address_width = 8;
  uint8_t address_slot = 8;
  std::string kernel_build_id;  // the container's SYSINFO, lower-case hex; "" none

  // "FreeBSD" / "Linux".
  const char* os_name() const { return os == LogOs::freebsd ? "FreeBSD" : "Linux"; }
  // Equal keys: the same system, so that objects of several logs are shared.
  std::string key() const;
};

// Collects the evidence as records are read (in file order), and settles once.
class LogSystemProbe {
 public:
  LogSystemProbe(const pmclog::Abi& abi, const std::optional<pmclog::Container>& container);
  void see(const pmclog::Record& r);
  // The decision, taken at the first call and kept.
  const LogSystem& settle();

 private:
  pmclog::Abi abi_;
  LogSystem sys_;
  bool settled_ = false;
  bool container_says_ = false;  // the container's SYSINFO decided the OS
  bool linux_mark_ = false;
  std::string linux_evidence_, freebsd_evidence_;
  uint16_t cputype_machine_ = 0, cpuid_machine_ = 0;
};

// Whether an os_release string is FreeBSD's ("14.3-RELEASE-p2", "15.0-CURRENT").
bool is_freebsd_release(std::string_view release);

}  // namespace pmcprofile
