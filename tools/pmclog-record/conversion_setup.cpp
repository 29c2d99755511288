#include "conversion_setup.h"

#include <fstream>
#include <string>

#include "pmc_ids.h"
#include "pmclog/names.h"

namespace record {

namespace {

// Where code can be, for cutting garbage callchains. x86-64: user space ends at 2^47 and
// the kernel's half begins at -2^47 (2^56 with 5-level paging, which Linux shows as the
// la57 flag). Elsewhere only the mappings are checked.
void set_code_limits(ConversionConfig& cc) {
#if defined(__x86_64__)
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  bool la57 = false;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) {
      la57 = (line + ' ').find(" la57 ") != std::string::npos;
      break;
    }
  const int bits = la57 ? 56 : 47;
  cc.user_end = uint64_t{1} << bits;
  cc.kernel_start = ~uint64_t{0} << bits;
#else
  (void)cc;
#endif
}

}  // namespace

PmcNumbering::PmcNumbering(const Options& opt, const std::vector<EventChoice>& events)
    : events_(events),
      generation_(opt.abi.generation),
      system_wide_(opt.system_wide),
      mode_(opt.system_wide ? kModeSystemSampling
            : opt.counting  ? kModeProcessCounting
                            : kModeProcessSampling) {}

uint32_t PmcNumbering::operator()(size_t event, int cpu) const {
  const uint32_t klass = events_[event].spec.hardware ? kClassIap : kClassSoft;
  pmclog::PmcIdParts parts{};
  parts.any_cpu = !system_wide_ || cpu < 0;
  parts.cpu = parts.any_cpu ? 0 : static_cast<uint32_t>(cpu);
  parts.mode = mode_;
  parts.klass = klass;
  parts.row = static_cast<uint32_t>(event);
  return pmclog::make_pmcid(parts, generation_);
}

ConversionConfig conversion_config(const Options& opt, uint32_t depth, size_t nevents,
                                   const OpenedEvents& opened, const PmcNumbering& pmcid_of) {
  ConversionConfig cc;
  cc.depth = depth;
  cc.counting = opt.counting;
  cc.user_callchain = opt.user_callchain;
  cc.dwarf = opt.call_graph == Options::CallGraph::dwarf;
  set_code_limits(cc);
  for (const auto& [id, info] : opened.ids) cc.pmcid_of_id[id] = pmcid_of(info.event, info.cpu);
  for (size_t ei = 0; ei < nevents; ++ei) {
    if (!opt.system_wide) {
      cc.process_pmcids.push_back(pmcid_of(ei, -1));
      cc.event_of_pmcid[pmcid_of(ei, -1)] = ei;
    }
  }
  return cc;
}

}  // namespace record
