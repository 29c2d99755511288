// The records a log opens with, before the first sample: the PMCL container (--container),
// INITIALIZE, one PMCALLOCATE(DYN) per event, the kernel's MAP_IN, then the processes that
// are recorded. Every record is stamped t0, the start of the recording.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <vector>

#include "conversion_setup.h"
#include "event_opening.h"
#include "log_sink.h"
#include "options.h"
#include "record_conversion.h"

namespace record {

// The container, when --container asks for it: the bytes in front of every record.
void write_container(const Options& opt, LogSink& sink);

// INITIALIZE: the generation's PMC_VERSION, cputype GENERIC, this machine's cpuid string.
void write_initialize(LogSink& sink, uint64_t t0);

// One PMCALLOCATE(DYN) per event, and per CPU with -a; a note when the generation has no
// record that carries an event's name.
void write_pmc_allocations(const Options& opt, const std::vector<EventChoice>& events,
                           const PmcNumbering& pmcid_of, const std::vector<int>& cpus,
                           LogSink& sink, uint64_t t0);

// MAP_IN of the kernel's text, when its start is known. For a recording with kernel frames.
void write_kernel_map(LogSink& sink, uint64_t t0);

// The processes recorded, told to the converter and the log: the command's child (PMCATTACH
// names the recorder, whose fork it still is), each `attached` process (-p, and the process
// of each -t thread: PMCATTACH, then its threads and mappings), or with -a every process of
// /proc, once counting has started.
void announce_targets(const Options& opt, bool command_mode, pid_t child,
                      const std::vector<pid_t>& attached,
                      const std::vector<uint32_t>& process_pmcids, const OpenedEvents& opened,
                      Converter& conv, LogSink& sink, uint64_t t0);

}  // namespace record
