// The `pprof` output: one gzip-compressed profile.proto message for a profile.
#pragma once

#include <string>
#include <vector>

#include "pmcprofile/views.h"

namespace report {

struct PprofOptions {
  bool lines = false;    // the symbolizer gave file and line (the mappings say so)
  bool inlines = false;  // inlined calls as lines of their own
  std::vector<std::string> comments;  // the profile's comments (pprof -comments)
};

std::string format_pprof(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                         const PprofOptions& o);

// --diff: the new profile with the base subtracted, as pprof -diff_base BASE NEW computes it
// (the base's samples with negative values).
std::string format_pprof_diff(const pmcprofile::Profile& base, const pmcprofile::Profile& now,
                              const pmcprofile::ProfileView& in, const PprofOptions& o);

}  // namespace report
