#include "print_speedscope.h"

#include <map>
#include <tuple>

#include "cli.h"
#include "pmclog/text.h"
#include "pmcprofile/views.h"

namespace report {
namespace {

// One sampled profile: the stacks of one event in one process (of one input with --by-file).
struct Group {
  size_t input = 0;
  uint32_t event = 0;  // distinct event
  uint32_t pid = 0;
  std::map<uint32_t, uint64_t> comms;  // comm id -> samples: the profile is named by the most
  std::string samples, weights;        // JSON array bodies
  uint64_t total = 0;
};

}  // namespace

std::string format_speedscope(const pmcprofile::ProfileView& in, const SpeedscopeOptions& o) {
  const std::vector<pmcprofile::Profile>& ps = in.profiles;
  const pmcprofile::Tables& t = in.tables;
  std::vector<uint32_t> frame_index(t.functions.size(), UINT32_MAX);  // only frames in use
  std::vector<pmcprofile::FunctionId> frames;
  // (input, distinct event's place in name order, pid) -> group; a map keeps the profiles in
  // a stable order.
  std::vector<uint32_t> event_rank(t.distinct_events.by_name.size());
  for (uint32_t r = 0; r < event_rank.size(); ++r) event_rank[t.distinct_events.by_name[r]] = r;
  std::map<std::tuple<size_t, uint32_t, uint32_t>, Group> groups;
  for (size_t pi = 0; pi < ps.size(); ++pi) {
    pmcprofile::for_each_function_stack(
        ps[pi], t, o.inlines,
        [&](uint32_t ctx, std::span<const pmcprofile::FunctionRef> stack, uint64_t n) {
          const pmcprofile::Context& c = t.context_of(ctx);
          const uint32_t event = t.distinct_events.of[c.event];
          Group& g = groups[{pi, event_rank[event], c.pid}];
          g.event = event;
          g.input = pi;
          g.pid = c.pid;
          g.comms[c.comm] += n;
          if (!g.samples.empty()) {
            g.samples += ',';
            g.weights += ',';
          }
          // Root first, as speedscope's sampled stacks are.
          g.samples += '[';
          for (size_t i = 0; i < stack.size(); ++i) {
            uint32_t& k = frame_index[stack[i].id];
            if (k == UINT32_MAX) {
              k = static_cast<uint32_t>(frames.size());
              frames.push_back(stack[i].id);
            }
            if (i != 0) g.samples += ',';
            g.samples += std::to_string(k);
          }
          g.samples += ']';
          g.weights += std::to_string(n);
          g.total += n;
        });
  }

  std::string out = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",";
  out += "\"exporter\":";
  pmclog::append_json_string(out, std::string("pmclog-report ") + pmclog::tools::cli::version());
  out += ",\"name\":";
  std::string name;
  for (const auto& input : t.inputs) name += (name.empty() ? "" : ", ") + input;
  if (name.empty()) name = "pmclog-report";
  if (!o.caveat.empty()) name += " (" + o.caveat + ")";  // the title speedscope shows
  pmclog::append_json_string(out, name);
  out += ",\"shared\":{\"frames\":[";
  // A frame is the symbol's own name, and where it is: the source file and line with
  // --lines, else the object, as speedscope's pmcstat importer does.
  for (size_t i = 0; i < frames.size(); ++i) {
    const pmcprofile::Function& fn = t.functions[frames[i]];
    if (i != 0) out += ',';
    out += "{\"name\":";
    pmclog::append_json_string(out, fn.name);
    static const std::string none;
    const std::string& file = !fn.file.empty()                    ? fn.file
                              : fn.object != pmcprofile::kNoObject ? in.objects.peek(fn.object).path
                                                                   : none;
    if (!file.empty()) {
      out += ",\"file\":";
      pmclog::append_json_string(out, file);
    }
    if (!fn.file.empty() && fn.line != 0) out += ",\"line\":" + std::to_string(fn.line);
    out += '}';
  }
  out += "]},\"profiles\":[";
  size_t index = 0, active = 0;
  uint64_t most = 0;
  for (const auto& [key, g] : groups) {
    if (index != 0) out += ',';
    // The command with most samples names the process (an exec renames it midway).
    uint32_t comm = g.comms.begin()->first;
    for (const auto& [c, n] : g.comms)
      if (n > g.comms.at(comm)) comm = c;
    std::string pname = t.events[t.distinct_events.first[g.event]] + ": " + t.comms[comm] + " (pid " +
                        std::to_string(static_cast<int32_t>(g.pid)) + ")";
    if (!ps[g.input].name.empty()) pname = ps[g.input].name + ": " + pname;
    out += "{\"type\":\"sampled\",\"name\":";
    pmclog::append_json_string(out, pname);
    out += ",\"unit\":\"none\",\"startValue\":0,\"endValue\":" + std::to_string(g.total);
    out += ",\"samples\":[" + g.samples + "],\"weights\":[" + g.weights + "]}";
    if (g.total > most) {
      most = g.total;
      active = index;
    }
    ++index;
  }
  out += "],\"activeProfileIndex\":" + std::to_string(active) + "}\n";
  return out;
}

}  // namespace report
