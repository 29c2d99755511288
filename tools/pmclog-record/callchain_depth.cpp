#include "callchain_depth.h"

#include <fstream>

namespace record {

namespace {
bool read_sysctl(const char* path, long& v) {
  std::ifstream f(path);
  return static_cast<bool>(f >> v);
}
}  // namespace

KernelStackLimits read_kernel_stack_limits() {
  KernelStackLimits k;
  long v = 0;
  if (read_sysctl("/proc/sys/kernel/perf_event_max_stack", v) && v > 0)
    k.max_stack = static_cast<uint32_t>(v);
  if (read_sysctl("/proc/sys/kernel/perf_event_max_contexts_per_stack", v) && v >= 0)
    k.max_contexts = static_cast<int32_t>(v);
  return k;
}

DepthChoice choose_depth(uint32_t requested, uint32_t generation_max, const char* generation,
                         const KernelStackLimits& k, uint32_t contexts_needed) {
  DepthChoice c;
  c.depth = requested;
  if (generation_max != 0 && c.depth > generation_max) {
    c.depth = generation_max;
    c.capped_by = std::string("the depth limit of ") + generation + " logs";
  }
  // The markers are counted apart (max_contexts), so sample_max_stack is the frame count.
  if (k.max_stack != 0 && c.depth > k.max_stack) {
    c.depth = k.max_stack;
    c.capped_by = "kernel.perf_event_max_stack";
  }
  if (k.max_contexts >= 0 && static_cast<uint32_t>(k.max_contexts) < contexts_needed)
    c.note = k.max_contexts == 0
                 ? "kernel.perf_event_max_contexts_per_stack is 0: samples keep only the "
                   "interrupted address, no callchain"
                 : "kernel.perf_event_max_contexts_per_stack is " +
                       std::to_string(k.max_contexts) +
                       ": kernel-mode samples keep no user-space frames";
  return c;
}

}  // namespace record
