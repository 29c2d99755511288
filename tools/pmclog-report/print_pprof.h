// The `pprof` output: one gzip-compressed profile.proto message for a profile.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_pprof(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg);

}  // namespace report
