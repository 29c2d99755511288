#include "print_folded.h"

#include "pmcprofile/views.h"

namespace report {

std::string format_folded(const pmcprofile::Profile& p, pmcprofile::Session& s, const Config& cfg) {
  pmcprofile::FoldedOptions o;
  // Events are never merged silently: the event is the root unless one event was chosen.
  o.event_frame = cfg.profile.filter.events.size() != 1;
  o.comm_frame = cfg.comm_frame;
  o.inlines = cfg.profile.symbols.inlines;
  // --by-file: the input is the root frame, so that one stream keeps the profiles apart.
  std::string root;
  for (char c : p.name) root += c == ';' ? ':' : c;
  if (!root.empty()) root += ';';
  std::string out;
  for (const std::string& l : pmcprofile::folded_lines(p, s.tables(), o)) {
    out += root;
    out += l;
    out += '\n';
  }
  return out;
}

}  // namespace report
