#include "print_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string_view>

#include "flamegraph_js.h"  // generated from flamegraph.js (embed_text.cmake)
#include "svg_geometry.h"
#include "svg_text.h"
#include "svg_tree.h"

namespace report {
namespace {

using svg::append_number;
using svg::append_xml;
using svg::clean;
using svg::FrameKind;
using svg::kFontSize;
using svg::kFontWidth;
using svg::kFrameHeight;
using svg::kPad;
using svg::percent;

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

// A colour from the frame's name: the same function has the same colour in every graph.
// Each kind has its own band of hues: user code flamegraph.pl's "hot" red-yellow, kernel
// blue, inlined aqua, unresolved grey, the frames the tool adds (all, input, event,
// command) lavender.
std::string colour(FrameKind k, std::string_view name) {
  const uint64_t h = fnv1a(name);
  const double v1 = static_cast<double>(h & 0xFFFF) / 65535.0;
  const double v2 = static_cast<double>((h >> 16) & 0xFFFF) / 65535.0;
  const double v3 = static_cast<double>((h >> 32) & 0xFFFF) / 65535.0;
  double r = 0, g = 0, b = 0;
  switch (k) {
    case FrameKind::user: r = 205 + 50 * v3; g = 230 * v1; b = 55 * v2; break;
    case FrameKind::kernel: r = 80 + 60 * v1; g = 80 + 60 * v1; b = 190 + 55 * v2; break;
    case FrameKind::inlined: r = 50 + 60 * v1; g = 165 + 55 * v1; b = 165 + 55 * v1; break;
    case FrameKind::unresolved: r = g = b = 160 + 50 * v1; break;
    default: r = 190 + 20 * v1; g = 190 + 20 * v1; b = 225 + 20 * v2; break;
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<unsigned>(r), static_cast<unsigned>(g),
                static_cast<unsigned>(b));
  return buf;
}


}  // namespace

std::string format_svg(const std::vector<pmcprofile::Profile>& ps, pmcprofile::Session& s,
                       const Config& cfg) {
  const pmcprofile::Tables& t = s.tables();
  const SvgOptions& o = cfg.svg;
  const svg::EventGroups events = svg::group_events(ps, t);
  const svg::FrameTree tree = svg::merge_stacks(ps, s, events, cfg);
  const std::vector<svg::TreeNode>& nodes = tree.nodes();
  const std::vector<svg::FrameLabel>& labels = tree.labels();
  const uint64_t all = nodes[0].total;

  // Children lists in one array (first[k] .. first[k + 1]), not a vector per node.
  std::vector<uint32_t> first(nodes.size() + 1, 0), kids(nodes.size() > 0 ? nodes.size() - 1 : 0);
  for (size_t k = 1; k < nodes.size(); ++k) ++first[nodes[k].parent + 1];
  for (size_t k = 0; k < nodes.size(); ++k) first[k + 1] += first[k];
  {
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (size_t k = 1; k < nodes.size(); ++k) kids[fill[nodes[k].parent]++] = static_cast<uint32_t>(k);
  }
  auto children = [&](uint32_t k) {
    return std::span<uint32_t>(kids.data() + first[k], first[k + 1] - first[k]);
  };

  // Siblings sorted by name (flamegraph.pl's order: the picture does not change between
  // runs), inputs kept in the order given. Only drawn frames need it.
  auto by_name = [&](uint32_t a, uint32_t b) {
    const svg::FrameLabel& la = labels[nodes[a].label];
    const svg::FrameLabel& lb = labels[nodes[b].label];
    if (la.kind == FrameKind::input && lb.kind == FrameKind::input) return nodes[a].label < nodes[b].label;
    if (la.name != lb.name) return la.name < lb.name;
    if (la.about != lb.about) return la.about < lb.about;
    return nodes[a].label < nodes[b].label;
  };

  // Layout: x of every node from its samples; the narrow ones pruned.
  const double inner = static_cast<double>(o.width) - 2 * kPad;
  const double per_sample = all == 0 ? 0 : inner / static_cast<double>(all);
  std::vector<double> x(nodes.size(), kPad);
  std::vector<uint8_t> drawn(nodes.size(), 0);
  uint64_t shown = 0;
  uint32_t max_depth = 0;
  {
    std::vector<uint32_t> todo{0};
    while (!todo.empty()) {
      const uint32_t k = todo.back();
      todo.pop_back();
      const double w = static_cast<double>(nodes[k].total) * per_sample;
      if (k != 0 && w < o.min_width) continue;  // with its callees, narrower still
      drawn[k] = 1;
      ++shown;
      max_depth = std::max(max_depth, nodes[k].depth);
      double cx = x[k];
      const auto ch = children(k);
      std::sort(ch.begin(), ch.end(), by_name);
      for (uint32_t c : ch) {
        x[c] = cx;
        cx += static_cast<double>(nodes[c].total) * per_sample;
      }
      for (auto it = ch.rbegin(); it != ch.rend(); ++it) todo.push_back(*it);
    }
  }

  const uint64_t pruned = nodes.size() - shown;  // every node not drawn is under a pruned one

  // Title and the line under it.
  std::string title = o.title;
  if (title.empty()) {
    std::string evs, ins;
    for (size_t e = 0; e < events.names.size(); ++e)
      if (events.samples[e] != 0) evs += (evs.empty() ? "" : ", ") + events.names[e];
    for (const auto& in : t.inputs) ins += (ins.empty() ? "" : ", ") + in;
    title = "Flame graph: " + (evs.empty() ? std::string("no samples") : evs) + " (" + ins + ")";
  }
  title = clean(title);
  std::string sub;
  for (size_t e = 0; e < events.names.size(); ++e)
    if (events.samples[e] != 0)
      sub += (sub.empty() ? "" : ", ") + clean(events.names[e]) + ": " + std::to_string(events.samples[e]) +
             " samples";
  if (all == 0) sub = "No samples.";
  if (o.reverse) sub += "; reversed: stacks merged from the leaf";
  if (pruned != 0) {
    std::string mw;
    append_number(mw, o.min_width);
    sub += "; " + std::to_string(pruned) + (pruned == 1 ? " frame" : " frames") + " narrower than " + mw +
           " px not drawn";
  }

  const double top_pad = kFontSize * 4.5;      // title, subtitle, controls
  const double bottom_pad = kFontSize * 2 + 10;  // details line
  const double height = top_pad + bottom_pad + (max_depth + 1) * kFrameHeight;
  const double w_img = static_cast<double>(o.width);
  // The y of depth 0: the bottom row of a flame graph, the top row of an icicle.
  const double y0 = o.icicle ? top_pad : height - bottom_pad - kFrameHeight;

  std::string out;
  out.reserve(4096 + nodes.size() * 160);
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
         "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  append_number(out, w_img);
  out += "\" height=\"";
  append_number(out, height);
  out += "\" viewBox=\"0 0 ";
  append_number(out, w_img);
  out += ' ';
  append_number(out, height);
  out += "\">\n<style><![CDATA[\n"
         "text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}\n"
         "#title{font-size:17px;text-anchor:middle}\n#sub{text-anchor:middle;fill:#444}\n"
         "#search,#matched{text-anchor:end}\n#unzoom,#search{cursor:pointer}\n"
         "#frames g{cursor:pointer}\n#frames g:hover rect{stroke:#000;stroke-width:.5}\n"
         "#frames text{pointer-events:none}\n.par{opacity:.5}\n.hide{display:none}\n"
         "]]></style>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n";
  auto text = [&](const char* id, double tx, double ty, const std::string& body, const char* cls = nullptr) {
    out += "<text id=\"";
    out += id;
    out += '"';
    if (cls) {
      out += " class=\"";
      out += cls;
      out += '"';
    }
    out += " x=\"";
    append_number(out, tx);
    out += "\" y=\"";
    append_number(out, ty);
    out += "\">";
    append_xml(out, body);
    out += "</text>\n";
  };
  text("title", w_img / 2, kFontSize * 1.8, title);
  text("sub", w_img / 2, kFontSize * 3.2, sub);
  text("unzoom", kPad, kFontSize * 3.2, "Reset Zoom", "hide");
  text("search", w_img - kPad, kFontSize * 3.2, "Search");
  text("details", kPad, height - kFontSize, " ");
  text("matched", w_img - kPad, height - kFontSize, "");

  out += "<g id=\"frames\">\n";
  {  // depth-first, so that the file reads like the tree
    std::vector<uint32_t> todo{0};
    while (!todo.empty()) {
      const uint32_t k = todo.back();
      todo.pop_back();
      if (!drawn[k]) continue;
      const svg::TreeNode& n = nodes[k];
      const svg::FrameLabel& l = labels[n.label];
      const double w = static_cast<double>(n.total) * per_sample;
      const double y = o.icicle ? y0 + n.depth * kFrameHeight : y0 - n.depth * kFrameHeight;
      out += "<g><title>";
      append_xml(out, l.name);
      out += '\n';
      out += std::to_string(n.total);
      out += n.total == 1 ? " sample, " : " samples, ";
      out += percent(n.total, nodes[n.base].total);
      if (n.base != 0) {
        out += " of ";
        append_xml(out, labels[nodes[n.base].label].name);
      }
      if (!l.about.empty()) {
        out += '\n';
        append_xml(out, l.about);
      }
      out += "</title><rect x=\"";
      append_number(out, x[k]);
      out += "\" y=\"";
      append_number(out, y);
      out += "\" width=\"";
      append_number(out, w);
      out += "\" height=\"15\" fill=\"";
      out += colour(l.kind, l.name);
      out += "\"/>";
      const std::string lab = svg::fit_label(l.name, w);
      if (!lab.empty()) {
        out += "<text x=\"";
        append_number(out, x[k] + 3);
        out += "\" y=\"";
        append_number(out, y + kFrameHeight - 5.5);
        out += "\">";
        append_xml(out, lab);
        out += "</text>";
      }
      out += "</g>\n";
      const auto ch = children(k);
      for (auto it = ch.rbegin(); it != ch.rend(); ++it) todo.push_back(*it);
    }
  }
  out += "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n";
  // Numbers only: nothing from the log reaches the script.
  char consts[256];
  std::snprintf(consts, sizeof consts, "var T = %llu, W = %u, PAD = %g, FH = %g, FS = %g, FW = %g, IC = %d, Y0 = %.2f;",
                static_cast<unsigned long long>(all), o.width, kPad, kFrameHeight, kFontSize, kFontWidth,
                o.icicle ? 1 : 0, y0);
  out += consts;
  // The page script (flamegraph.js): zoom, search, hover details. It reads everything from
  // the drawn frames (name: the first line of the <title>; samples: "N samples" on the
  // second; depth: y), so the file carries no second copy of the data. Frames are in
  // depth-first order: a frame's callees are the frames after it that are deeper, which
  // gives zoom and search the exact tree without comparing rounded coordinates. It uses the
  // constants above.
  out += '\n';
  out += kFlamegraphJs;
  out += "]]></script>\n</svg>\n";
  return out;
}

}  // namespace report
