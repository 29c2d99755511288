// The `folded` text: "root;...;leaf count" lines for flamegraph.pl, inferno, speedscope.
#pragma once

#include <string>

#include "pmcprofile/views.h"

namespace report {

// pmcprofile::folded_lines, with the input as the first frame of a --by-file profile.
std::string format_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                          const pmcprofile::FoldedOptions& o);

}  // namespace report
