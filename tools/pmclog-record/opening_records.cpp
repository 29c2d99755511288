#include "opening_records.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "diagnostics.h"
#include "pmc_ids.h"
#include "pmclog/container.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "pmcprofile/kallsyms.h"
#include "proc_info.h"

namespace record {

using pmclog::tools::diag;

using pmclog::Field;
using pmclog::Kind;
using pmclog::RecordValue;

namespace {

constexpr uint32_t kCputypeGeneric = 0x400;  // PMC_CPU_GENERIC (format.md §9.4)

// "GenuineIntel-6-55": the kernel's cpuid string format (format.md §8).
std::string cpuid_string() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, vendor = "Unknown";
  int family = 0, model = 0;
  while (std::getline(f, line)) {
    auto val = [&] { return line.substr(line.find(':') + 2); };
    if (line.rfind("vendor_id", 0) == 0) vendor = val();
    else if (line.rfind("cpu family", 0) == 0) family = std::atoi(val().c_str());
    else if (line.rfind("model\t", 0) == 0) model = std::atoi(val().c_str());
    else if (line.empty()) break;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%d-%02X", vendor.c_str(), family, model);
  return buf;
}

void write_pmcattach(uint32_t pmcid, pid_t pid, const std::string& path, LogSink& sink,
                     uint64_t t0) {
  RecordValue r;
  r.kind = Kind::pmcattach;
  r[Field::pmcid] = pmcid;
  r[Field::pid] = static_cast<uint64_t>(pid);
  r.text = path;
  sink.emit(r, t0);
}

}  // namespace

void write_container(const Options& opt, LogSink& sink) {
  if (!opt.container) return;
  const pmclog::Abi& abi = opt.abi;
  // The container's magic and words are in the log's byte order (format.md §18). A log
  // whose address width is not this machine's gets arch "other": the arch is a reader's
  // evidence for the width.
  pmclog::Container c = pmclog::host_container(abi.byte_order);
  const auto w = pmclog::container_arch_width(c.arch);
  if (w && *w != abi.address_width) {
    if (!opt.quiet)
      diag().note("the PMCL container says arch \"other\": this machine's " +
                  std::string(*pmclog::container_arch_name(c.arch)) + " writes " +
                  std::to_string(unsigned{*w}) + "-byte addresses, the log " +
                  std::to_string(unsigned{abi.address_width}) + "-byte ones");
    c.arch = static_cast<uint16_t>(pmclog::ContainerArch::other);
  }
  std::vector<uint8_t> bytes;
  pmclog::encode_container(c, bytes);
  sink.emit_raw(bytes);
}

void write_initialize(LogSink& sink, uint64_t t0) {
  RecordValue init;
  init.kind = Kind::initialize;
  init[Field::version] = pmclog::typical_pmc_version(sink.abi().generation);
  init[Field::arch] = kCputypeGeneric;
  init[Field::tsc_freq] = 1000000000;  // modern "TSC" values are CLOCK_MONOTONIC ns
  const int64_t rt = static_cast<int64_t>(t0) + sink.realtime_offset();
  init[Field::init_ts_sec] = static_cast<uint64_t>(rt / 1000000000);
  init[Field::init_ts_nsec] = static_cast<uint64_t>(rt % 1000000000);
  init.text = cpuid_string();
  sink.emit(init, t0);
}

void write_pmc_allocations(const Options& opt, const std::vector<EventChoice>& events,
                           const PmcNumbering& pmcid_of, const std::vector<int>& cpus,
                           LogSink& sink, uint64_t t0) {
  const pmclog::Generation g = opt.abi.generation;
  // L2 predates PMCALLOCATEDYN: the plain record carries the code but not the name.
  const bool named = pmclog::type_of_kind(g, Kind::pmcallocatedyn).has_value();
  if (!named && !opt.quiet)
    diag().note(std::string(pmclog::generation_name(g)) +
                " logs have no PMCALLOCATEDYN, so the event names are not recorded "
                "(PMCALLOCATE carries only the code)");
  uint32_t flags = opt.counting ? (kFlagLogProccsw | kFlagLogProcexit) : kFlagCallchain;
  if (opt.user_callchain) flags |= kFlagUserCallchain;
  if (!opt.system_wide) flags |= kFlagDescendants;
  for (size_t ei = 0; ei < events.size(); ++ei) {
    // A system-wide pmc per recorded CPU; a process pmc follows its process on any CPU.
    const std::vector<int> rows = opt.system_wide ? cpus : std::vector<int>{-1};
    const EventSpec& spec = events[ei].spec;
    for (int cpu : rows) {
      RecordValue r;
      r.kind = named ? Kind::pmcallocatedyn : Kind::pmcallocate;
      r[Field::pmcid] = pmcid_of(ei, cpu);
      // Soft events are numbered after the dynamic range in FreeBSD; hardware events keep
      // perf's config so the code is recoverable.
      r[Field::event] = spec.hardware ? (spec.config & 0xFFFFFFFF) : 0x20000 + spec.config;
      r[Field::flags] = flags;
      // hwpmc's rate is the reload count (events per sample): known with -c; a frequency
      // (-F) has none, the kernel varies the period, so 0 says "not known".
      r[Field::rate] = opt.counting || !opt.period ? 0 : *opt.period;
      r.text = spec.name;  // what was actually counted
      sink.emit(r, t0);
    }
  }
}

void write_kernel_map(LogSink& sink, uint64_t t0) {
  if (uint64_t k = pmcprofile::kernel_text_start()) {
    RecordValue r;
    r.kind = Kind::map_in;
    r[Field::pid] = pmclog::kKernelPid;
    r[Field::start] = k;
    r.text = "[kernel.kallsyms]";
    sink.emit(r, t0);
  }
}

void announce_targets(const Options& opt, bool command_mode, pid_t child,
                      const std::vector<pid_t>& attached,
                      const std::vector<uint32_t>& process_pmcids, const OpenedEvents& opened,
                      Converter& conv, LogSink& sink, uint64_t t0) {
  if (command_mode && !opt.system_wide) {
    conv.add_child(child, t0);
    if (opt.counting) conv.set_deferred_pid(static_cast<uint32_t>(child));
    const std::string self = proc_exe(getpid());  // the child is still our fork
    for (uint32_t pmcid : process_pmcids) write_pmcattach(pmcid, child, self, sink, t0);
  }
  for (pid_t pid : attached) {
    for (uint32_t pmcid : process_pmcids) write_pmcattach(pmcid, pid, proc_exe(pid), sink, t0);
    conv.add_existing_process(pid, t0, true);
  }
  if (opt.system_wide) {
    // Counting starts before /proc is read: a process forked meanwhile is then told by its
    // FORK record, not missed between the two (its samples had no name).
    set_enabled(opened, true);
    conv.add_idle_task(t0);
    for (pid_t pid : all_pids()) conv.add_existing_process(pid, t0, true);
  }
}

}  // namespace record
