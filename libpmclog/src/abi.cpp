#include "pmclog/abi.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace pmclog {

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return std::tolower(c); });
  return r;
}
}  // namespace

uint32_t Abi::callchain_depth_max() const {
  switch (generation) {
    case Generation::L1: return 0;
    case Generation::L2: return 32;
    case Generation::L3: return 128;
    case Generation::M9:
    case Generation::M10: return 512;
  }
  return 0;
}

std::string_view generation_name(Generation g) {
  switch (g) {
    case Generation::L1: return "L1";
    case Generation::L2: return "L2";
    case Generation::L3: return "L3";
    case Generation::M9: return "M9";
    case Generation::M10: return "M10";
  }
  return "?";
}

std::optional<Generation> parse_generation(std::string_view s) {
  const std::string l = lower(s);
  if (l == "l1") return Generation::L1;
  if (l == "l2") return Generation::L2;
  if (l == "l3") return Generation::L3;
  if (l == "m9") return Generation::M9;
  if (l == "m10") return Generation::M10;
  return std::nullopt;
}

std::string_view byte_order_name(ByteOrder o) {
  return o == ByteOrder::little ? "little" : "big";
}

std::optional<ByteOrder> parse_byte_order(std::string_view s) {
  const std::string l = lower(s);
  if (l == "little" || l == "le" || l == "little-endian") return ByteOrder::little;
  if (l == "big" || l == "be" || l == "big-endian") return ByteOrder::big;
  return std::nullopt;
}

std::string describe(const Abi& abi) {
  std::string s(generation_name(abi.generation));
  s += ", ";
  s += std::to_string(abi.address_width * 8);
  s += "-bit addresses, ";
  if (abi.narrow()) {
    s.resize(s.size() - 2);
    s += " in " + std::to_string(abi.slot_width() * 8) + "-bit slots, ";
  }
  s += byte_order_name(abi.byte_order);
  s += "-endian";
  if (!abi.legacy() && abi.time_width != abi.long_width()) {
    s += ", ";
    s += std::to_string(abi.time_width * 8);
    s += "-bit time_t";
  }
  return s;
}

bool valid_address_form(const Abi& abi) {
  const int w = abi.address_width, s = abi.slot_width();
  return (w == 4 || w == 8) && (s == w || (w == 4 && s == 8));
}

}  // namespace pmclog
