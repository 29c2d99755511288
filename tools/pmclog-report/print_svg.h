// The `svg` output: an interactive flame graph (icicle, reversed), standalone: its own
// script for zoom and search, no network.
#pragma once

#include <string>

#include "pmcprofile/views.h"
#include "svg_options.h"

namespace report {

// One graph of every profile of `in`.
std::string format_svg(const pmcprofile::ProfileView& in, const SvgOptions& o);

}  // namespace report
