// The `speedscope` output: speedscope's JSON file format, sampled profiles.
#pragma once

#include <string>

#include "pmcprofile/views.h"

namespace report {

struct SpeedscopeOptions {
  bool inlines = false;  // inlined calls as frames of their own
  std::string caveat;    // what the stacks lack, after the file's name ("": nothing)
};

// One file for every profile of `in`.
std::string format_speedscope(const pmcprofile::ProfileView& in, const SpeedscopeOptions& o);

}  // namespace report
