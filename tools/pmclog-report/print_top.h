// The `top` text: per event, the functions by self samples, with totals and percentages; and
// the lines every report closes with, on what stayed unresolved.
#pragma once

#include <cstddef>
#include <string>

#include "pmcprofile/views.h"

namespace report {

struct TopOptions {
  pmcprofile::GroupBy by;
  pmcprofile::SortKey sort = pmcprofile::SortKey::self;
  size_t limit = 0;  // rows per event; 0: every row
};

std::string format_top(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                       const TopOptions& o);

// What the command line named, which picks the hint after an object that was not found.
struct UnresolvedOptions {
  bool sysroot = false;      // --sysroot
  bool kernel_file = false;  // --kernel
};

// The closing lines every report has: what stayed unresolved and why ("# " prefixed).
std::string format_unresolved(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                              const UnresolvedOptions& o);

}  // namespace report
