// The `svg` output: an interactive flame graph (icicle, reversed), standalone: its own
// script for zoom and search, no network.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_svg(const std::vector<pmcprofile::Profile>& ps, pmcprofile::Session& s,
                       const Config& cfg);

}  // namespace report
