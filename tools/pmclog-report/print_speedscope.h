// The `speedscope` output: speedscope's JSON file format, sampled profiles.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_speedscope(const std::vector<pmcprofile::Profile>& ps, pmcprofile::Session& s,
                              const Config& cfg);

}  // namespace report
