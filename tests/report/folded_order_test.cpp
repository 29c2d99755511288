// The folded lines come in the byte order of their text, each distinct text once with the
// sum of its counts, whatever the names hold: spaces, digits and brackets (which sort before
// ';'), names that begin other names, empty names, ';' (printed as ':'), alike names of
// different functions, kernel and inlined suffixes, empty event and command names. The
// expected text is made here frame by frame and sorted as strings.
#include <gtest/gtest.h>

#include <map>
#include <string_view>
#include <random>
#include <string>
#include <vector>

#include "pmcprofile/profile.h"
#include "pmcprofile/views.h"

namespace {

using pmcprofile::FunctionRef;

struct Built {
  pmcprofile::Tables t;
  pmcprofile::Profile p;
  std::map<std::string, uint64_t> want;  // line text -> count
};

std::string shown(std::string s) {
  for (char& c : s)
    if (c == ';') c = ':';
  return s;
}

void build(Built& b, uint64_t seed, bool event_frame, bool comm_frame, bool inlines,
           int stacks = 1000) {
  std::mt19937_64 rng(seed);
  // Names made to sit close in byte order: shared beginnings, then a character below ';'
  // (space, digits, brackets) or above it.
  std::vector<std::string> names{"", "a", "a b", "a 1", "a;", "a(x)", "a0", "a:", "ab",
                                 "b", "b ", "b c", "main", "main 2", "x", "x_[k]", " "};
  // and enough more that the lines hold hundreds of distinct frames
  const char alphabet[] = "ab 0(:;_";
  while (names.size() < 200) {
    std::string n;
    for (size_t k = 1 + rng() % 4; k-- > 0;) n += alphabet[rng() % (sizeof alphabet - 1)];
    names.push_back(n);
  }
  pmcprofile::Tables& t = b.t;
  // Functions: every name twice (two objects: alike names of different functions), once as
  // a kernel function.
  for (size_t i = 0; i < names.size(); ++i)
    for (int copy = 0; copy < 3; ++copy) {
      pmcprofile::Function f;
      f.name = names[i];
      f.object = static_cast<pmcprofile::ObjectId>(copy);
      f.kernel = copy == 2;
      t.functions.push_back(f);
    }
  // Frames: one function each, or one with a call inlined into it.
  const size_t nframes = 600;
  for (size_t i = 0; i < nframes; ++i) {
    pmcprofile::Frame fr;
    fr.where.address = 0x1000 + i;
    fr.where.object = 0;
    t.frame(fr);
    std::vector<FunctionRef> refs{{static_cast<pmcprofile::FunctionId>(rng() % t.functions.size()), 0}};
    if (i % 5 == 0) refs.push_back({static_cast<pmcprofile::FunctionId>(rng() % t.functions.size()), 1});
    t.frame_functions.push_back(refs);
  }
  for (const char* e : {"cpu-clock", "", "cpu"}) t.event(e);
  for (const char* c : {"sh", "", "cpu", "s h"}) t.comm(c);
  for (int k = 0; k < stacks; ++k) {
    pmcprofile::Context c;
    c.event = static_cast<uint32_t>(rng() % 3);
    c.comm = static_cast<uint32_t>(rng() % 4);
    c.pid = static_cast<uint32_t>(rng() % 3);
    pmcprofile::NodeId n = b.p.root(t.context(c));
    std::string text;
    const auto add = [&](const std::string& part) {
      if (!text.empty()) text += ';';
      text += part;
    };
    if (event_frame) add(shown(t.events[c.event]));
    if (comm_frame) add(shown(t.comms[c.comm]));
    const size_t depth = 1 + rng() % 6;
    for (size_t d = 0; d < depth; ++d) {
      const auto frame = static_cast<pmcprofile::FrameId>(rng() % nframes);
      n = b.p.child(n, frame);
      for (const FunctionRef& r : t.frame_functions[frame]) {
        if (r.inlined() && !inlines) continue;
        const pmcprofile::Function& f = t.functions[r.id];
        // as the lines are made: a ';' after every frame before
        if (!text.empty() || d != 0 || &r != &t.frame_functions[frame].front()) text += ';';
        text += shown(f.name);
        text += f.kernel ? "_[k]" : r.inlined() ? "_[i]" : "";
      }
    }
    const uint64_t count = 1 + rng() % 9;
    b.p.add(n, count);
    b.want[text] += count;
  }
}

TEST(FoldedText, LinesInTheByteOrderOfTheirTextWhateverTheNames) {
  for (const bool event_frame : {true, false})
    for (const bool comm_frame : {true, false})
      for (const bool inlines : {false, true})
        for (uint64_t seed = 1; seed <= 4; ++seed) {
          Built b;
          build(b, seed, event_frame, comm_frame, inlines);
          pmcprofile::FoldedOptions o;
          o.event_frame = event_frame;
          o.comm_frame = comm_frame;
          o.inlines = inlines;
          std::string want;
          for (const auto& [text, n] : b.want) want += text + " " + std::to_string(n) + "\n";
          EXPECT_EQ(pmcprofile::folded_text(b.p, b.t, o), want)
              << "event " << event_frame << " comm " << comm_frame << " inlines " << inlines
              << " seed " << seed;
          // The lines one by one, as --diff reads them.
          std::string lines;
          for (const std::string& l : pmcprofile::folded_lines(b.p, b.t, o)) lines += l + "\n";
          EXPECT_EQ(lines, want);
        }
}

// The text given a piece at a time (to an output file) is the whole text, in pieces of whole
// lines of at least 128 KiB but the last.
TEST(FoldedText, InPiecesOfWholeLinesTheSameText) {
  Built b;
  build(b, 7, true, true, true, 40000);
  pmcprofile::FoldedOptions o;
  o.comm_frame = o.inlines = true;
  const std::string whole = pmcprofile::folded_text(b.p, b.t, o, "in;");
  std::vector<std::string> pieces;
  pmcprofile::folded_text(b.p, b.t, o, "in;",
                          [&](std::string_view s) { pieces.emplace_back(s); });
  ASSERT_GT(pieces.size(), 2u) << "a text of " << whole.size() << " bytes";
  std::string joined;
  for (size_t i = 0; i < pieces.size(); ++i) {
    ASSERT_FALSE(pieces[i].empty());
    EXPECT_EQ(pieces[i].back(), '\n') << "piece " << i;
    if (i + 1 < pieces.size()) {
      EXPECT_GE(pieces[i].size(), size_t{128} << 10) << "piece " << i;
    }
    joined += pieces[i];
  }
  EXPECT_EQ(joined, whole);
}

}  // namespace
