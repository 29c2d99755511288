// The `callgraph` output: pmcstat -G's callee-first call graph text, per event.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_callgraph(const pmcprofile::Profile& p, pmcprofile::Session& s,
                             const Config& cfg);

}  // namespace report
