// Parsing the human forms of the synth options: sizes ("4GiB", "512k", "1000000") and
// depth ranges ("2..16", "8").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace pmclog::write {

// Bytes, with an optional suffix: k/K/KiB, M/MiB, G/GiB, T/TiB (powers of 1024), KB/MB/GB/TB
// (powers of 1000).
std::optional<uint64_t> parse_size(std::string_view s);
// "MIN..MAX" or a single "N" (both ends N).
std::optional<std::pair<uint32_t, uint32_t>> parse_range(std::string_view s);

}  // namespace pmclog::write
