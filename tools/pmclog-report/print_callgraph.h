// The `callgraph` output: pmcstat -G's callee-first call graph text, per event.
#pragma once

#include <cstddef>
#include <string>

#include "pmcprofile/views.h"

namespace report {

struct CallgraphOptions {
  size_t depth = 32;     // frames per chain, the leaf included (pmcstat -z)
  bool inlines = false;  // inlined calls as frames of their own
  std::string caveat;    // what the profile's stacks lack, a '#' line of its own ("": none)
};

std::string format_callgraph(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                             const CallgraphOptions& o);

}  // namespace report
