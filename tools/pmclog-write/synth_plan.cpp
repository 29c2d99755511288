#include "synth_plan.h"

#include "pmclog/layout.h"

namespace pmclog::write {

uint64_t RecordPlan::bytes() const {
  uint64_t sum = 0;
  for (const PlannedRecord& r : records) sum += r.bytes;
  return sum;
}

RecordPlanner::RecordPlanner(const Abi& abi, const World& world)
    : modern_(!abi.legacy()), has_maps_(abi.generation != Generation::L1), world_(world) {
  for (size_t k = 0; k < fixed_.size(); ++k)
    if (const Layout* l = layout_for(abi, static_cast<Kind>(k))) fixed_[k] = l->fixed_size;
}

void RecordPlanner::add(RecordPlan& plan, Kind k, uint32_t tick_ns, uint32_t index) const {
  plan.records.push_back({k, fixed(k), tick_ns, index, nullptr});
}

void RecordPlanner::add_path(RecordPlan& plan, Kind k, uint32_t tick_ns, uint32_t index,
                             const std::string& path) const {
  plan.records.push_back({k, path_len(k, path.size()), tick_ns, index, &path});
}

SpawnPlan RecordPlanner::spawn(uint32_t program, bool forked) const {
  const auto& objs = world_.objects();
  const std::vector<uint32_t> space = world_.address_space(program);
  SpawnPlan plan;
  plan.spawn.tick_ns = 5000;
  if (forked) add(plan.spawn, Kind::procfork, 0);
  if (modern_) {
    add(plan.spawn, Kind::proc_create, 0);
    add(plan.spawn, Kind::thr_create, 200);
  }
  if (forked) add_path(plan.spawn, Kind::procexec, 20000, 0, objs[space[0]].path);
  if (has_maps_)
    for (uint32_t i = 0; i < space.size(); ++i)
      add_path(plan.spawn, Kind::map_in, 500, i, objs[space[i]].path);
  plan.exit = exit(1, space.size());  // a new process has one thread
  return plan;
}

RecordPlan RecordPlanner::exit(size_t threads, size_t maps) const {
  RecordPlan plan;
  plan.tick_ns = 5000;
  if (modern_)
    for (size_t t = threads; t-- > 0;) add(plan, Kind::thr_exit, 0, static_cast<uint32_t>(t));
  // Unmapping happens while the process still exists (munmap); checkers forget a
  // process's mappings at its exit.
  if (has_maps_)
    for (size_t m = maps; m-- > 0;) add(plan, Kind::map_out, 300, static_cast<uint32_t>(m));
  add(plan, Kind::procexit, 0);
  add(plan, Kind::sysexit, 0);
  return plan;
}

}  // namespace pmclog::write
