// --diff's outputs: the table (top), FlameGraph's difffolded form (folded), JSON, and the
// gate's GitHub workflow commands and JUnit XML.
#pragma once

#include <string>
#include <vector>

#include "diff_gate.h"
#include "options.h"
#include "pmcprofile/diff.h"

namespace report {

struct DiffReport {
  pmcprofile::DiffResult result;
  std::vector<Tripped> tripped;  // one per --fail-if, in its order
  bool failed() const;
};

// The comparison of the view's two profiles (base, then new).
DiffReport make_diff(const Config& cfg, const pmcprofile::ProfileView& in);

// The text of one output kind (top, folded, json, github or junit).
std::string format_diff(OutputKind kind, const DiffReport& d, const pmcprofile::ProfileView& in,
                        const Config& cfg, const pmcprofile::FoldedOptions& folded);

// One line for a row that tripped a gate (standard error's message).
std::string describe_tripped(const Gate& g, const pmcprofile::DiffRow& r,
                             const pmcprofile::ProfileView& in, const Config& cfg);

}  // namespace report
