// The flame graph's layout step on trees built by hand: every position and width below is
// worked out from the samples (the image's width less two 10 px margins, shared by sample
// count), not read from the tool's output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "svg_layout.h"
#include "svg_tree.h"

namespace {

using report::svg::FrameKind;
using report::svg::FrameLabel;
using report::svg::FrameTree;
using report::svg::layout_frames;
using report::svg::SvgLayout;

// A function's label in `tree`; `id` stands for the symbol table's id.
uint32_t fn(FrameTree& tree, uint64_t id, const std::string& name, const std::string& about = "") {
  return tree.label(FrameKind::user, id, [&] { return FrameLabel{name, FrameKind::user, about}; });
}

// Adds `n` samples to the stack of labels under `at` (root first).
void stack(FrameTree& tree, const std::vector<uint32_t>& labels, uint64_t n, uint32_t at = 0) {
  for (uint32_t l : labels) at = tree.child(at, l);
  tree.add_samples(at, n);
}

struct Expect {
  std::string name;
  double x, width;
  uint32_t depth;
  uint64_t samples;
};

void expect_frames(const SvgLayout& got, const std::vector<Expect>& want) {
  ASSERT_EQ(got.frames.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i) + " " + want[i].name);
    EXPECT_EQ(got.frames[i].name, want[i].name);
    EXPECT_DOUBLE_EQ(got.frames[i].x, want[i].x);
    EXPECT_DOUBLE_EQ(got.frames[i].width, want[i].width);
    EXPECT_EQ(got.frames[i].depth, want[i].depth);
    EXPECT_EQ(got.frames[i].samples, want[i].samples);
  }
}

// main;a 5, main;b;c 2, main 1 (its own), other 2: 10 samples, added out of name order.
FrameTree ten_samples() {
  FrameTree tree;
  const uint32_t other = fn(tree, 7, "other"), main = fn(tree, 3, "main");
  const uint32_t b = fn(tree, 5, "b"), c = fn(tree, 6, "c"), a = fn(tree, 4, "a");
  stack(tree, {other}, 2);
  stack(tree, {main, b, c}, 2);
  stack(tree, {main}, 1);
  stack(tree, {main, a}, 5);
  tree.finish();
  return tree;
}

TEST(SvgLayout, FramesTakeTheirShareOfTheWidthDepthFirstSiblingsByName) {
  // 1200 px less the margins: 1180 px for 10 samples, 118 px each. A frame starts where its
  // previous sibling ends, the first one where its caller starts.
  const SvgLayout l = layout_frames(ten_samples(), 1200, 0.1);
  expect_frames(l, {{"all", 10, 1180, 0, 10},
                    {"main", 10, 944, 1, 8},
                    {"a", 10, 590, 2, 5},
                    {"b", 600, 236, 2, 2},
                    {"c", 600, 236, 3, 2},
                    {"other", 954, 236, 1, 2}});
  EXPECT_EQ(l.samples, 10u);
  EXPECT_EQ(l.max_depth, 3u);
  EXPECT_EQ(l.pruned, 0u);
  EXPECT_EQ(l.frames[1].kind, FrameKind::user);
  EXPECT_EQ(l.frames[0].kind, FrameKind::root);
  for (const auto& f : l.frames) EXPECT_EQ(f.share_of, 0u) << f.name;  // one event: of all
}

TEST(SvgLayout, NarrowFramesArePrunedWithTheirCallees) {
  // b, c and other are 236 px: kept at a minimum of 236, left out at 240 (c with b).
  const SvgLayout kept = layout_frames(ten_samples(), 1200, 236);
  EXPECT_EQ(kept.frames.size(), 6u);
  EXPECT_EQ(kept.pruned, 0u);
  const SvgLayout l = layout_frames(ten_samples(), 1200, 240);
  expect_frames(l, {{"all", 10, 1180, 0, 10}, {"main", 10, 944, 1, 8}, {"a", 10, 590, 2, 5}});
  EXPECT_EQ(l.pruned, 3u);
  EXPECT_EQ(l.max_depth, 2u);
  // The root stays, however narrow.
  const SvgLayout root_only = layout_frames(ten_samples(), 1200, 2000);
  expect_frames(root_only, {{"all", 10, 1180, 0, 10}});
  EXPECT_EQ(root_only.pruned, 5u);
}

TEST(SvgLayout, SharesAreOfTheirEventsFrame) {
  // 420 px less the margins: 400 px for 4 samples, 100 px each.
  FrameTree tree;
  const auto event = [&](uint64_t id, const std::string& name) {
    return tree.label(FrameKind::event, id, [&] { return FrameLabel{name, FrameKind::event, "event"}; });
  };
  const uint32_t instructions = tree.child(0, event(1, "instructions"), true);
  const uint32_t cycles = tree.child(0, event(0, "cycles"), true);
  stack(tree, {fn(tree, 1, "g")}, 1, instructions);
  stack(tree, {fn(tree, 2, "f")}, 3, cycles);
  tree.finish();
  const SvgLayout l = layout_frames(tree, 420, 0.1);
  expect_frames(l, {{"all", 10, 400, 0, 4},
                    {"cycles", 10, 300, 1, 3},
                    {"f", 10, 300, 2, 3},
                    {"instructions", 310, 100, 1, 1},
                    {"g", 310, 100, 2, 1}});
  const std::vector<uint32_t> share_of{0, 1, 1, 3, 3};
  for (size_t i = 0; i < share_of.size(); ++i) EXPECT_EQ(l.frames[i].share_of, share_of[i]) << i;
  EXPECT_EQ(l.frames[1].about, "event");
}

TEST(SvgLayout, InputsKeepTheirOrderAndEqualNamesGoByObject) {
  // 220 px: 200 px for 4 samples, 50 px each.
  FrameTree tree;
  const auto input = [&](uint64_t id, const std::string& name) {
    const uint32_t l =
        tree.label(FrameKind::input, id, [&] { return FrameLabel{name, FrameKind::input, "input"}; });
    return tree.child(0, l);
  };
  const uint32_t zeta = input(0, "zeta.pmclog"), alpha = input(1, "alpha.pmclog");
  stack(tree, {fn(tree, 1, "dup", "b.so")}, 1, zeta);
  stack(tree, {fn(tree, 2, "dup", "a.so")}, 2, zeta);
  stack(tree, {fn(tree, 3, "main")}, 1, alpha);
  tree.finish();
  const SvgLayout l = layout_frames(tree, 220, 0.1);
  expect_frames(l, {{"all", 10, 200, 0, 4},
                    {"zeta.pmclog", 10, 150, 1, 3},
                    {"dup", 10, 100, 2, 2},
                    {"dup", 110, 50, 2, 1},
                    {"alpha.pmclog", 160, 50, 1, 1},
                    {"main", 160, 50, 2, 1}});
  EXPECT_EQ(l.frames[2].about, "a.so");
  EXPECT_EQ(l.frames[3].about, "b.so");
}

TEST(SvgLayout, NoSamplesIsTheRootAlone) {
  FrameTree tree;
  tree.finish();
  const SvgLayout l = layout_frames(tree, 1200, 0.1);
  expect_frames(l, {{"all", 10, 0, 0, 0}});
  EXPECT_EQ(l.pruned, 0u);
  EXPECT_EQ(l.max_depth, 0u);
}

}  // namespace
