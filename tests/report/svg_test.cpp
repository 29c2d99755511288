// --format svg: the flame graph is well-formed XML (python's parser), holds the samples the
// folded output counts, renders in headless Chromium, and its page script zooms and
// searches (driven by the scripts in svg/, their findings read back with --dump-dom).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>

#include "mutant_support.h"
#include "report_support.h"

namespace {

using reptest::hex;

const std::string kLeaf = "hotspot::leaf_hot(unsigned long)";
const std::string kMiddle = "hotspot::middle_caller(unsigned long)";
const std::string kScripts = std::string(REPORT_TEST_DIR) + "/svg/";

struct Frame {
  std::string name, fill, label, about;
  uint64_t samples = 0;
  double x = 0, y = 0, width = 0;
};

struct Graph {
  double width = 0, height = 0;
  std::string title, sub;
  std::vector<Frame> frames;
  const Frame* find(const std::string& name) const {
    for (const auto& f : frames)
      if (f.name == name) return &f;
    return nullptr;
  }
  const Frame* widest(const std::string& name) const {
    const Frame* w = nullptr;
    for (const auto& f : frames)
      if (f.name == name && (!w || f.width > w->width)) w = &f;
    return w;
  }
  std::vector<const Frame*> all(const std::string& name) const {
    std::vector<const Frame*> v;
    for (const auto& f : frames)
      if (f.name == name) v.push_back(&f);
    return v;
  }
};

std::vector<std::string> split(const std::string& line, char sep = '\t') {
  std::vector<std::string> v;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, sep)) v.push_back(cell);
  if (!line.empty() && line.back() == sep) v.emplace_back();
  return v;
}

// The SVG read by python's xml.etree (svg/frames.py): fails the test if it is not XML.
Graph parse_svg(const std::string& path) {
  Graph g;
  if (std::string(PYTHON_EXE).empty()) {
    ADD_FAILURE() << "python3 is missing (PYTHON_EXE): it reads the SVG as XML";
    return g;
  }
  const auto r = reptest::run({PYTHON_EXE, kScripts + "frames.py", path});
  EXPECT_EQ(r.status, 0) << "not well-formed: " << r.err;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    const auto c = split(line);
    if (c.empty()) continue;
    if (c[0] == "size" && c.size() == 3) {
      g.width = std::stod(c[1]);
      g.height = std::stod(c[2]);
    } else if (c[0] == "title" && c.size() >= 2) {
      g.title = c[1];
    } else if (c[0] == "sub" && c.size() >= 2) {
      g.sub = c[1];
    } else if (c[0] == "frame" && c.size() == 9) {
      Frame f;
      f.name = c[1];
      f.samples = std::stoull(c[2]);
      f.x = std::stod(c[3]);
      f.y = std::stod(c[4]);
      f.width = std::stod(c[5]);
      f.fill = c[6];
      f.label = c[7];
      f.about = c[8];
      g.frames.push_back(f);
    } else {
      ADD_FAILURE() << "frames.py: " << line;
    }
  }
  return g;
}

std::string chromium_missing() {
  return std::string(CHROMIUM_EXE).empty() ? "chromium is missing (CHROMIUM_EXE): it renders the SVG" : "";
}

std::vector<std::string> chromium_args(const reptest::ScratchDir& dir) {
  return {CHROMIUM_EXE, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--disable-extensions", "--force-device-scale-factor=1", "--hide-scrollbars",
          "--user-data-dir=" + dir.file("chromium-profile")};
}

std::string unescape(std::string s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      const size_t e = s.find(';', i);
      const std::string ent = s.substr(i, e - i + 1);
      if (ent == "&amp;") out += '&';
      else if (ent == "&lt;") out += '<';
      else if (ent == "&gt;") out += '>';
      else if (ent == "&quot;") out += '"';
      else out += ent;
      i = e;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Copies the SVG with the page scripts added (`first` before the graph's own script runs,
// `then` after it), opens it in headless Chromium and returns the lines the scripts wrote
// into <text id="result">.
std::vector<std::vector<std::string>> run_page(const reptest::ScratchDir& dir, const std::string& svg,
                                               const std::string& then, const std::string& first = "") {
  std::string doc = reptest::slurp(svg);
  auto cdata = [](const std::string& js) {
    return "<script type=\"text/ecmascript\"><![CDATA[\n" + js + "\n]]></script>\n";
  };
  const size_t open = doc.find('>', doc.find("<svg"));
  const size_t close = doc.rfind("</svg>");
  if (open == std::string::npos || close == std::string::npos) {
    ADD_FAILURE() << "no <svg> element";
    return {};
  }
  doc.insert(close, cdata(reptest::slurp(kScripts + "result.js") + then));
  if (!first.empty()) doc.insert(open + 1, "\n" + cdata(first));
  const std::string page = dir.file("page.svg");
  reptest::write_file(page, doc);
  auto args = chromium_args(dir);
  args.insert(args.end(), {"--virtual-time-budget=2000", "--dump-dom", "file://" + page});
  const auto r = reptest::run(args);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string open_tag = "<text id=\"result\">";
  const size_t a = r.out.rfind(open_tag);  // the last: the element, not a script naming it
  if (a == std::string::npos) {
    ADD_FAILURE() << "the page scripts wrote no result:\n" << r.out.substr(0, 2000) << r.err;
    return {};
  }
  const size_t b = r.out.find("</text>", a);
  std::istringstream in(unescape(r.out.substr(a + open_tag.size(), b - a - open_tag.size())));
  std::vector<std::vector<std::string>> lines;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(split(line));
  return lines;
}

std::string js_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

// The synthetic world of synthetic_test.cpp: a fake FreeBSD sysroot (fakeprog and libc).
using namespace reptest::synthetic;

std::string sample(uint32_t pmc, const std::vector<uint64_t>& pcs, bool user = true) {
  std::string s = R"({"type":"callchain","pid":100,"tid":100,"pmcid":)" + std::to_string(pmc) +
                  R"(,"cpu":0,"usermode":)" + (user ? "1" : "0") + R"(,"pcs_hex":[)";
  for (size_t i = 0; i < pcs.size(); ++i) s += (i ? ",\"" : "\"") + hex(pcs[i]) + "\"";
  return s + "]}";
}
std::string exec(const std::string& json_path) {
  return R"({"type":"procexec","pid":100,"pmcid":4294053632,"entryaddr":0,"dynaddr":0,"path":")" +
         json_path + "\"}";
}
std::string map_in(uint32_t pid, uint64_t start, const std::string& path) {
  return R"({"type":"map-in","pid":)" + std::to_string(pid) + R"(,"start_hex":")" + hex(start) +
         R"(","path":")" + path + "\"}";
}

