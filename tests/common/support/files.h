// Whole-file reads and writes for the tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pmclog_test {

// The file's bytes; "" when it is missing or unreadable (tests compare with what they expect).
std::string slurp(const std::filesystem::path& p);
std::vector<uint8_t> slurp_bytes(const std::filesystem::path& p);

// Creates or replaces the file; throws std::runtime_error when it cannot be written, so that
// a test never goes on with an input it did not make.
void write_file(const std::filesystem::path& p, std::string_view bytes);
void write_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes);

}  // namespace pmclog_test
