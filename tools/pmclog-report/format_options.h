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

// The options of the outputs made after the logs are read; `in` is what was read (a rule
// may depend on it: the svg's event frame).
FormatOptions format_options(const Config& cfg, const pmcprofile::ProfileView& in);

// perf-script's, which is written while the logs are read.
PerfScriptOptions perf_script_options(const Config& cfg);

}  // namespace report