struct Svg : ::testing::Test {
  static reptest::ScratchDir* rec_dir;
  static std::string recorded_log;

  // A log of the hot_chain workload: ctest's shared recording, or one made once per process
  // by the first test that needs it.
  static const std::string& recorded() {
    if (rec_dir == nullptr) {
      rec_dir = new reptest::ScratchDir;
      recorded_log = reptest::hot_recording(*rec_dir);
    }
    return recorded_log;
  }
  static void TearDownTestSuite() {
    delete rec_dir;
    rec_dir = nullptr;
  }
  reptest::ScratchDir dir;
  std::string root;
  uint64_t memcpy_ = 0, write_ = 0, qsort_ = 0, work = 0, child_work = 0;

  void SetUp() override {
    root = dir.file("root");
    reptest::copy_as_freebsd_elf(FAKE_LIBC, root + "/lib/libc.so.7");
    reptest::copy_as_freebsd_elf(FAKE_PROG, root + "/usr/bin/fakeprog");
    const uint64_t lib_exec = reptest::exec_segment_page(FAKE_LIBC);
    memcpy_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_memcpy");
    write_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_write");
    qsort_ = kLibBase + reptest::symbol_address(FAKE_LIBC, "fbsd_qsort_cmp");
    work = reptest::symbol_address(FAKE_PROG, "fakeprog_work");
    child_work = reptest::symbol_address(FAKE_PROG, "fakeprog_child_work");
    ASSERT_NE(memcpy_, kLibBase);
    ASSERT_NE(work, 0u);
    lib_map = map_in(100, kLibBase + lib_exec, "/lib/libc.so.7");
  }
  std::string lib_map;

  // Runs pmclog-report --format svg; returns the SVG's path.
  std::string svg(std::vector<std::string> args, const std::string& name = "x.svg") {
    const std::string out = dir.file(name);
    args.insert(args.begin(), {REPORT_EXE, "--format", "svg", "-o", out});
    const auto r = reptest::run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
  }

  // Samples of the stacks (folded output) that hold a frame matching `name`.
  static uint64_t folded_through(const std::string& log, const std::string& name, uint64_t* all = nullptr) {
    const auto r = reptest::run({REPORT_EXE, "--format", "folded", log});
    EXPECT_EQ(r.status, 0) << r.err;
    uint64_t n = 0, a = 0;
    for (const auto& [stack, c] : reptest::parse_folded(r.out)) {
      a += c;
      if ((";" + stack + ";").find(";" + name + ";") != std::string::npos) n += c;
    }
    if (all) *all = a;
    return n;
  }
};

reptest::ScratchDir* Svg::rec_dir = nullptr;
std::string Svg::recorded_log;

TEST_F(Svg, RecordedGraphIsXmlWithTheHotFunctionAndItsSamples) {
  const Graph g = parse_svg(svg({"--min-width", "0", recorded()}));
  uint64_t all = 0;
  const uint64_t through_leaf = folded_through(recorded(), kLeaf, &all);
  ASSERT_GT(all, 100u);
  const Frame* base = g.find("all");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->samples, all);
  EXPECT_DOUBLE_EQ(base->width, 1180);  // 1200 wide, 10 px margins
  EXPECT_EQ(g.width, 1200);
  // The leaf is nowhere but at the end of its stacks: its frames hold every such sample.
  uint64_t leaf = 0;
  for (const Frame* f : g.all(kLeaf)) leaf += f->samples;
  EXPECT_EQ(leaf, through_leaf);
  EXPECT_GT(leaf * 10, all * 8);
  // One event: not a frame of its own, but in the title with the input.
  EXPECT_EQ(g.find("cpu-clock"), nullptr);
  EXPECT_NE(g.title.find("cpu-clock"), std::string::npos) << g.title;
  EXPECT_NE(g.title.find(recorded()), std::string::npos) << g.title;
  EXPECT_NE(g.sub.find("cpu-clock: " + std::to_string(all) + " samples"), std::string::npos) << g.sub;
  const Frame* leaf_f = g.widest(kLeaf);
  EXPECT_EQ(leaf_f->label, kLeaf);  // ~80% of 1180 px: the whole name fits
  EXPECT_NE(leaf_f->about.find("report-workload-hot"), std::string::npos) << leaf_f->about;
  // --title.
  const Graph t = parse_svg(svg({"--title", "My <own> title", recorded()}, "t.svg"));
  EXPECT_EQ(t.title, "My <own> title");
}

