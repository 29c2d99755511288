// The flame graph drawn: the layout's frames written as SVG, with the page script.
#include "print_svg.h"

#include <cstdio>

#include "flamegraph_js.h"  // generated from flamegraph.js (embed_text.cmake)
#include "pmcprofile/views.h"
#include "svg_geometry.h"
#include "svg_layout.h"
#include "svg_text.h"
#include "svg_tree.h"

namespace report {
namespace {

using svg::append_number;
using svg::append_xml;
using svg::FrameKind;
using svg::SvgFrame;
using svg::SvgLayout;

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

// --title, else "Flame graph: EVENTS (INPUTS)".
std::string graph_title(const pmcprofile::Tables& t, const std::vector<uint64_t>& samples,
                        const SvgDrawing& o) {
  std::string title = o.title;
  if (title.empty()) {
    std::string evs, ins;
    for (size_t e = 0; e < samples.size(); ++e)
      if (samples[e] != 0) evs += (evs.empty() ? "" : ", ") + t.events[t.distinct_events.first[e]];
    for (const auto& in : t.inputs) ins += (ins.empty() ? "" : ", ") + in;
    title = "Flame graph: " + (evs.empty() ? std::string("no samples") : evs) + " (" + ins + ")";
  }
  return svg::clean(title);
}

// The line under the title: samples per event, the direction, what was pruned.
std::string graph_subtitle(const pmcprofile::Tables& t, const std::vector<uint64_t>& samples,
                           const SvgLayout& layout, const SvgDrawing& o) {
  std::string sub;
  for (size_t e = 0; e < samples.size(); ++e)
    if (samples[e] != 0)
      sub += (sub.empty() ? "" : ", ") + svg::clean(t.events[t.distinct_events.first[e]]) + ": " +
             std::to_string(samples[e]) + " samples";
  if (layout.samples == 0) sub = "No samples.";
  if (o.reverse) sub += "; reversed: stacks merged from the leaf";
  if (layout.pruned != 0) {
    std::string mw;
    append_number(mw, o.min_width);
    sub += "; " + std::to_string(layout.pruned) + (layout.pruned == 1 ? " frame" : " frames") +
           " narrower than " + mw + " px not drawn";
  }
  return sub;
}

// The image's size and where its rows are.
struct Page {
  double width = 0, height = 0;
  double y0 = 0;  // the y of depth 0: the bottom row of a flame graph, the top row of an icicle
  bool icicle = false;
  double y(uint32_t depth) const {
    return icicle ? y0 + depth * svg::kFrameHeight : y0 - depth * svg::kFrameHeight;
  }
};

constexpr double kTopPad = svg::kFontSize * 4.5;         // title, subtitle, controls
constexpr double kBottomPad = svg::kFontSize * 2 + 10;  // details line

Page page(const SvgLayout& layout, const SvgDrawing& o) {
  Page p;
  p.width = static_cast<double>(o.width);
  p.height = kTopPad + kBottomPad + (layout.max_depth + 1) * svg::kFrameHeight;
  p.y0 = o.icicle ? kTopPad : p.height - kBottomPad - svg::kFrameHeight;
  p.icicle = o.icicle;
  return p;
}

void text(std::string& out, const char* id, double x, double y, const std::string& body,
          const char* cls = nullptr) {
  out += "<text id=\"";
  out += id;
  out += '"';
  if (cls) {
    out += " class=\"";
    out += cls;
    out += '"';
  }
  out += " x=\"";
  append_number(out, x);
  out += "\" y=\"";
  append_number(out, y);
  out += "\">";
  append_xml(out, body);
  out += "</text>\n";
}

// Everything before the frames: the document, its style, the background, the title and
// subtitle, the controls and the lines the script fills.
void write_head(std::string& out, const Page& p, const std::string& title, const std::string& sub) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
         "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  append_number(out, p.width);
  out += "\" height=\"";
  append_number(out, p.height);
  out += "\" viewBox=\"0 0 ";
  append_number(out, p.width);
  out += ' ';
  append_number(out, p.height);
  out += "\">\n<style><![CDATA[\n"
         "text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}\n"
         "#title{font-size:17px;text-anchor:middle}\n#sub{text-anchor:middle;fill:#444}\n"
         "#search,#matched{text-anchor:end}\n#unzoom,#search{cursor:pointer}\n"
         "#frames g{cursor:pointer}\n#frames g:hover rect{stroke:#000;stroke-width:.5}\n"
         "#frames text{pointer-events:none}\n.par{opacity:.5}\n.hide{display:none}\n"
         "]]></style>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n";
  text(out, "title", p.width / 2, svg::kFontSize * 1.8, title);
  text(out, "sub", p.width / 2, svg::kFontSize * 3.2, sub);
  text(out, "unzoom", svg::kPad, svg::kFontSize * 3.2, "Reset Zoom", "hide");
  text(out, "search", p.width - svg::kPad, svg::kFontSize * 3.2, "Search");
  text(out, "details", svg::kPad, p.height - svg::kFontSize, " ");
  text(out, "matched", p.width - svg::kPad, p.height - svg::kFontSize, "");
}

// One frame: its hover text (name; samples and share; object), its box and its label.
void write_frame(std::string& out, const SvgLayout& layout, const SvgFrame& f, const Page& p) {
  const SvgFrame& base = layout.frames[f.share_of];
  out += "<g><title>";
  append_xml(out, f.name);
  out += '\n';
  out += std::to_string(f.samples);
  out += f.samples == 1 ? " sample, " : " samples, ";
  out += svg::percent(f.samples, base.samples);
  if (f.share_of != 0) {
    out += " of ";
    append_xml(out, base.name);
  }
  if (!f.about.empty()) {
    out += '\n';
    append_xml(out, f.about);
  }
  const double y = p.y(f.depth);
  out += "</title><rect x=\"";
  append_number(out, f.x);
  out += "\" y=\"";
  append_number(out, y);
  out += "\" width=\"";
  append_number(out, f.width);
  out += "\" height=\"15\" fill=\"";
  out += colour(f.kind, f.name);
  out += "\"/>";
  const std::string label = svg::fit_label(f.name, f.width);
  if (!label.empty()) {
    out += "<text x=\"";
    append_number(out, f.x + 3);
    out += "\" y=\"";
    append_number(out, y + svg::kFrameHeight - 5.5);
    out += "\">";
    append_xml(out, label);
    out += "</text>";
  }
  out += "</g>\n";
}

// The page script (flamegraph.js): zoom, search, hover details. It reads everything from
// the drawn frames (name: the first line of the <title>; samples: "N samples" on the
// second; depth: y), so the file carries no second copy of the data. Frames are in
// depth-first order: a frame's callees are the frames after it that are deeper, which gives
// zoom and search the exact tree without comparing rounded coordinates. The constants
// before it are written here.
void write_script(std::string& out, const SvgLayout& layout, const Page& p, const SvgDrawing& o) {
  out += "<script type=\"text/ecmascript\"><![CDATA[\n";
  // Numbers only: nothing from the log reaches the script.
  char consts[256];
  std::snprintf(consts, sizeof consts,
                "var T = %llu, W = %u, PAD = %g, FH = %g, FS = %g, FW = %g, IC = %d, Y0 = %.2f;\n",
                static_cast<unsigned long long>(layout.samples), o.width, svg::kPad, svg::kFrameHeight,
                svg::kFontSize, svg::kFontWidth, o.icicle ? 1 : 0, p.y0);
  out += consts;
  out += kFlamegraphJs;
  out += "]]></script>\n";
}

std::string render(const SvgLayout& layout, const std::string& title, const std::string& sub,
                   const SvgDrawing& o) {
  const Page p = page(layout, o);
  std::string out;
  out.reserve(4096 + layout.frames.size() * 160);
  write_head(out, p, title, sub);
  out += "<g id=\"frames\">\n";
  for (const SvgFrame& f : layout.frames) write_frame(out, layout, f, p);  // reads like the tree
  out += "</g>\n";
  write_script(out, layout, p, o);
  out += "</svg>\n";
  return out;
}

}  // namespace

std::string format_svg(const pmcprofile::ProfileView& in, const SvgOptions& options) {
  const SvgDrawing& o = options.drawing;
  const pmcprofile::Tables& t = in.tables;
  const std::vector<uint64_t> samples = pmcprofile::distinct_event_samples(in.profiles, t);
  // The tree is gone before the drawing starts: the layout holds what is drawn.
  const SvgLayout layout = svg::layout_frames(svg::merge_stacks(in, options),
                                             static_cast<double>(o.width), o.min_width);
  return render(layout, graph_title(t, samples, o), graph_subtitle(t, samples, layout, o), o);
}

}  // namespace report
