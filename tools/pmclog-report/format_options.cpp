#include "format_options.h"

#include <algorithm>
#include <iterator>

namespace report {
namespace {

// Whether each stack starts with a frame naming its event: the one place that decides it.
// Every output keeps events apart, never merging their samples silently; how:
// - folded: an event frame unless exactly one event was selected (-e NAME). The rule reads
//   the command line, not the logs, so that a script's lines have one shape whatever a log
//   holds.
// - svg: an event frame when samples of more than one event are drawn: one event needs no
//   frame (the title and subtitle name it), and the graph knows what it draws.
// - top, callgraph, pprof, speedscope: never; each has its own place per event (a table, a
//   tree, a sample type, a profile).
bool event_frame(OutputKind kind, size_t events_selected, size_t events_with_samples) {
  switch (kind) {
    case OutputKind::folded: return events_selected != 1;
    case OutputKind::svg: return events_with_samples > 1;
    default: return false;
  }
}

}  // namespace

void CutStacks::add(const pmcprofile::InputReport& r) {
  if (r.cut_samples != 0) add(CutStacks{r.cut_samples, {r.cut_depth}});
}

void CutStacks::add(const CutStacks& other) {
  samples += other.samples;
  std::vector<uint32_t> both;
  std::set_union(depths.begin(), depths.end(), other.depths.begin(), other.depths.end(),
                 std::back_inserter(both));
  depths = std::move(both);
}

std::string CutStacks::caveat() const {
  if (samples == 0) return {};
  std::string limits;
  for (size_t i = 0; i < depths.size(); ++i)
    limits += (i == 0 ? "" : i + 1 == depths.size() ? " or " : ", ") + std::to_string(depths[i]);
  return "stacks of " + std::to_string(samples) + (samples == 1 ? " sample" : " samples") +
         " probably cut at a depth limit of " + limits + " frames";
}

FormatOptions format_options(const Config& cfg, const pmcprofile::ProfileView& in,
                             const std::vector<CutStacks>& cut_by_input) {
  CutStacks cut;
  for (const CutStacks& c : cut_by_input) cut.add(c);
  const bool inlines = cfg.profile.symbols.inlines;
  const std::vector<uint64_t> samples = pmcprofile::distinct_event_samples(in.profiles, in.tables);
  const size_t selected = cfg.profile.filter.events.size();
  const auto sampled = static_cast<size_t>(
      std::count_if(samples.begin(), samples.end(), [](uint64_t n) { return n != 0; }));
  FormatOptions o;
  o.top = {cfg.by, cfg.sort, cfg.limit};
  o.unresolved.sysroot = !cfg.profile.locate.sysroot.empty();
  o.unresolved.kernel_file = !cfg.profile.locate.kernel_file.empty();
  o.folded.event_frame = event_frame(OutputKind::folded, selected, sampled);
  o.folded.comm_frame = cfg.comm_frame;
  o.folded.inlines = inlines;
  o.svg.drawing = cfg.svg;
  o.svg.drawing.caveat = cut.caveat();
  o.svg.event_frame = event_frame(OutputKind::svg, selected, sampled);
  o.svg.comm_frame = cfg.comm_frame;
  o.svg.inlines = inlines;
  o.callgraph = {cfg.callgraph_depth, inlines, {}};
  o.pprof = {cfg.profile.symbols.lines, inlines, {}};
  if (cut.samples != 0) o.pprof.comments.push_back(cut.caveat());
  o.speedscope.inlines = inlines;
  o.speedscope.caveat = cut.caveat();
  // --by-file: a profile per input, in input order; otherwise one (or --diff's two) of all.
  for (size_t k = 0; k < in.profiles.size(); ++k)
    o.caveats.push_back(!cfg.profile.by_file ? cut.caveat()
                        : k < cut_by_input.size() ? cut_by_input[k].caveat()
                                                  : std::string());
  return o;
}

PerfScriptOptions perf_script_options(const Config& cfg) {
  PerfScriptOptions o;
  o.inlines = cfg.profile.symbols.inlines;
  return o;
}

}  // namespace report