TEST_F(Svg, RendersInChromium) {
  ASSERT_EQ(chromium_missing(), "");
  const std::string file = svg({recorded()});
  const Graph g = parse_svg(file);
  const Frame* leaf = g.widest(kLeaf);
  ASSERT_NE(leaf, nullptr);
  const int h = static_cast<int>(std::ceil(g.height));
  const std::string png = dir.file("x.png");
  auto args = chromium_args(dir);
  args.insert(args.end(), {"--screenshot=" + png, "--window-size=1200," + std::to_string(h),
                           "file://" + file});
  auto r = reptest::run(args);
  ASSERT_EQ(r.status, 0) << r.err;
  // The picture's size, and the hot frame's colour in the middle of its rectangle.
  const int px = static_cast<int>(leaf->x + leaf->width / 2), py = static_cast<int>(leaf->y + 2);
  r = reptest::run({PYTHON_EXE, kScripts + "png_probe.py", png,
                    std::to_string(px) + "," + std::to_string(py)});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  int w = 0, hh = 0;
  unsigned cr = 0, cg = 0, cb = 0;
  in >> w >> hh >> cr >> cg >> cb;
  EXPECT_EQ(w, 1200);
  EXPECT_EQ(hh, h);
  const unsigned want = std::stoul(leaf->fill.substr(1), nullptr, 16);
  EXPECT_LE(std::abs(static_cast<int>(cr) - static_cast<int>(want >> 16)), 2) << r.out << leaf->fill;
  EXPECT_LE(std::abs(static_cast<int>(cg) - static_cast<int>((want >> 8) & 255)), 2) << r.out << leaf->fill;
  EXPECT_LE(std::abs(static_cast<int>(cb) - static_cast<int>(want & 255)), 2) << r.out << leaf->fill;
  // The DOM after the page script ran: the hot function's label is a <text>.
  args = chromium_args(dir);
  args.insert(args.end(), {"--virtual-time-budget=2000", "--dump-dom", "file://" + file});
  r = reptest::run(args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(">" + kLeaf + "</text>"), std::string::npos) << r.out.substr(0, 3000);
}

