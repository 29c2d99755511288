// The `top` text: per event, the functions by self samples, with totals and percentages; and
// the lines every report closes with, on what stayed unresolved.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "pmcprofile/views.h"

namespace report {

struct TopOptions {
  pmcprofile::GroupBy by;
  pmcprofile::SortKey sort = pmcprofile::SortKey::self;
  size_t limit = 0;  // rows per event; 0: every row
};

std::string format_top(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                       const TopOptions& o);

// The key columns (command, object, symbol, ...) of top's rows: their heads, and a row's
// cells, escaped (names come from logs and ELF files).
void append_key_heads(std::vector<std::string>& head, const pmcprofile::GroupBy& by);
void append_key_cells(std::vector<std::string>& cells, const pmcprofile::TopRow& r,
                      const pmcprofile::ProfileView& in, const pmcprofile::GroupBy& by,
                      const pmcprofile::FunctionLabels& label);
// Rows under a "# " head, two spaces apart: the first `numbers` columns right-aligned, the
// others left-aligned, the last one unpadded.
std::string table_text(const std::vector<std::string>& head,
                       const std::vector<std::vector<std::string>>& rows, size_t numbers);

// What the command line named, which picks the hint after an object that was not found.
struct UnresolvedOptions {
  bool sysroot = false;      // --sysroot
  bool kernel_file = false;  // --kernel
};

// The closing lines every report has: what stayed unresolved and why ("# " prefixed).
std::string format_unresolved(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                              const UnresolvedOptions& o);

}  // namespace report
