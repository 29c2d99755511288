// The `perf-script` output: every sample in the layout of `perf script`.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

// The text grows with the samples (about 130 bytes per frame of each sample):
// write_perf_script hands it to `sink` in pieces of about 1 MiB, so that memory stays flat;
// format_perf_script is the same text as one string.
void write_perf_script(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg,
                       const std::function<void(std::string_view)>& sink);
std::string format_perf_script(const pmcprofile::Profile& p, pmcprofile::Session& s,
                               const Config& cfg);

}  // namespace report
