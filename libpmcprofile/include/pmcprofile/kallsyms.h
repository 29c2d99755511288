// The running Linux kernel's symbol list, /proc/kallsyms: one "ADDRESS TYPE NAME [MODULE]" line
// per symbol. Addresses read as 0 when kernel.kptr_restrict hides them from the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pmcprofile/big_pages.h"

namespace pmcprofile {

inline constexpr const char* kKallsymsPath = "/proc/kallsyms";

// The name a Linux log gives the running kernel's mapping (perf's name for it too): the one
// object whose symbols can come from /proc/kallsyms.
inline constexpr std::string_view kRunningKernelObject = "[kernel.kallsyms]";

struct KernelSymbol {
  uint64_t address = 0;
  std::string_view name;    // without the module; in the KernelSymbols' text
  std::string_view module;  // "ext4" for "NAME\t[ext4]", "" for the kernel's own symbols
};

// The code symbols of one kallsyms file, sorted by address. Each is kept as its address and
// where its name lies in the file's text, which the object keeps: 16 bytes a symbol, where a
// KernelSymbol is 40 (120,000 of those were 4.9 MB of fresh pages to fill, and the parse's
// page faults cost more than its reading).
class KernelSymbols {
 public:
  struct Entry {
    uint64_t address;
    uint32_t name;       // its offset in the text
    uint16_t name_size;
    uint16_t module;     // in modules(): 0 is the kernel's own text
  };
  using Entries = std::vector<Entry, BigPages<Entry>>;
  KernelSymbols() = default;
  // `text` (held by `owner`) is where entries' names lie; modules[0] must be "".
  KernelSymbols(std::shared_ptr<const void> owner, const char* text, Entries entries,
                std::vector<std::string_view> modules)
      : owner_(std::move(owner)), text_(text), entries_(std::move(entries)),
        modules_(std::move(modules)) {}
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  KernelSymbol operator[](size_t i) const {
    const Entry& e = entries_[i];
    return {e.address, std::string_view(text_ + e.name, e.name_size), modules_[e.module]};
  }
  uint64_t address(size_t i) const { return entries_[i].address; }
  // Whether symbols i and j are of one part (the kernel's own text, or one module).
  bool same_part(size_t i, size_t j) const { return entries_[i].module == entries_[j].module; }
  // The index of the first symbol above `address` (size() when none is).
  size_t upper_bound(uint64_t address) const;

 private:
  std::shared_ptr<const void> owner_;  // whatever holds the text
  const char* text_ = nullptr;
  Entries entries_;
  std::vector<std::string_view> modules_;
};

// Where the code of `symbols[i]` may end: kallsyms has no sizes. The next symbol's address
// when it is of the same part (the kernel's own text, or one module); otherwise the end of
// the page after the one it starts in, as perf takes the last symbol's end (past a module's
// last function, or the kernel's, lies another module or none at all), or the next symbol
// if that comes first. The kernel's own `_etext` marks the end of its text: it ends where it
// starts.
uint64_t kernel_symbol_end(const KernelSymbols& symbols, size_t i);

// Address space for the text of a kallsyms file that is streamed (1 GiB): it is read into it
// on a thread of its own while the caller parses what has come, and only the pages the text
// fills are used. A larger file is read again the plain way.
inline constexpr size_t kKallsymsReserve = size_t{1} << 30;

// How a kallsyms file's text is had: a regular file (a saved copy) is mapped, and a file
// without a size (/proc/kallsyms, a pipe) is streamed. `streamed` streams a regular file too,
// for the tests of streaming.
enum class KallsymsReading { map_when_regular, streamed };

// The code symbols (types t, T, w, W), sorted by address; symbols at one address keep the
// file's order. Empty when the file cannot be read.
KernelSymbols read_kernel_code_symbols(const std::string& path,
                                       size_t reserve = kKallsymsReserve,
                                       KallsymsReading how = KallsymsReading::map_when_regular);

// A kallsyms file's code symbols, read once per process for each path and shared: every
// Session of a process names kernel frames from one copy (a program with a session per
// thread), where each would pay for its own reading (for /proc/kallsyms, the kernel's slow
// making of the file: tens of milliseconds for 120,000 lines) and hold its own copy.
std::shared_ptr<const KernelSymbols> shared_kernel_code_symbols(
    const std::string& path = kKallsymsPath);

// Starts shared_kernel_code_symbols(path)'s reading on a thread of its own, so that it
// overlaps the replay: the replay calls it at a log's first kernel frame it can name. Does
// nothing once the reading has started.
void prefetch_kernel_code_symbols(const std::string& path = kKallsymsPath);

// The kernel's text start: _text, or _stext when there is no _text; 0 when the file cannot
// be read or hides its addresses.
uint64_t kernel_text_start(const std::string& path = kKallsymsPath);

// kernel_text_start(path), read once per process for each path.
uint64_t shared_kernel_text_start(const std::string& path = kKallsymsPath);

// Whether a log that maps kRunningKernelObject at `text` recorded the kernel that the
// kallsyms file at `path` describes: /proc/kallsyms for this boot's, or a copy saved when the
// log was recorded (another boot or machine has its _text elsewhere).
inline bool kallsyms_describes(const std::string& path, uint64_t text) {
  return text != 0 && text == shared_kernel_text_start(path);
}

// How many times this process has opened a kallsyms file through the two functions above:
// the profile library reads /proc/kallsyms only for kernel frames it names, and tests check
// that a log without them costs no read.
uint64_t kallsyms_reads();

}  // namespace pmcprofile
