#include "print_folded.h"

namespace report {

std::string format_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                          const pmcprofile::FoldedOptions& o) {
  // --by-file: the input is the root frame, so that one stream keeps the profiles apart.
  std::string root;
  for (char c : p.name) root += c == ';' ? ':' : c;
  if (!root.empty()) root += ';';
  std::string out;
  for (const std::string& l : pmcprofile::folded_lines(p, in.tables, o)) {
    out += root;
    out += l;
    out += '\n';
  }
  return out;
}

}  // namespace report