TEST_F(Svg, ClickZoomsIntoTheFrame) {
  ASSERT_EQ(chromium_missing(), "");
  // fakeprog_work (4): fbsd_memcpy (3), fbsd_qsort_cmp (1); fakeprog_child_work (2).
  const std::string log = reptest::write_log(dir, "z.pmclog", {
      kInit, kCpuClock, exec("/usr/bin/fakeprog"), lib_map,
      sample(kPmcA, {memcpy_ + 1, work + 2}), sample(kPmcA, {memcpy_ + 1, work + 2}),
      sample(kPmcA, {memcpy_ + 1, work + 2}), sample(kPmcA, {qsort_ + 1, work + 2}),
      sample(kPmcA, {write_ + 1, child_work + 2}), sample(kPmcA, {write_ + 1, child_work + 2}),
      R"({"type":"closelog"})"});
  const std::string file = svg({"--sysroot", root, log});
  const Graph g = parse_svg(file);
  ASSERT_NE(g.find("fbsd_memcpy"), nullptr);
  EXPECT_NEAR(g.find("fbsd_memcpy")->width, 1180.0 * 3 / 6, 0.01);
  // Siblings by name (flamegraph.pl's order), side by side from the left.
  EXPECT_NEAR(g.find("fakeprog_child_work")->x, 10, 0.01);
  EXPECT_NEAR(g.find("fakeprog_work")->x, 10 + 1180.0 * 2 / 6, 0.01);
  EXPECT_NEAR(g.find("fbsd_memcpy")->x, g.find("fakeprog_work")->x, 0.01);
  EXPECT_NEAR(g.find("fbsd_qsort_cmp")->x, 10 + 1180.0 * 5 / 6, 0.01);
  // Click fbsd_memcpy, then its caller fakeprog_work, then "Reset Zoom".
  const auto lines = run_page(dir, file, "var TARGETS = ['fbsd_memcpy', 'fakeprog_work', ''];\n" +
                                             reptest::slurp(kScripts + "zoom.js"));
  std::map<std::string, std::vector<std::string>> after[3];
  std::string unzoom[3];
  for (const auto& l : lines) {
    ASSERT_GE(l.size(), 3u) << l[0];
    ASSERT_NE(l[0], "error") << l[2];
    const int step = std::stoi(l[1]);
    ASSERT_LT(step, 3);
    if (l[0] == "frame") after[step][l[2]] = l;
    if (l[0] == "unzoom") unzoom[step] = l[2];
  }
  for (const auto& a : after) ASSERT_EQ(a.size(), 6u);
  auto x = [&](int st, const std::string& n) { return std::stod(after[st][n][3]); };
  auto w = [&](int st, const std::string& n) { return std::stod(after[st][n][4]); };
  auto shown = [&](int st, const std::string& n) { return after[st][n][5]; };
  auto par = [&](int st, const std::string& n) { return after[st][n][6]; };
  // The clicked frame spans the whole width; its callers too (faded); the rest is hidden.
  EXPECT_NEAR(x(0, "fbsd_memcpy"), 10, 0.01);
  EXPECT_NEAR(w(0, "fbsd_memcpy"), 1180, 0.01);
  EXPECT_EQ(shown(0, "fbsd_memcpy"), "shown");
  EXPECT_EQ(par(0, "fbsd_memcpy"), "-");
  EXPECT_EQ(after[0]["fbsd_memcpy"][7], "fbsd_memcpy");
  for (const char* anc : {"fakeprog_work", "all"}) {
    EXPECT_EQ(shown(0, anc), "shown") << anc;
    EXPECT_EQ(par(0, anc), "par") << anc;
    EXPECT_NEAR(w(0, anc), 1180, 0.01) << anc;
  }
  for (const char* other : {"fbsd_qsort_cmp", "fakeprog_child_work", "fbsd_write"})
    EXPECT_EQ(shown(0, other), "hidden") << other;
  EXPECT_NE(unzoom[0], "none");  // "Reset Zoom" now shows
  // fakeprog_work (4 samples) zoomed: its callees share the width 3:1, side by side.
  EXPECT_NEAR(w(1, "fakeprog_work"), 1180, 0.01);
  EXPECT_EQ(par(1, "fakeprog_work"), "-");
  EXPECT_NEAR(w(1, "fbsd_memcpy"), 1180.0 * 3 / 4, 0.02);
  EXPECT_NEAR(w(1, "fbsd_qsort_cmp"), 1180.0 / 4, 0.02);
  EXPECT_NEAR(x(1, "fbsd_qsort_cmp"), x(1, "fbsd_memcpy") + w(1, "fbsd_memcpy"), 0.02);
  EXPECT_EQ(shown(1, "fbsd_qsort_cmp"), "shown");
  EXPECT_EQ(after[1]["fbsd_qsort_cmp"][7], "fbsd_qsort_cmp");  // now wide enough for its label
  EXPECT_EQ(shown(1, "fakeprog_child_work"), "hidden");
  // Reset Zoom: every frame as drawn by the tool, and the control hidden again.
  for (const Frame& f : g.frames) {
    EXPECT_EQ(shown(2, f.name), "shown") << f.name;
    EXPECT_EQ(par(2, f.name), "-") << f.name;
    EXPECT_NEAR(x(2, f.name), f.x, 0.01) << f.name;
    EXPECT_NEAR(w(2, f.name), f.width, 0.01) << f.name;
    EXPECT_EQ(after[2][f.name][7], f.label) << f.name;
  }
  EXPECT_EQ(unzoom[2], "none");

  // The recorded hot function: clicked, it spans the graph and its callers' other callees go.
  const std::string rec = svg({recorded()}, "rec.svg");
  const auto rl = run_page(dir, rec, "var TARGETS = [" + js_string(kLeaf) + "];\n" +
                                         reptest::slurp(kScripts + "zoom.js"));
  bool found = false;
  for (const auto& l : rl) {
    ASSERT_GE(l.size(), 3u) << l[0];
    ASSERT_NE(l[0], "error") << l[2];
    if (l[0] != "frame" || l[5] != "shown") continue;
    found = found || l[2] == kLeaf;
    if (l[2] == kLeaf || l[6] == "par") {
      EXPECT_NEAR(std::stod(l[4]), 1180, 0.01) << l[2];
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(Svg, SearchHighlightsAndShowsTheMatchedShare) {
  ASSERT_EQ(chromium_missing(), "");
  const std::string file = svg({"--min-width", "0", recorded()});
  const Graph g = parse_svg(file);
  size_t want_frames = 0;
  for (const Frame& f : g.frames) want_frames += f.name.find("_caller") != std::string::npos;
  ASSERT_GE(want_frames, 2u);
  // Samples under either caller, from folded (middle_caller is under outer_caller: once).
  uint64_t all = 0;
  const auto r = reptest::run({REPORT_EXE, "--format", "folded", recorded()});
  uint64_t under = 0;
  for (const auto& [stack, c] : reptest::parse_folded(r.out)) {
    all += c;
    if (stack.find("_caller") != std::string::npos) under += c;
  }
  const auto lines = run_page(dir, file, "var PATTERN = 'middle_|outer_c.*er';\n" +
                                             reptest::slurp(kScripts + "search.js"),
                              "window.prompt = function () { return 'leaf_hot'; };");
  std::map<std::string, std::vector<std::string>> got;
  for (const auto& l : lines) got[l[0]] = l;
  ASSERT_EQ(got.count("matched"), 1u);
  EXPECT_EQ(got["returned"][1], std::to_string(want_frames));
  EXPECT_EQ(got["painted"][1], std::to_string(want_frames));
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.2f%%", 100.0 * static_cast<double>(under) / static_cast<double>(all));
  EXPECT_EQ(got["matched"][1], "Matched: " + std::string(pct) + " (" + std::to_string(want_frames) +
                                   " frames)");
  EXPECT_EQ(got["button"][1], "Reset Search");
  EXPECT_EQ(got["reset"][1], "0");  // the colours are back
  EXPECT_EQ(got["reset"][2], "");
  // ctrl-F asked for a pattern (the prompt said leaf_hot) and kept the browser's own search.
  size_t leaf_frames = 0;
  uint64_t leaf = 0;
  for (const Frame& f : g.frames)
    if (f.name.find("leaf_hot") != std::string::npos) ++leaf_frames, leaf += f.samples;
  ASSERT_EQ(got["ctrl-f"].size(), 4u);
  EXPECT_EQ(got["ctrl-f"][1], std::to_string(leaf_frames));
  std::snprintf(pct, sizeof pct, "%.2f%%", 100.0 * static_cast<double>(leaf) / static_cast<double>(all));
  EXPECT_EQ(got["ctrl-f"][2], "Matched: " + std::string(pct) + " (" + std::to_string(leaf_frames) +
                                  (leaf_frames == 1 ? " frame)" : " frames)"));
  EXPECT_EQ(got["ctrl-f"][3], "kept from the browser");
  // A click on "Reset Search" clears it.
  EXPECT_EQ(got["clicked"][1], "0");
  EXPECT_EQ(got["clicked"][2], "Search");
}

// A subtitle longer than the room between "Reset Zoom" and "Search" (a diff's, on a narrow
// page) goes on as many lines as it needs, centred between them, or below them when the
// page is too narrow: in Chromium it meets neither control and stays above the frames and
// inside the page, and it reads the same as on a wide page, where it is one line.
TEST_F(Svg, ALongSubtitleMeetsNeitherControl) {
  ASSERT_EQ(chromium_missing(), "");
  const Graph wide = parse_svg(svg({"--diff", recorded(), "--", recorded()}, "wide.svg"));
  ASSERT_NE(wide.sub.find("frames changed significantly"), std::string::npos) << wide.sub;
  for (const char* width : {"1200", "640", "250"}) {
    SCOPED_TRACE(width);
    const std::string file =
        svg({"--width", width, "--diff", recorded(), "--", recorded()}, std::string(width) + ".svg");
    EXPECT_EQ(parse_svg(file).sub, wide.sub);
    const auto lines = run_page(dir, file, reptest::slurp(kScripts + "layout.js"));
    std::map<std::string, std::vector<std::string>> got;
    for (const auto& l : lines) got[l[0]] = l;
    ASSERT_EQ(got["meets"].size(), 3u);
    ASSERT_EQ(got["sub"].size(), 8u);
    EXPECT_EQ(got["meets"][1], "0") << "meets Reset Zoom";
    EXPECT_EQ(got["meets"][2], "0") << "meets Search";
    const double x0 = std::stod(got["sub"][1]), x1 = std::stod(got["sub"][3]),
                 bottom = std::stod(got["sub"][4]), top_frame = std::stod(got["sub"][6]),
                 page = std::stod(got["sub"][7]);
    EXPECT_GE(x0, 0);
    EXPECT_LE(x1, page);
    EXPECT_LE(bottom, top_frame);
    EXPECT_EQ(got["sub"][5] == "1", std::string(width) == "1200") << got["sub"][5] << " lines";
  }
}

// A title longer than the page (twelve inputs, each named) is cut to it with "...", and
// the whole of it is the hover text; a title that fits is as it was.
TEST_F(Svg, ALongTitleIsCutToThePageWithTheWholeOfItOnHover) {
  ASSERT_EQ(chromium_missing(), "");
  std::vector<std::string> args{"--width", "640"};
  for (int i = 0; i < 12; ++i) args.push_back(recorded());
  const std::string file = svg(args, "many.svg");
  const std::string text = reptest::slurp(file);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"re(<text id="title"[^>]*>([^<]*)<title>([^<]*)</title></text>)re")))
      << text.substr(0, 1500);
  const std::string shown = m[1], whole = unescape(m[2]);
  ASSERT_GE(shown.size(), 4u);
  EXPECT_EQ(shown.substr(shown.size() - 3), "...");
  EXPECT_EQ(whole.rfind(unescape(shown.substr(0, shown.size() - 3)), 0), 0u) << shown << "\n" << whole;
  size_t named = 0;
  for (size_t at = 0; (at = whole.find(recorded(), at)) != std::string::npos; at += recorded().size()) ++named;
  EXPECT_EQ(named, 12u) << whole;
  const auto lines = run_page(dir, file, reptest::slurp(kScripts + "layout.js"));
  std::map<std::string, std::vector<std::string>> got;
  for (const auto& l : lines) got[l[0]] = l;
  ASSERT_EQ(got["title"].size(), 5u);
  EXPECT_GE(std::stod(got["title"][1]), 0);
  EXPECT_LE(std::stod(got["title"][3]), 640);
  // One input: the title fits, and has no hover text of its own.
  const std::string one = reptest::slurp(svg({recorded()}, "one.svg"));
  EXPECT_EQ(one.find("<title>Flame graph"), std::string::npos);
  EXPECT_NE(one.find("(" + recorded() + ")</text>"), std::string::npos);
}

