// The `folded` text: "root;...;leaf count" lines for flamegraph.pl, inferno, speedscope.
#pragma once

#include <string>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_folded(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg);

}  // namespace report
