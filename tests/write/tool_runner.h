// What the write tests share: the tool's path and a fixed checksum; running it, files and
// scratch folders come from the tests' support library (tests/common/support).
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

namespace pmclog::write_test {

namespace fs = std::filesystem;
using namespace pmclog_test;

inline std::string write_bin() { return PMCLOG_WRITE_BIN; }

// FNV-1a, 64-bit: a checksum whose value is fixed by its definition on every machine.
inline uint64_t fnv1a(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace pmclog::write_test