TEST_F(Svg, InlinedFramesWithInline) {
  // The loop body of the hot leaf is hotspot::mix, inlined: a frame above the leaf.
  const Graph g = parse_svg(svg({"--inline", recorded()}));
  const std::string mix = "hotspot::mix(unsigned long, unsigned long)";
  const Frame* leaf = g.widest(kLeaf);
  const Frame* m = g.widest(mix);
  ASSERT_TRUE(leaf && m);
  EXPECT_DOUBLE_EQ(m->y, leaf->y - 16);
  EXPECT_NE(m->about.find("inlined"), std::string::npos) << m->about;
  const unsigned c = std::stoul(m->fill.substr(1), nullptr, 16);
  EXPECT_GT(static_cast<int>((c >> 8) & 255), static_cast<int>(c >> 16) + 40) << m->fill;  // aqua
  EXPECT_GT(static_cast<int>(c & 255), static_cast<int>(c >> 16) + 40) << m->fill;
  EXPECT_EQ(parse_svg(svg({recorded()}, "plain.svg")).find(mix), nullptr);
}

TEST_F(Svg, IcicleAndReverse) {
  const Graph flame = parse_svg(svg({recorded()}, "f.svg"));
  const Graph ice = parse_svg(svg({"--icicle", recorded()}, "i.svg"));
  const Graph rev = parse_svg(svg({"--reverse", recorded()}, "r.svg"));
  for (const Graph* g : {&flame, &ice, &rev}) {
    ASSERT_NE(g->find("all"), nullptr);
    ASSERT_NE(g->find(kLeaf), nullptr);
    ASSERT_NE(g->find("main"), nullptr);
  }
  // A flame graph grows up from its root, an icicle down.
  EXPECT_GT(flame.find("all")->y, flame.find(kLeaf)->y);
  EXPECT_LT(ice.find("all")->y, ice.find(kLeaf)->y);
  EXPECT_GT(flame.find("all")->y, flame.widest("main")->y);
  EXPECT_LT(ice.find("all")->y, 60);
  // Reversed: the hot leaf stands on the root, its callers above it, main at the top.
  const Frame* hot = rev.widest(kLeaf);
  EXPECT_DOUBLE_EQ(hot->y, rev.find("all")->y - 16);
  EXPECT_GT(hot->width, 1180 * 0.8);
  size_t mains = 0;  // main above the hot leaf, past its two callers
  for (const Frame* f : rev.all("main"))
    if (f->x >= hot->x && f->x + f->width <= hot->x + hot->width + 0.01) {
      ++mains;
      EXPECT_LE(f->y, hot->y - 3 * 16);
    }
  EXPECT_GE(mains, 1u);
  EXPECT_NE(rev.sub.find("reversed"), std::string::npos);
}

