#include "size_parse.h"

#include <cctype>
#include <charconv>
#include <string>

namespace pmclog::write {

namespace {
std::optional<uint64_t> number(std::string_view s) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}
}  // namespace

std::optional<uint64_t> parse_size(std::string_view s) {
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  const auto n = number(s.substr(0, digits));
  if (!n) return std::nullopt;
  std::string unit(s.substr(digits));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  uint64_t mul = 1;
  if (unit.empty() || unit == "b") mul = 1;
  else if (unit == "k" || unit == "kib") mul = 1ull << 10;
  else if (unit == "m" || unit == "mib") mul = 1ull << 20;
  else if (unit == "g" || unit == "gib") mul = 1ull << 30;
  else if (unit == "t" || unit == "tib") mul = 1ull << 40;
  else if (unit == "kb") mul = 1000;
  else if (unit == "mb") mul = 1000000;
  else if (unit == "gb") mul = 1000000000;
  else if (unit == "tb") mul = 1000000000000;
  else return std::nullopt;
  if (*n > UINT64_MAX / mul) return std::nullopt;
  return *n * mul;
}

std::optional<std::pair<uint32_t, uint32_t>> parse_range(std::string_view s) {
  const size_t dots = s.find("..");
  const auto lo = number(s.substr(0, dots));
  const auto hi = dots == std::string_view::npos ? lo : number(s.substr(dots + 2));
  if (!lo || !hi || *lo > UINT32_MAX || *hi > UINT32_MAX) return std::nullopt;
  return std::pair{static_cast<uint32_t>(*lo), static_cast<uint32_t>(*hi)};
}

}  // namespace pmclog::write
