// The `perf-script` output: every sample in the layout of `perf script`.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_perf_script(const pmcprofile::Profile& p, pmcprofile::Session& s,
                               const Config& cfg);

}  // namespace report
