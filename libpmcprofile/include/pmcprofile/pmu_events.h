// Reading the pmu-events tables out of a FreeBSD libpmc (format.md §12.2), so that a modern
// log's EV_PMU events get the names the recording system's pmcstat gives them.
//
// The tables are C data compiled into the library: the global array pmu_events_map of
// {cpuid, version, type, table} ends with a NULL cpuid, and each table is an array of
// struct pmu_event (11 or 12 string pointers, name first) ended by an entry whose name, event
// and desc are NULL. The reader finds pmu_events_map through the symbol tables and follows
// each pointer through the relocations that fill it at load time (RELATIVE ones in a shared
// object, section-relative ones in the objects of an archive), or through the value the file
// holds when no relocation applies. Which struct layout the library has is told by where each
// table's terminating entry falls (its symbol's size, or the next object); which cpuid rule it
// has by whether it calls regexec() (12-era trees do).
#pragma once

#include <optional>
#include <string>

#include "pmclog/pmu_events.h"

namespace pmcprofile {

struct PmuEventsRead {
  pmclog::PmuEvents events;
  std::string error;  // "" when read; otherwise a sentence naming the file and what is wrong
};

// Reads FILE: a shared object (libpmc.so.5) or an ar archive of objects (libpmc.a), ELF of
// either class and byte order.
PmuEventsRead read_pmu_events(const std::string& file);

// ROOT/usr/lib/libpmc.so.5, else ROOT/usr/lib/libpmc.a, looked up as resolve_in_sysroot does;
// nullopt when the system has neither.
std::optional<std::string> libpmc_in_sysroot(const std::string& root);

// What a tool's --libpmc FILE and --sysroot ROOT give (FILE wins): the tables, or why there
// are none. A FILE that cannot be read is an error (the user named it); a ROOT without a
// readable libpmc only leaves EV_PMU events unnamed, so that is `missing`, for the notes.
struct LibpmcOption {
  std::optional<pmclog::PmuEvents> events;
  std::string missing;
  std::string error;
};
LibpmcOption load_libpmc(const std::string& sysroot, const std::string& libpmc);

}  // namespace pmcprofile
