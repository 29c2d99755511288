// The `svg` output: an interactive flame graph (icicle, reversed), standalone: its own
// script for zoom and search, no network.
#pragma once

#include <string>

#include "pmcprofile/views.h"
#include "svg_options.h"

namespace report {

// One graph of every profile of `in`.
std::string format_svg(const pmcprofile::ProfileView& in, const SvgOptions& o);

// --diff: a differential flame graph in the shape of the new profile (in.profiles[1]), each
// frame coloured by the change of its share since the base (in.profiles[0]; its logs are the
// first `base_inputs` of the tables' inputs): red grew, blue shrank, grey not significant at
// the false discovery rate `alpha`. The hover text gives both counts and the change.
std::string format_svg_diff(const pmcprofile::ProfileView& in, const SvgOptions& o,
                            size_t base_inputs, double alpha);

}  // namespace report
