// Each output's options, filled from the command line (Config) in one place, so that the
// formatters see only what they use and each rule shared by outputs is decided once.
#pragma once

#include "options.h"
#include "pmcprofile/views.h"
#include "print_callgraph.h"
#include "print_perf_script.h"
#include "print_pprof.h"
#include "print_speedscope.h"
#include "print_top.h"
#include "svg_options.h"

namespace report {

struct FormatOptions {
  TopOptions top;
  UnresolvedOptions unresolved;
  pmcprofile::FoldedOptions folded;
  SvgOptions svg;
  CallgraphOptions callgraph;
  PprofOptions pprof;
  SpeedscopeOptions speedscope;
};

// Samples whose stacks look cut at a depth limit, over every input: outputs that outlive the
// run's messages (an image, a pprof file) say so themselves.
struct CutStacks {
  uint64_t samples = 0;
  std::vector<uint32_t> depths;  // the limits, ascending
  void add(const pmcprofile::InputReport& r);
  // "stacks of N samples probably cut at a depth limit (32 frames)", or "".
  std::string caveat() const;
};

// The options of the outputs made after the logs are read; `in` is what was read (a rule
// may depend on it: the svg's event frame).
FormatOptions format_options(const Config& cfg, const pmcprofile::ProfileView& in,
                             const CutStacks& cut = {});

// perf-script's, which is written while the logs are read.
PerfScriptOptions perf_script_options(const Config& cfg);

}  // namespace report
