// The `top` text: per event, the functions by self samples, with totals and percentages.
#pragma once

#include <string>

#include "options.h"
#include "pmcprofile/session.h"

namespace report {

std::string format_top(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg);
// The closing lines every report has: what stayed unresolved and why ("# " prefixed).
std::string format_unresolved(const pmcprofile::Profile& p, pmcprofile::Session& s);

}  // namespace report
