// The records a spawn or an exit of the synthetic model writes, planned before any of them is
// drawn or written: each record's kind, encoded size, the clock's advance before it and what
// it is about. The model checks a plan's cost against the budget (-n, -s) and then writes
// that same plan, so what it reserves is what it writes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/kind.h"
#include "synth_world.h"

namespace pmclog::write {

struct PlannedRecord {
  Kind kind;
  uint32_t bytes;                     // encoded size
  uint32_t tick_ns = 0;               // the clock's mean advance before it, 0 for none
  uint32_t index = 0;                 // the mapping (MAP_IN, MAP_OUT) or thread (THR_EXIT)
  const std::string* path = nullptr;  // PROCEXEC, MAP_IN: the path it carries
};

struct RecordPlan {
  uint32_t tick_ns = 0;  // the clock's mean advance before the first record
  std::vector<PlannedRecord> records;  // in the order they are written
  uint64_t count() const { return records.size(); }
  uint64_t bytes() const;
};

// A spawn's own records, and its process's exit, reserved from the spawn on: the teardown
// must fit in the budget too.
struct SpawnPlan {
  RecordPlan spawn;
  RecordPlan exit;
  uint64_t count() const { return spawn.count() + exit.count(); }
  uint64_t bytes() const { return spawn.bytes() + exit.bytes(); }
};

class RecordPlanner {
 public:
  RecordPlanner(const Abi& abi, const World& world);

  // The size of a fixed-size record of kind `k`, 0 when the generation has no such kind.
  // From a table: a layout lookup per record (fits() before every sample) was 4% of synth.
  uint32_t fixed(Kind k) const { return fixed_[static_cast<size_t>(k)]; }

  // A process starting `program`: PROCFORK when it is `forked` (not the shell, which was
  // running before the log began), PROC_CREATE and THR_CREATE (modern), PROCEXEC when
  // forked, and MAP_IN of each object of its address space (World::place()'s order).
  SpawnPlan spawn(uint32_t program, bool forked) const;

  // A process with `threads` threads and `maps` mappings exiting: THR_EXIT of each thread
  // (modern) and MAP_OUT of each mapping, the last first, then PROCEXIT and SYSEXIT.
  RecordPlan exit(size_t threads, size_t maps) const;

 private:
  // A record ending with a NUL-terminated path of n characters, padded to 4 bytes.
  uint32_t path_len(Kind k, size_t n) const {
    return static_cast<uint32_t>((fixed(k) + n + 1 + 3) & ~size_t{3});
  }
  void add(RecordPlan& plan, Kind k, uint32_t tick_ns, uint32_t index = 0) const;
  void add_path(RecordPlan& plan, Kind k, uint32_t tick_ns, uint32_t index,
                const std::string& path) const;

  bool modern_;
  bool has_maps_;
  const World& world_;
  std::array<uint32_t, kKindCount + 1> fixed_{};
};

}  // namespace pmclog::write
