// Record kinds, independent of the generation's type numbering (format.md §6).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pmclog/abi.h"

namespace pmclog {

enum class Kind : uint8_t {
  closelog,
  dropnotify,
  initialize,
  mappingchange,
  pcsample,
  pmcallocate,
  pmcattach,
  pmcdetach,
  proccsw,
  procexec,
  procexit,
  procfork,
  sysexit,
  userdata,
  map_in,
  map_out,
  callchain,
  pmcallocatedyn,
  thr_create,
  thr_exit,
  proc_create,
  unknown,  // a type number the generation does not define
};
inline constexpr int kKindCount = 21;  // known kinds, excluding unknown

// format.md names: "CALLCHAIN", "MAP_IN", "PMCALLOCATEDYN"...
std::string_view kind_name(Kind k);
// Stable lowercase ids used in JSON and on command lines: "callchain", "map-in"...
std::string_view kind_id(Kind k);
// Accepts the id, the format.md name, and pmcstat keywords (case-insensitive).
std::optional<Kind> parse_kind(std::string_view s);

// The kind a type number means in a generation; nullopt when the generation has no such type.
std::optional<Kind> kind_of_type(Generation g, uint8_t type);
// The type number of a kind in a generation; nullopt when the generation lacks the kind.
std::optional<uint8_t> type_of_kind(Generation g, Kind k);

}  // namespace pmclog
