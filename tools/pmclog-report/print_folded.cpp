#include "print_folded.h"

namespace report {

std::string format_folded(const pmcprofile::Profile& p, const pmcprofile::ProfileView& in,
                          const pmcprofile::FoldedOptions& o) {
  // --by-file: the input is the root frame, so that one stream keeps the profiles apart.
  std::string root;
  for (char c : p.name) root += c == ';' ? ':' : c;
  if (!root.empty()) root += ';';
  const std::vector<std::string> lines = pmcprofile::folded_lines(p, in.tables, o);
  size_t size = 0;
  for (const std::string& l : lines) size += root.size() + l.size() + 1;
  std::string out;
  out.reserve(size);  // megabytes for deep stacks: no growing copies
  for (const std::string& l : lines) {
    out += root;
    out += l;
    out += '\n';
  }
  return out;
}

}  // namespace report
