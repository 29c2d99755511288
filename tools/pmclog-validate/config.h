// What the user asked the checker to do (from the command line, or from a test).
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "pmclog/pmu_events.h"
#include "rules.h"

namespace pmclog::validate {

struct Config {
  std::bitset<kRuleCount> enabled;
  std::optional<uint32_t> max_cpu;  // highest valid CPU number
  uint64_t max_diagnostics = 0;     // per file; 0 = keep all
  // The recording system's pmu-events tables (--libpmc, --sysroot), which name EV_PMU events,
  // or why there are none; without them such an event is only noted, once per run, in `notes`.
  const PmuEvents* pmu_events = nullptr;
  std::string pmu_missing;
  std::set<std::string>* notes = nullptr;
  // Called now and then while a file is read, with the offset reached (in decompressed bytes
  // for compressed input): the tool's progress line. May be empty.
  std::function<void(uint64_t offset)> progress;

  bool on(Rule r) const { return enabled[static_cast<size_t>(r)]; }
  void set(Rule r, bool v) { enabled[static_cast<size_t>(r)] = v; }

  // The default rule set: every rule whose Default is `on`, plus the pedantic ones when
  // asked, plus cpu-out-of-range when a limit is given.
  static Config defaults(bool pedantic, std::optional<uint32_t> max_cpu) {
    Config c;
    c.max_cpu = max_cpu;
    for (const RuleInfo& r : rules()) {
      const bool on = r.when == Default::on || (r.when == Default::pedantic && pedantic) ||
                      (r.when == Default::max_cpu && max_cpu.has_value());
      c.set(r.rule, on);
    }
    return c;
  }
};

}  // namespace pmclog::validate
