// The objects of known/known_code.S (every address, size and line known by construction, in
// known/known_code.h) installed in a sysroot as a FreeBSD log names them, and the synthetic
// records the tests that catch a wrong answer write over them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "known/known_code.h"
#include "report_support.h"

namespace known {

inline constexpr uint64_t kExecText = KNOWN_EXEC_TEXT;  // ET_EXEC: .text linked here
inline constexpr uint64_t kPieText = KNOWN_PIE_TEXT;    // PIE: .text here, past its first page
inline constexpr uint32_t kPid = 100;

// Whether this build made the known objects (x86-64 hosts only); the tests skip without them.
inline bool available() { return KNOWN_EXEC[0] != '\0'; }

// Copies a known object to ROOT/PATH, marked as a FreeBSD object (EI_OSABI; the note is in it).
void install(const std::string& object, const std::string& root, const std::string& path);
// The line of known_code.S that carries "KNOWN-LINE name" (0 when none: the test fails).
int line_of(const std::string& name);

// JSON Lines records (docs/jsonl.md) of process kPid, each at an explicit TSC.
std::string sample(uint64_t tsc, const std::vector<uint64_t>& pcs,
                   uint32_t pmc = reptest::synthetic::kPmcA);
std::string map_in(uint64_t tsc, uint64_t start, const std::string& path);
std::string map_out(uint64_t tsc, uint64_t start, uint64_t end);
std::string exec(uint64_t tsc, const std::string& path, uint64_t entryaddr, uint64_t dynaddr);
std::string closelog(uint64_t tsc);

// The first records of a modern log: INITIALIZE at TSC kT0 (1 GHz: a second is 1e9 ticks
// after it) and one cpu-clock pmc.
inline constexpr uint64_t kT0 = 1000000000;
std::vector<std::string> modern_log_start();

// pmclog-report on `args` (its path first).
reptest::Ran report(std::vector<std::string> args);

inline const char* const kExecPath = "/usr/bin/known";
inline const char* const kPiePath = "/usr/bin/known-pie";

// A sysroot holding both known objects at kExecPath and kPiePath (the test skips without them).
struct SysrootTest : ::testing::Test {
  reptest::ScratchDir dir;
  std::string root = dir.file("root");
  void SetUp() override;
  // pmclog-report --sysroot ROOT ARGS LOG, which must exit 0.
  reptest::Ran report_on(std::vector<std::string> args, const std::string& log);
};

}  // namespace known
