// The flame graph drawn: the layout's frames written as SVG, with the page script.
#include "print_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <span>

#include "flamegraph_js.h"  // generated from flamegraph.js (embed_text.cmake)
#include "pmcprofile/diff.h"
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

std::string joined(std::span<const std::string> names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// --title, else "WHAT: EVENTS (INPUTS)".
std::string graph_title(const pmcprofile::Tables& t, const std::vector<uint64_t>& samples,
                        const SvgDrawing& o, const char* what, const std::string& inputs) {
  std::string title = o.title;
  if (title.empty()) {
    std::string evs;
    for (size_t e = 0; e < samples.size(); ++e)
      if (samples[e] != 0) evs += (evs.empty() ? "" : ", ") + t.events[t.distinct_events.first[e]];
    title = std::string(what) + ": " + (evs.empty() ? std::string("no samples") : evs) + " (" +
            inputs + ")";
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
  if (!o.caveat.empty()) sub += "; " + svg::clean(o.caveat);
  return sub;
}

// The image's size, where its rows are and the subtitle's lines.
struct Page {
  double width = 0, height = 0;
  double y0 = 0;  // the y of depth 0: the bottom row of a flame graph, the top row of an icicle
  bool icicle = false;
  std::vector<std::string> sub;  // the subtitle's lines
  double sub_y = 0;              // the first line's baseline
  double y(uint32_t depth) const {
    return icicle ? y0 + depth * svg::kFrameHeight : y0 - depth * svg::kFrameHeight;
  }
};

constexpr double kTopPad = svg::kFontSize * 4.5;         // title, subtitle, controls
constexpr double kBottomPad = svg::kFontSize * 2 + 10;  // details line
constexpr double kControlsY = svg::kFontSize * 3.2;     // "Reset Zoom", the subtitle, "Search"
constexpr double kLineStep = svg::kFontSize * 1.25;
constexpr double kTitleFontSize = 17;  // the style's #title

// The subtitle goes between the controls, centred, on as many lines as it needs. Glyphs are
// taken wider here than for the frames' labels (0.65 em, not 0.59): a line that runs into
// "Reset Search" is worse than a label cut short, and the fonts a browser falls back to
// when Verdana is missing are wider. Under 20 glyphs between the controls (a narrow
// --width), the lines go below them, across the page.
std::vector<std::string> subtitle_lines(const std::string& sub, double width, bool& below) {
  const double glyph = svg::kFontSize * 0.65;
  const double control = 13 * glyph;  // "Reset Search" and a space
  double band = width - 2 * (svg::kPad + control);
  below = band < 20 * glyph;
  if (below) band = width - 2 * svg::kPad;
  return svg::wrap_text(sub, static_cast<size_t>(std::max(1.0, band / glyph)));
}

Page page(const SvgLayout& layout, const SvgDrawing& o, const std::string& sub) {
  Page p;
  p.width = static_cast<double>(o.width);
  bool below = false;
  p.sub = subtitle_lines(sub, p.width, below);
  p.sub_y = kControlsY + (below ? kLineStep : 0);
  const double top = kTopPad + (static_cast<double>(p.sub.size()) - 1 + (below ? 1 : 0)) * kLineStep;
  p.height = top + kBottomPad + (layout.max_depth + 1) * svg::kFrameHeight;
  p.y0 = o.icicle ? top : p.height - kBottomPad - svg::kFrameHeight;
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
void write_head(std::string& out, const Page& p, const std::string& title) {
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
  // The title on one line (many inputs make it long): cut to the page at 0.65 em a glyph,
  // the whole of it in the hover text.
  const std::string shown = svg::cut_text(title, static_cast<size_t>((p.width - 2 * svg::kPad) /
                                                                     (kTitleFontSize * 0.65)));
  if (shown.size() == title.size()) {
    text(out, "title", p.width / 2, svg::kFontSize * 1.8, title);
  } else {
    out += "<text id=\"title\" x=\"";
    append_number(out, p.width / 2);
    out += "\" y=\"";
    append_number(out, svg::kFontSize * 1.8);
    out += "\">";
    append_xml(out, shown);
    out += "<title>";
    append_xml(out, title);
    out += "</title></text>\n";
  }
  if (p.sub.size() == 1) {
    text(out, "sub", p.width / 2, p.sub_y, p.sub[0]);
  } else {  // one element, a <tspan> per line
    out += "<text id=\"sub\" x=\"";
    append_number(out, p.width / 2);
    out += "\" y=\"";
    append_number(out, p.sub_y);
    out += "\">";
    for (size_t i = 0; i < p.sub.size(); ++i) {
      out += "<tspan x=\"";
      append_number(out, p.width / 2);
      out += "\" y=\"";
      append_number(out, p.sub_y + static_cast<double>(i) * kLineStep);
      out += "\">";
      append_xml(out, p.sub[i]);
      out += "</tspan>";
    }
    out += "</text>\n";
  }
  text(out, "unzoom", svg::kPad, kControlsY, "Reset Zoom", "hide");
  text(out, "search", p.width - svg::kPad, kControlsY, "Search");
  text(out, "details", svg::kPad, p.height - svg::kFontSize, " ");
  text(out, "matched", p.width - svg::kPad, p.height - svg::kFontSize, "");
}

// The colour hook: how each frame (by index in the layout) is filled, and a line its hover
// text adds. Empty: colour() of its kind and name, no line.
struct Paint {
  std::vector<std::string> fill;
  std::vector<std::string> note;
};

// One frame: its hover text (name; samples and share; the paint's note; object), its box
// and its label.
void write_frame(std::string& out, const SvgLayout& layout, size_t index, const Page& p,
                 const Paint& paint) {
  const SvgFrame& f = layout.frames[index];
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
  if (!paint.note.empty()) {
    out += '\n';
    append_xml(out, paint.note[index]);
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
  out += paint.fill.empty() ? colour(f.kind, f.name) : paint.fill[index];
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
                   const SvgDrawing& o, const Paint& paint = {}) {
  const Page p = page(layout, o, sub);
  std::string out;
  out.reserve(4096 + layout.frames.size() * 160);
  write_head(out, p, title);
  out += "<g id=\"frames\">\n";
  for (size_t i = 0; i < layout.frames.size(); ++i) write_frame(out, layout, i, p, paint);
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
  return render(layout, graph_title(t, samples, o, "Flame graph", joined(t.inputs)),
                graph_subtitle(t, samples, layout, o), o);
}

namespace {

// --diff's paint: each frame's share of its event's samples (or of all) on both sides,
// tested as top's rows are, Benjamini-Hochberg over the frames drawn; red where the share
// grew, blue where it shrank, deeper the larger the change (against the largest), a neutral
// grey where the change is not significant.
// `scale(frame)`: for the frame a share is of, what turns each side's counts into counts to
// test (1, 1 unless a side mixes periods: pmcprofile::effective_per_weighted).
Paint diff_paint(const SvgLayout& layout, double alpha, size_t& tested, size_t& significant,
                 const std::function<std::pair<double, double>(const SvgFrame&)>& scale) {
  const std::vector<SvgFrame>& fr = layout.frames;
  const auto scaled = [](uint64_t n, double by) {
    return by == 1.0 ? n : static_cast<uint64_t>(std::llround(static_cast<double>(n) * by));
  };
  const auto share = [](uint64_t x, uint64_t n) {
    return n == 0 ? 0.0 : 100.0 * static_cast<double>(x) / static_cast<double>(n);
  };
  std::vector<double> delta(fr.size(), 0), ps;
  std::vector<size_t> at;
  for (size_t i = 0; i < fr.size(); ++i) {
    const SvgFrame& of = fr[fr[i].share_of];
    delta[i] = share(fr[i].samples, of.samples) - share(fr[i].base_samples, of.base_samples);
    if (fr[i].share_of == i || i == 0) continue;  // the base of its own share: 100% both sides
    const auto [sb, sn] = scale(of);
    ps.push_back(pmcprofile::two_proportion_p(scaled(fr[i].base_samples, sb),
                                              scaled(of.base_samples, sb),
                                              scaled(fr[i].samples, sn), scaled(of.samples, sn)));
    at.push_back(i);
  }
  const std::vector<double> q = pmcprofile::benjamini_hochberg(ps);
  std::vector<bool> sig(fr.size(), false);
  std::vector<double> qs(fr.size(), 1);
  double largest = 0;
  for (size_t k = 0; k < at.size(); ++k) {
    qs[at[k]] = q[k];
    sig[at[k]] = q[k] <= alpha && delta[at[k]] != 0;
    if (sig[at[k]]) largest = std::max(largest, std::fabs(delta[at[k]]));
  }
  tested = at.size();
  significant = static_cast<size_t>(std::count(sig.begin(), sig.end(), true));
  Paint paint;
  for (size_t i = 0; i < fr.size(); ++i) {
    const SvgFrame& of = fr[fr[i].share_of];
    char fill[8] = "#e4e4e4";
    if (sig[i]) {
      const double s = 0.15 + 0.85 * std::fabs(delta[i]) / largest;  // a faint change still shows
      const auto light = static_cast<unsigned>(235 - 195 * s);
      std::snprintf(fill, sizeof fill, "#%02x%02x%02x", delta[i] > 0 ? 255u : light, light,
                    delta[i] > 0 ? light : 255u);
    }
    paint.fill.emplace_back(fill);
    char note[160];
    std::snprintf(note, sizeof note, "base %llu (%.2f%%), new %llu (%.2f%%): %+.2f points, %s",
                  static_cast<unsigned long long>(fr[i].base_samples),
                  share(fr[i].base_samples, of.base_samples),
                  static_cast<unsigned long long>(fr[i].samples), share(fr[i].samples, of.samples),
                  delta[i], sig[i] ? "significant" : "not significant");
    std::string line = note;
    if (sig[i]) {
      std::snprintf(note, sizeof note, " (q=%.3g)", qs[i]);
      line += note;
    }
    paint.note.push_back(std::move(line));
  }
  return paint;
}

}  // namespace

std::string format_svg_diff(const pmcprofile::ProfileView& in, const SvgOptions& options,
                            size_t base_inputs, double alpha) {
  const SvgDrawing& o = options.drawing;
  const pmcprofile::Tables& t = in.tables;
  const std::vector<uint64_t> samples =
      pmcprofile::distinct_event_samples({&in.profiles.at(1), 1}, t);
  const std::vector<uint64_t> base =
      pmcprofile::distinct_event_samples({&in.profiles.at(0), 1}, t);
  // A side that mixes periods of an event counts samples x period.
  const std::vector<uint64_t> wb = pmcprofile::period_weights(in.profiles.at(0), t);
  const std::vector<uint64_t> wn = pmcprofile::period_weights(in.profiles.at(1), t);
  const SvgLayout layout = svg::layout_frames(svg::merge_diff_stacks(in, options, wb, wn),
                                             static_cast<double>(o.width), o.min_width);
  // Per distinct event, each side's effective samples per weighted count; the frame a share
  // is of is its event's frame, or the root when one event is drawn without one.
  std::vector<std::pair<double, double>> factor(t.distinct_events.first.size(), {1.0, 1.0});
  std::map<std::string, uint32_t> event_by_label;
  for (uint32_t d = 0; d < factor.size(); ++d) {
    factor[d] = {pmcprofile::effective_per_weighted(in.profiles.at(0), t, d, wb),
                 pmcprofile::effective_per_weighted(in.profiles.at(1), t, d, wn)};
    event_by_label[svg::clean(t.events[t.distinct_events.first[d]])] = d;
  }
  uint32_t sampled = 0, only = 0;  // the root's: the one event with samples
  for (uint32_t d = 0; d < factor.size(); ++d)
    if (samples[d] != 0 || base[d] != 0) ++sampled, only = d;
  const std::pair<double, double> root =
      sampled == 1 ? factor[only] : std::pair<double, double>{1.0, 1.0};
  const auto scale = [&](const SvgFrame& of) -> std::pair<double, double> {
    if (of.kind == FrameKind::event) {
      auto it = event_by_label.find(of.name);
      if (it != event_by_label.end()) return factor[it->second];
    }
    return root;
  };
  size_t tested = 0, significant = 0;
  const Paint paint = diff_paint(layout, alpha, tested, significant, scale);
  const std::span<const std::string> inputs(t.inputs);
  const size_t split = std::min(base_inputs, inputs.size());
  const std::string title =
      graph_title(t, samples, o, "Differential flame graph",
                  joined(inputs.subspan(split)) + " against " + joined(inputs.first(split)));
  uint64_t base_all = 0;
  for (uint64_t n : base) base_all += n;
  std::string sub = graph_subtitle(t, samples, layout, o);
  sub += "; base: " + std::to_string(base_all) + " samples; red: share grew, blue: shrank; " +
         std::to_string(significant) + " of " + std::to_string(tested) +
         " frames changed significantly";
  return render(layout, title, svg::clean(sub), o, paint);
}

}  // namespace report
