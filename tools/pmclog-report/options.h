// pmclog-report's command line, in the tools' shared language (tools/common/cli.h): -h/-V,
// the ABI options, -o/--output FILE, --format KIND.
#pragma once

#include <string>
#include <vector>

#include "diff_gate.h"
#include "pmcprofile/pmu_events.h"
#include "pmcprofile/session.h"
#include "pmcprofile/views.h"
#include "svg_options.h"

namespace report {

// json, github and junit are --diff's only.
enum class OutputKind { top, folded, svg, pprof, callgraph, perf_script, speedscope, json, github, junit };

struct Output {
  OutputKind kind = OutputKind::top;
  std::string file = "-";
};

// --max-stacks's default, in stack-table nodes: far above real profiles (a few hundred
// thousand), below what exhausts a machine (60 to 800 bytes each, measured: README.md,
// "Guarantees and limits").
inline constexpr size_t kDefaultMaxStacks = 10'000'000;

struct Config {
  std::vector<std::string> inputs;
  std::vector<Output> outputs;
  pmcprofile::Options profile;
  pmcprofile::GroupBy by;
  pmcprofile::SortKey sort = pmcprofile::SortKey::self;
  size_t limit = 0;  // 0: every row
  bool comm_frame = false;
  bool progress = true;
  unsigned jobs = 0;  // -j: inputs read at once; 0: one per CPU
  SvgDrawing svg;
  size_t callgraph_depth = 32;  // callgraph: frames per chain, the leaf included (pmcstat -z)
  std::string libpmc_file;          // --libpmc
  pmcprofile::LibpmcOption libpmc;  // read by main: profile.pmu_events points in here
  // --diff BASE... -- NEW...: `inputs` holds both sides, the base's `diff_base` first.
  bool diff = false;
  size_t diff_base = 0;
  double alpha = 0.01;
  std::vector<Gate> fail_if;
};

// Fills `cfg`; false when --help or --version was printed (the run ends with 0). A bad
// option or value throws pmclog::tools::UsageError.
bool parse_options(int argc, char** argv, Config& cfg);

}  // namespace report
