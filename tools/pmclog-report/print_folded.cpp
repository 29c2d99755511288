#include "print_folded.h"

namespace report {

std::string format_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                          const pmcprofile::FoldedOptions& o) {
  // --by-file: the input is the root frame, so that one stream keeps the profiles apart.
  std::string root;
  for (char c : p.name) root += c == ';' ? ':' : c;
  if (!root.empty()) root += ';';
  return pmcprofile::folded_text(p, in.tables, o, root);
}

}  // namespace report
