// The running Linux kernel's symbol list, /proc/kallsyms: one "ADDRESS TYPE NAME [MODULE]" line
// per symbol. Addresses read as 0 when kernel.kptr_restrict hides them from the caller.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pmcprofile {

inline constexpr const char* kKallsymsPath = "/proc/kallsyms";

struct KernelSymbol {
  uint64_t address = 0;
  std::string name;  // without the module
};

// The code symbols (types t, T, w, W), sorted by address; symbols at one address keep the
// file's order. Empty when the file cannot be read.
std::vector<KernelSymbol> read_kernel_code_symbols(const std::string& path = kKallsymsPath);

// The kernel's text start: _text, or _stext when there is no _text; 0 when the file cannot
// be read or hides its addresses.
uint64_t kernel_text_start(const std::string& path = kKallsymsPath);

// How many times this process has opened a kallsyms file through the two functions above:
// the profile library reads /proc/kallsyms only for kernel frames it names, and tests check
// that a log without them costs no read.
uint64_t kallsyms_reads();

}  // namespace pmcprofile