TEST_F(Svg, NarrowFramesArePrunedAndCounted) {
  // fakeprog_work;fbsd_memcpy 200 samples, fakeprog_work;fbsd_qsort_cmp 3,
  // fakeprog_child_work;fbsd_write 2: at 1180 px, three frames under 50 px.
  std::vector<std::string> recs{kInit, kCpuClock, exec("/usr/bin/fakeprog"), lib_map};
  for (int i = 0; i < 200; ++i) recs.push_back(sample(kPmcA, {memcpy_ + 1, work + 2}));
  for (int i = 0; i < 3; ++i) recs.push_back(sample(kPmcA, {qsort_ + 1, work + 2}));
  for (int i = 0; i < 2; ++i) recs.push_back(sample(kPmcA, {write_ + 1, child_work + 2}));
  recs.push_back(R"({"type":"closelog"})");
  const std::string log = reptest::write_log(dir, "p.pmclog", recs);
  const Graph full = parse_svg(svg({"--min-width", "0", "--sysroot", root, log}, "full.svg"));
  const Graph pruned = parse_svg(svg({"--min-width", "50", "--sysroot", root, log}, "p.svg"));
  size_t narrow = 0;
  for (const Frame& f : full.frames) narrow += f.width < 50;
  EXPECT_EQ(narrow, 3u);
  EXPECT_EQ(full.frames.size(), 6u);
  EXPECT_EQ(pruned.frames.size() + narrow, full.frames.size());
  for (const Frame& f : pruned.frames) EXPECT_GE(f.width, 50) << f.name;
  EXPECT_NE(pruned.sub.find("3 frames narrower than 50 px not drawn"), std::string::npos) << pruned.sub;
  EXPECT_EQ(full.sub.find("not drawn"), std::string::npos) << full.sub;
  // The default 0.1 px keeps them all here; 1170 px leaves the root alone.
  EXPECT_EQ(parse_svg(svg({"--sysroot", root, log}, "d.svg")).frames.size(), 6u);
  const Graph one = parse_svg(svg({"--min-width", "1170", "--sysroot", root, log}, "o.svg"));
  EXPECT_EQ(one.frames.size(), 1u);
  EXPECT_NE(one.sub.find("5 frames narrower than 1170 px not drawn"), std::string::npos) << one.sub;
}

TEST_F(Svg, LabelsFitTheirFrames) {
  // 150 px wide: 130 px for the root, too narrow for the hot function's whole name.
  const Graph full = parse_svg(svg({"--width", "150", "--min-width", "0", recorded()}, "full.svg"));
  ASSERT_GT(full.frames.size(), 1u);
  EXPECT_EQ(full.width, 150);
  EXPECT_DOUBLE_EQ(full.find("all")->width, 130);
  ASSERT_NE(full.widest(kLeaf), nullptr);
  const std::string& cut = full.widest(kLeaf)->label;  // ~128 px: about 18 characters
  EXPECT_TRUE(cut.size() > 10 && cut.size() < kLeaf.size() && cut.substr(cut.size() - 2) == "..") << cut;
  // Labels: whole, cut with ".." to what 0.59 em per character allows, or none.
  for (const Frame& f : full.frames) {
    const auto fit = static_cast<size_t>(f.width / (12 * 0.59));
    const std::string want = fit < 3                ? ""
                             : f.name.size() <= fit ? f.name
                                                    : f.name.substr(0, fit - 2) + "..";
    EXPECT_EQ(f.label, want) << f.name;
  }
}

