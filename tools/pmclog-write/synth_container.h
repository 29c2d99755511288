// `pmclog-write synth --container`: a PMCL container (format.md §18) in front of the
// synthetic log, with plausible facts for the synthetic ABI's machine.
#pragma once

#include <cstdint>

#include "pmclog/abi.h"
#include "pmclog/container.h"

namespace pmclog::write {

// The arch code for an ABI: amd64 for 64-bit little-endian, ppc64 for 64-bit big-endian,
// arm for 32-bit little-endian with an 8-byte time_t, other for i386 (no code of its own)
// and 32-bit big-endian. x86 machines (amd64, i386) get CPUID leaves, others none.
uint16_t synth_arch(const Abi& abi);
Container synth_container(const Abi& abi, uint64_t seed);

}  // namespace pmclog::write
