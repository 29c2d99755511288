#include "print_folded.h"

namespace report {

void write_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                  const pmcprofile::FoldedOptions& o,
                  const std::function<void(std::string_view)>& write) {
  // --by-file: the input is the root frame, so that one stream keeps the profiles apart.
  std::string root;
  for (char c : p.name) root += c == ';' ? ':' : c;
  if (!root.empty()) root += ';';
  pmcprofile::folded_text(p, in.tables, o, root, write);
}

}  // namespace report