TEST_F(Svg, KernelUserAndUnresolvedPalettesAndSeveralEvents) {
  // The fake libc plays the kernel image too (as in synthetic_test.cpp).
  constexpr uint64_t kKernelAt = 0xffffffff80200000;
  const uint64_t text = reptest::exec_segment_page(FAKE_LIBC);
  const uint64_t kwrite = kKernelAt - text + reptest::symbol_address(FAKE_LIBC, "fbsd_write");
  const std::string log = reptest::write_log(dir, "k.pmclog", {
      kInit, kCpuClock, kInstructions, map_in(0xFFFFFFFFu, kKernelAt, "/boot/kernel/kernel"),
      exec("/usr/bin/fakeprog"), lib_map, map_in(100, 0x900000000, "/lib/libmissing.so.1"),
      sample(kPmcA, {kwrite + 1, memcpy_ + 2, work + 2}, false),
      sample(kPmcA, {0x900000010, work + 2}), sample(kPmcA, {memcpy_ + 1, work + 2}),
      sample(kPmcB, {qsort_ + 1, work + 2}), R"({"type":"closelog"})"});
  const Graph g = parse_svg(svg({"--sysroot", root, "--kernel", root + "/lib/libc.so.7", log}));
  const Frame* k = g.find("fbsd_write");
  const Frame* u = g.find("fbsd_memcpy");
  const Frame* q = g.find("libmissing.so.1+0x10");
  ASSERT_TRUE(k && u && q);
  auto rgb = [](const Frame* f) {
    const unsigned v = std::stoul(f->fill.substr(1), nullptr, 16);
    return std::array<int, 3>{static_cast<int>(v >> 16), static_cast<int>((v >> 8) & 255),
                              static_cast<int>(v & 255)};
  };
  const auto kc = rgb(k), uc = rgb(u), qc = rgb(q);
  EXPECT_GT(kc[2], kc[0] + 40) << k->fill;   // kernel: blue
  EXPECT_GT(uc[0], uc[2] + 120) << u->fill;  // user: red to yellow
  EXPECT_EQ(qc[0], qc[1]) << q->fill;         // unresolved: grey
  EXPECT_EQ(qc[1], qc[2]) << q->fill;
  EXPECT_NE(k->about.find("kernel"), std::string::npos) << k->about;
  EXPECT_NE(q->about.find("unresolved: object missing"), std::string::npos) << q->about;
  // The same function has the same colour wherever it is (fbsd_memcpy twice under cpu-clock).
  for (const Frame* f : g.all("fakeprog_work")) EXPECT_EQ(f->fill, g.find("fakeprog_work")->fill);
  // Two events: each is a frame on the root, never one sum; shares are of their event.
  const Frame* cpu = g.find("cpu-clock");
  const Frame* ins = g.find("instructions");
  ASSERT_TRUE(cpu && ins);
  EXPECT_EQ(cpu->samples, 3u);
  EXPECT_EQ(ins->samples, 1u);
  EXPECT_EQ(cpu->y, g.find("all")->y - 16);
  EXPECT_EQ(g.find("fbsd_qsort_cmp")->samples, 1u);
  const std::string doc = reptest::slurp(dir.file("x.svg"));
  EXPECT_NE(doc.find("fbsd_qsort_cmp\n1 sample, 100.00% of instructions"), std::string::npos);

  // --by-file: each input is a frame on the root.
  const Graph two = parse_svg(svg({"--by-file", "--event", "cpu-clock", "--sysroot", root, log, log}, "b.svg"));
  size_t inputs = 0;
  for (const Frame& f : two.frames)
    if (f.name == log) {
      ++inputs;
      EXPECT_EQ(f.samples, 3u);
      EXPECT_EQ(f.y, two.find("all")->y - 16);
    }
  EXPECT_EQ(inputs, 2u);
  EXPECT_EQ(two.find("all")->samples, 6u);
}

