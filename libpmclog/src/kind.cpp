#include "pmclog/kind.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace pmclog {

namespace {

struct KindNames {
  std::string_view name, id, keyword;
};

// Indexed by Kind. The enum follows the legacy numbering (0..17), then the modern 18..20.
constexpr std::array<KindNames, kKindCount + 1> kNames{{
    {"CLOSELOG", "closelog", "closelog"},
    {"DROPNOTIFY", "dropnotify", "drop"},
    {"INITIALIZE", "initialize", "initlog"},
    {"MAPPINGCHANGE", "mappingchange", "mapping"},
    {"PCSAMPLE", "pcsample", "sample"},
    {"PMCALLOCATE", "pmcallocate", "allocate"},
    {"PMCATTACH", "pmcattach", "attach"},
    {"PMCDETACH", "pmcdetach", "detach"},
    {"PROCCSW", "proccsw", "cswval"},
    {"PROCEXEC", "procexec", "exec"},
    {"PROCEXIT", "procexit", "exitval"},
    {"PROCFORK", "procfork", "fork"},
    {"SYSEXIT", "sysexit", "exit"},
    {"USERDATA", "userdata", "userdata"},
    {"MAP_IN", "map-in", "map-in"},
    {"MAP_OUT", "map-out", "map-out"},
    {"CALLCHAIN", "callchain", "callchain"},
    {"PMCALLOCATEDYN", "pmcallocatedyn", "allocatedyn"},
    {"THR_CREATE", "thr-create", "thr-create"},
    {"THR_EXIT", "thr-exit", "thr-exit"},
    {"PROC_CREATE", "proc-create", "create"},
    {"UNKNOWN", "unknown", "unknown"},
}};

std::string normalize(std::string_view s) {
  std::string r;
  for (unsigned char c : s) r += c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return r;
}

// Highest legacy type number per generation (format.md §6).
int legacy_max_type(Generation g) {
  switch (g) {
    case Generation::L1: return 13;
    case Generation::L2: return 16;
    default: return 17;
  }
}

}  // namespace

std::string_view kind_name(Kind k) { return kNames[static_cast<size_t>(k)].name; }
std::string_view kind_id(Kind k) { return kNames[static_cast<size_t>(k)].id; }

std::optional<Kind> parse_kind(std::string_view s) {
  const std::string n = normalize(s);
  for (size_t i = 0; i < kNames.size() - 1; ++i) {
    if (n == kNames[i].id || n == normalize(kNames[i].name) || n == kNames[i].keyword)
      return static_cast<Kind>(i);
  }
  return std::nullopt;
}

std::optional<Kind> kind_of_type(Generation g, uint8_t type) {
  if (g <= Generation::L3) {
    // L2/L3 kept the enum value 3 but dropped MAPPINGCHANGE's struct, and their reader
    // rejects the type (format.md §6, §7): only L1 defines it.
    if (type > legacy_max_type(g) || (type == 3 && g != Generation::L1)) return std::nullopt;
    return static_cast<Kind>(type);
  }
  // Modern renumbering: CLOSELOG/DROPNOTIFY/INITIALIZE became 1/2/3; 0 and 4 are unused.
  switch (type) {
    case 0:
    case 4: return std::nullopt;
    case 1: return Kind::closelog;
    case 2: return Kind::dropnotify;
    case 3: return Kind::initialize;
    default:
      if (type <= 20) return static_cast<Kind>(type);
      return std::nullopt;
  }
}

std::optional<uint8_t> type_of_kind(Generation g, Kind k) {
  const int idx = static_cast<int>(k);
  if (k == Kind::unknown) return std::nullopt;
  if (g <= Generation::L3) {
    if (idx > legacy_max_type(g) || (k == Kind::mappingchange && g != Generation::L1))
      return std::nullopt;
    return static_cast<uint8_t>(idx);
  }
  switch (k) {
    case Kind::closelog: return 1;
    case Kind::dropnotify: return 2;
    case Kind::initialize: return 3;
    case Kind::mappingchange:
    case Kind::pcsample: return std::nullopt;
    default: return static_cast<uint8_t>(idx);
  }
}

}  // namespace pmclog
