// Helpers of the pmclog-report tests: reading `top` and `folded` text back, copies of
// objects, and ELF facts from binutils (nm, readelf) as an independent oracle. Running the
// tools, files and scratch folders come from the tests' support library (tests/common/support).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "support/elf.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace reptest {

using pmclog_test::build_id;
using pmclog_test::Ran;
using pmclog_test::ScratchDir;
using pmclog_test::slurp;
using pmclog_test::write_file;

// argv through the shared runner with `input` on standard input, as a regular file (empty by
// default), as a log redirected with `<` would be.
inline Ran run(const std::vector<std::string>& argv, const std::string& input = "") {
  pmclog_test::RunOptions o;
  o.stdin_data = input;
  return pmclog_test::run(argv, o);
}

void copy_file(const std::string& from, const std::string& to);  // makes parent folders
// copy_file, then brands the copy FreeBSD's (EI_OSABI 9), so that a fake FreeBSD sysroot built
// from this machine's compiler output is used for FreeBSD logs (the report refuses Linux ELF).
void copy_as_freebsd_elf(const std::string& from, const std::string& to);
void make_dirs(const std::string& path);

// nm's address of a symbol (0 when absent).
uint64_t symbol_address(const std::string& binary, const std::string& symbol);
// The lowest executable PT_LOAD address rounded down to 4 KiB, from readelf -lW.
uint64_t exec_segment_page(const std::string& binary);

struct TopRow {
  std::string event;
  uint64_t self = 0, total = 0;
  std::vector<std::string> columns;  // after the four number columns (command, object, symbol)
  const std::string& symbol() const { return columns.back(); }
};
std::vector<TopRow> parse_top(const std::string& text);
// "stack" -> count; every line must be "frames count".
std::map<std::string, uint64_t> parse_folded(const std::string& text);

// Recordings of the bundled workloads. Recording samples CPU time, so under ctest one test,
// alone on the machine, makes them once (Recordings.Make, into PMCLOG_TEST_RECORDINGS), and
// the tests that only read them share the machine. Run by hand, each test records its own.
// The folder ctest's recordings are in, once complete; "" when there are none.
std::string shared_recordings();
// The hot workload (report-workload-hot, 0.6 s, pmclog-record's defaults): the shared
// recording, or a new one in `dir`; throws std::runtime_error when pmclog-record fails.
std::string hot_recording(const ScratchDir& dir);

// Runs pmclog-write on JSON Lines; returns the log's path (in `dir`).
std::string write_log(const ScratchDir& dir, const std::string& name,
                      const std::vector<std::string>& jsonl);
std::string hex(uint64_t v);

// The synthetic logs' first records (M10, two cpu-clock/instructions pmcs) and where the
// fake sysroot's libc is loaded, shared by the tests that write such logs.
namespace synthetic {
inline constexpr uint64_t kLibBase = 0x800200000;
inline const char* const kInit =
    R"({"type":"initialize","generation":"M10","byte_order":"little","address_width":8,)"
    R"("version":167772160,"arch":1024,"tsc_freq":1000000000,"cpuid":"test","tsc":1000000000})";
inline const char* const kCpuClock =
    R"({"type":"pmcallocatedyn","pmcid":4294053632,"event":131072,"flags":386,"rate":1000,"evname":"cpu-clock"})";
inline const char* const kInstructions =
    R"({"type":"pmcallocatedyn","pmcid":4294053633,"event":131073,"flags":386,"rate":1000,"evname":"instructions"})";
inline constexpr uint32_t kPmcA = 4294053632u, kPmcB = 4294053633u;
}  // namespace synthetic

}  // namespace reptest
