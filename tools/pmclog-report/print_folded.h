// The `folded` text: "root;...;leaf count" lines for flamegraph.pl, inferno, speedscope.
#pragma once

#include <functional>
#include <string_view>

#include "pmcprofile/views.h"

namespace report {

// pmcprofile::folded_text, with the input as the first frame of a --by-file profile, given
// to `write` a piece at a time.
void write_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                  const pmcprofile::FoldedOptions& o,
                  const std::function<void(std::string_view)>& write);

}  // namespace report
