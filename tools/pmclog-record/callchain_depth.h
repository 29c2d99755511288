// How many frames a callchain may hold: the user's --depth, capped by the log's generation and
// by the kernel's limits, with the reason when it was capped.
#pragma once

#include <cstdint>
#include <string>

namespace record {

struct KernelStackLimits {
  // kernel.perf_event_max_stack: the most frames (context markers not counted) an event may
  // ask for in sample_max_stack; a larger request fails with EOVERFLOW. 0: not known.
  uint32_t max_stack = 0;
  // kernel.perf_event_max_contexts_per_stack: the most context markers (kernel, user) one
  // chain may hold; a part after the last allowed marker is left out. -1: not known.
  int32_t max_contexts = -1;
};

// The kernel's limits of this machine, from /proc/sys/kernel.
KernelStackLimits read_kernel_stack_limits();

struct DepthChoice {
  uint32_t depth = 0;  // frames per chain, asked of the kernel as sample_max_stack
  std::string capped_by;  // why it is below the request ("" when it is not)
  std::string note;       // a kernel limit that removes frames otherwise ("" when none)
};

// `contexts_needed`: the chain parts a sample keeps (1; 2 with --user-callchain).
DepthChoice choose_depth(uint32_t requested, uint32_t generation_max, const char* generation,
                         const KernelStackLimits& k, uint32_t contexts_needed);

}  // namespace record
