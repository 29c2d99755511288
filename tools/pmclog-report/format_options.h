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
  // Per profile of the view: what its stacks lack, for top's closing lines and --by-file
  // pprof files ("": nothing); the merged outputs (svg, pprof) carry all inputs' in theirs.
  std::vector<std::string> caveats;
};

// Samples whose stacks look cut at a depth limit, over every input: outputs that outlive the
// run's messages (an image, a pprof file) say so themselves.
struct CutStacks {
  uint64_t samples = 0;
  std::vector<uint32_t> depths;  // the limits, ascending
  void add(const pmcprofile::InputReport& r);
  void add(const CutStacks& other);
  // "stacks of N samples probably cut at a depth limit of 32 frames", or "".
  std::string caveat() const;
};

// The options of the outputs made after the logs are read; `in` is what was read (a rule
// may depend on it: the svg's event frame), `cut` what each input's reading found.
FormatOptions format_options(const Config& cfg, const pmcprofile::ProfileView& in,
                             const std::vector<CutStacks>& cut = {});

// perf-script's, which is written while the logs are read.
PerfScriptOptions perf_script_options(const Config& cfg);

}  // namespace report
