#include "svg_layout.h"

#include <algorithm>
#include <span>

#include "pmcprofile/child_lists.h"
#include "svg_geometry.h"

namespace report::svg {
namespace {

// Siblings sorted by name (flamegraph.pl's order: the picture does not change between
// runs), inputs kept in the order given.
struct SiblingOrder {
  const FrameTree& tree;
  bool operator()(uint32_t a, uint32_t b) const {
    const uint32_t la = tree.nodes()[a].label, lb = tree.nodes()[b].label;
    const FrameLabel& fa = tree.labels()[la];
    const FrameLabel& fb = tree.labels()[lb];
    if (fa.kind == FrameKind::input && fb.kind == FrameKind::input) return la < lb;
    if (fa.name != fb.name) return fa.name < fb.name;
    if (fa.about != fb.about) return fa.about < fb.about;
    return la < lb;
  }
};

}  // namespace

SvgLayout layout_frames(const FrameTree& tree, double width, double min_width) {
  const std::vector<TreeNode>& nodes = tree.nodes();
  // The root (node 0) has no parent.
  pmcprofile::ChildLists children(nodes.size(), [&](size_t k) {
    return k == 0 ? pmcprofile::ChildLists::kNoParent : nodes[k].parent;
  });
  SvgLayout out;
  out.samples = nodes[0].total;
  const double inner = width - 2 * kPad;
  const double per_sample = out.samples == 0 ? 0 : inner / static_cast<double>(out.samples);
  std::vector<uint32_t> frame_of(nodes.size(), 0);  // a node's index in out.frames
  struct Todo {
    uint32_t node;
    double x;
  };
  std::vector<Todo> todo{{0, kPad}};
  while (!todo.empty()) {  // depth-first, the first sibling popped first
    const Todo at = todo.back();
    todo.pop_back();
    const TreeNode& n = nodes[at.node];
    const double w = static_cast<double>(n.total) * per_sample;
    if (at.node != 0 && w < min_width) continue;  // with its callees, narrower still
    frame_of[at.node] = static_cast<uint32_t>(out.frames.size());
    const FrameLabel& l = tree.labels()[n.label];
    out.frames.push_back(
        {at.x, w, n.depth, l.name, l.about, l.kind, n.total, frame_of[n.base], n.base_total});
    out.max_depth = std::max(out.max_depth, n.depth);
    // Only drawn frames need their callees sorted and placed.
    const auto ch = children.of(at.node);
    std::sort(ch.begin(), ch.end(), SiblingOrder{tree});
    const size_t pushed = todo.size();
    double cx = at.x;
    for (uint32_t c : ch) {
      todo.push_back({c, cx});
      cx += static_cast<double>(nodes[c].total) * per_sample;
    }
    std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(pushed), todo.end());
  }
  out.pruned = nodes.size() - out.frames.size();  // every node not drawn is under a pruned one
  return out;
}

}  // namespace report::svg