TEST_F(Svg, HostileNamesStayText) {
  ASSERT_EQ(chromium_missing(), "");
  // A function and a command named to break out of the markup and the script's CDATA.
  const std::string evil = "<script>alert(1)</script>]]>&\"'";
  const std::string comm = "]]><b>x&y'";
  reptest::copy_as_freebsd_elf(FAKE_PROG, root + "/usr/bin/" + comm);
  ASSERT_EQ(reptest::run({"/usr/bin/objcopy", "--redefine-sym", "fakeprog_work=" + evil,
                          root + "/usr/bin/" + comm}).status, 0);
  const std::string log = reptest::write_log(dir, "h.pmclog", {
      kInit, kCpuClock, exec("/usr/bin/" + comm), lib_map,
      sample(kPmcA, {memcpy_ + 1, work + 2}), sample(kPmcA, {0x1234}), R"({"type":"closelog"})"});
  const std::string file = svg({"--comm-frame", "--sysroot", root, log});
  const Graph g = parse_svg(file);
  const Frame* f = g.find(evil);
  ASSERT_NE(f, nullptr) << reptest::slurp(file);
  EXPECT_EQ(f->samples, 1u);
  EXPECT_NE(g.find(comm), nullptr);
  const std::string doc = reptest::slurp(file);
  EXPECT_EQ(doc.find("<script>alert"), std::string::npos);
  EXPECT_EQ(doc.find("<b>"), std::string::npos);
  size_t cdata_ends = 0;
  for (size_t at = doc.find("]]>"); at != std::string::npos; at = doc.find("]]>", at + 1)) ++cdata_ends;
  EXPECT_EQ(cdata_ends, 2u);  // the style's and the script's, nothing else
  // In the browser: no script but the graph's (and the test's two), names intact as text.
  const auto lines = run_page(dir, file, reptest::slurp(kScripts + "hostile.js"),
                              "window.alert = function () { window.__alerted = true; };");
  std::map<std::string, std::vector<std::string>> got;
  std::vector<std::string> names;
  for (const auto& l : lines) {
    got[l[0]] = l;
    if (l[0] == "frame") {
      names.push_back(l[1]);
      EXPECT_LE(std::stoi(l[2]), 3) << l[1];  // title, rect, text: nothing injected
    }
  }
  EXPECT_EQ(got["scripts"][1], "3");
  EXPECT_EQ(got["alerted"][1], "no");
  auto uri = [](const std::string& s) {  // encodeURIComponent
    std::string out;
    for (unsigned char c : s) {
      if (std::isalnum(c) || std::string("-_.!~*'()").find(static_cast<char>(c)) != std::string::npos) {
        out += static_cast<char>(c);
      } else {
        char b[4];
        std::snprintf(b, sizeof b, "%%%02X", c);
        out += b;
      }
    }
    return out;
  };
  EXPECT_NE(std::find(names.begin(), names.end(), uri(evil)), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), uri(comm)), names.end());
}

TEST_F(Svg, ControlCharactersAreEscaped) {
  // A missing object whose name carries an escape sequence.
  const std::string log = reptest::write_log(dir, "c.pmclog", {
      kInit, kCpuClock, map_in(100, 0x900000000, "/lib/\\u001b[31mred\\u00ff.so"),
      sample(kPmcA, {0x900000010}), R"({"type":"closelog"})"});
  const std::string file = svg({log});
  const Graph g = parse_svg(file);  // python's parser accepts it
  bool seen = false;
  for (const Frame& f : g.frames) {
    EXPECT_EQ(f.name.find('\x1b'), std::string::npos);
    seen = seen || f.name.find("\\x1b[31mred") != std::string::npos;
  }
  EXPECT_TRUE(seen) << reptest::slurp(file);
}

// Independent of the fake sysroot: two events of known counts over the known objects
// (known/known_code.h). Every frame's share is of its own event's samples, not of all; with
// one event there is no event frame and the share is of all.
TEST(SvgShares, EachFramesPercentIsOfItsEvent) {
  if (!known::available()) GTEST_SKIP() << "the known objects are x86-64 code";
  using namespace reptest::synthetic;
  reptest::ScratchDir dir;
  const std::string root = dir.file("root");
  known::install(KNOWN_EXEC, root, known::kExecPath);
  const uint64_t leaf = known::kExecText + KNOWN_LEAF + 1, next = known::kExecText + KNOWN_NEXT + 1;
  const uint64_t rec = known::kExecText + KNOWN_REC + 1, main = known::kExecText + KNOWN_MAIN + 5;
  std::vector<std::string> lines = known::modern_log_start();
  lines.push_back(kInstructions);
  lines.push_back(known::map_in(known::kT0 + 10, known::kExecText, known::kExecPath));
  // cpu-clock: 3 in known_leaf, 1 in known_rec; instructions: 1 in known_leaf, 1 in known_next.
  const std::vector<std::pair<uint32_t, uint64_t>> samples{
      {kPmcA, leaf}, {kPmcB, leaf}, {kPmcA, leaf}, {kPmcA, rec}, {kPmcB, next}, {kPmcA, leaf}};
  uint64_t tsc = known::kT0 + 20;
  for (const auto& [pmc, at] : samples) lines.push_back(known::sample(tsc++, {at, main}, pmc));
  lines.push_back(known::closelog(tsc));
  const std::string log = reptest::write_log(dir, "k.pmclog", lines);

  auto r = reptest::run({REPORT_EXE, "--format", "svg", "-o", dir.file("two.svg"), "--sysroot",
                         root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string doc = reptest::slurp(dir.file("two.svg"));
  for (const char* title : {"known_leaf\n3 samples, 75.00% of cpu-clock",
                            "known_rec\n1 sample, 25.00% of cpu-clock",
                            "known_main\n4 samples, 100.00% of cpu-clock",
                            "known_leaf\n1 sample, 50.00% of instructions",
                            "known_next\n1 sample, 50.00% of instructions",
                            "known_main\n2 samples, 100.00% of instructions"})
    EXPECT_NE(doc.find(std::string("<title>") + title), std::string::npos) << title;

  r = reptest::run({REPORT_EXE, "--format", "svg", "-o", dir.file("one.svg"), "--event",
                    "instructions", "--sysroot", root, log});
  ASSERT_EQ(r.status, 0) << r.err;
  doc = reptest::slurp(dir.file("one.svg"));
  EXPECT_NE(doc.find("<title>known_next\n1 sample, 50.00%\n"), std::string::npos);
  EXPECT_EQ(doc.find("cpu-clock"), std::string::npos);
}

}  // namespace
