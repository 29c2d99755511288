// Helpers for the pmclog-record tests: reading logs back with the library, and facts about
// binaries. Running programs, files and scratch folders come from the tests' support library
// (tests/common/support).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pmclog/pmclog.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace rectest {

using pmclog_test::Ran;
using pmclog_test::run;
using pmclog_test::RunOptions;
using pmclog_test::ScratchDir;

// Options for a run with standard output on `fd` (a pipe, a terminal, /dev/full); the
// descriptor stays the caller's.
inline RunOptions stdout_to(int fd) {
  RunOptions o;
  o.stdout_fd = fd;
  return o;
}

// Options for a run as user `uid` (root only).
inline RunOptions as_user(int uid) {
  RunOptions o;
  o.uid = uid;
  return o;
}

struct Log {
  bool ok = false;
  std::string error;
  pmclog::Abi abi;
  std::vector<pmclog::RecordValue> records;

  std::vector<const pmclog::RecordValue*> of(pmclog::Kind k) const;
  size_t count(pmclog::Kind k) const { return of(k).size(); }
};
Log read_log(const std::string& path);

bool file_exists(const std::string& p);
std::string real_path(const std::string& p);

// The tools and workloads under test, where the build put them (CMakeLists.txt).
inline const std::string kRecord = PMCLOG_RECORD_EXE;
#ifdef PMCLOG_REPORT_EXE
inline const std::string kReport = PMCLOG_REPORT_EXE;
#endif
#ifdef PMCLOG_DUMP_EXE
inline const std::string kDump = PMCLOG_DUMP_EXE;
#endif
inline const std::string kCpuHot = real_path(WORKLOAD_CPU_HOT);
inline const std::string kForkHot = real_path(WORKLOAD_FORK_HOT);
inline const std::string kExecHot = real_path(WORKLOAD_EXEC_HOT);
inline const std::string kMigrateHot = real_path(WORKLOAD_MIGRATE_HOT);
inline const std::string kKernelHot = real_path(WORKLOAD_KERNEL_HOT);
inline const std::string kGarbageFp = real_path(WORKLOAD_GARBAGE_FP);
inline const std::string kFarHot = real_path(WORKLOAD_FAR_HOT);
inline const std::string kNofpPaths = real_path(WORKLOAD_NOFP_PATHS);
inline const std::string kTwoThreads = real_path(WORKLOAD_TWO_THREADS);
inline const std::string kNofpShlib = real_path(WORKLOAD_NOFP_SHLIB);
inline const std::string kNofpShlibIbt = real_path(WORKLOAD_NOFP_SHLIB_IBT);
inline const std::string kNofpThreads = real_path(WORKLOAD_NOFP_THREADS);
inline const std::string kNofpExec = real_path(WORKLOAD_NOFP_EXEC);
inline const std::string kNofpDebugFrame = real_path(WORKLOAD_NOFP_DEBUG_FRAME);
// Size of a symbol from `nm -S` (0 when unknown).
uint64_t symbol_size(const std::string& binary, const std::string& symbol);
// Its address in the file, from `nm` (0 when unknown).
uint64_t symbol_address(const std::string& binary, const std::string& symbol);
// The first "KEY VALUE" line of a workload's output; VALUE parsed as integer (base 0).
bool output_value(const std::string& out, const std::string& key, uint64_t& value);
// Runs pmclog-validate (with --strict: warnings fail too) when it was built; returns its
// exit status, or -1 when absent.
int validate(const std::string& path, std::string* report = nullptr, bool strict = true);

// Records `command` with --call-graph CALL_GRAPH at 999 Hz into `log`.
Ran record_sampled(const std::string& log, const std::string& call_graph,
                   const std::vector<std::string>& command);

#ifdef PMCLOG_REPORT_EXE
// The samples of one leaf function, from the report's folded lines ("a;b;leaf COUNT").
struct LeafStacks {
  std::string leaf;
  uint64_t in_leaf = 0;  // samples whose leaf is `leaf`
  uint64_t matching = 0; // ... whose stack also holds `prefix` and ends with `suffix`
  std::string example;   // a stack in the leaf that does not match, for the message
};
// The leaf is the last name in `suffix` (";caller;leaf"). `report_args` go before the log.
LeafStacks leaf_stacks(const std::string& log, const std::string& prefix,
                       const std::string& suffix,
                       const std::vector<std::string>& report_args = {});
// Success when more than `min_samples` samples are in the leaf and at least 99% of them
// match; either way the numbers are in the message (and on stderr, as measured).
::testing::AssertionResult nearly_all_whole(const LeafStacks& s, uint64_t min_samples);
#endif

}  // namespace rectest
