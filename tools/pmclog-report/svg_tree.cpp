#include "svg_tree.h"

#include <algorithm>
#include <span>

#include "pmcprofile/objects.h"
#include "pmcprofile/views.h"
#include "svg_text.h"

namespace report::svg {

FrameTree::FrameTree() : labels_{{"all", FrameKind::root, ""}}, nodes_(1) {}

uint32_t FrameTree::child(uint32_t parent, uint32_t label, bool is_event) {
  auto [it, fresh] =
      child_ids_.try_emplace(uint64_t{parent} << 32 | label, static_cast<uint32_t>(nodes_.size()));
  if (fresh) {
    TreeNode n;
    n.parent = parent;
    n.label = label;
    n.depth = nodes_[parent].depth + 1;
    n.base = is_event ? it->second : nodes_[parent].base;
    nodes_.push_back(n);
  }
  return it->second;
}

uint32_t FrameTree::find(uint32_t parent, uint32_t label) const {
  const auto it = child_ids_.find(uint64_t{parent} << 32 | label);
  return it == child_ids_.end() ? kNone : it->second;
}

void FrameTree::reserve(size_t nodes) {
  child_ids_.reserve(nodes);
  nodes_.reserve(nodes + 1);
}

void FrameTree::finish() {
  child_ids_ = {};
  // One pass from the last node: children come after their parents.
  for (size_t k = nodes_.size(); k-- > 1;) {
    nodes_[nodes_[k].parent].total += nodes_[k].total;
    nodes_[nodes_[k].parent].base_total += nodes_[k].base_total;
  }
}

namespace {

// A function's label; its kind by what the symbolizer found: unresolved, kernel, inlined
// or user code.
uint32_t function_label(FrameTree& tree, const pmcprofile::ProfileView& in,
                        const pmcprofile::FunctionRef& r) {
  const pmcprofile::Function& f = in.tables.functions[r.id];
  const FrameKind k = f.why != pmcprofile::Unresolved::none ? FrameKind::unresolved
                      : f.kernel                             ? FrameKind::kernel
                      : r.inlined()                          ? FrameKind::inlined
                                                             : FrameKind::user;
  return tree.label(k, uint64_t{r.id}, [&] {
    FrameLabel l;
    l.name = clean(pmcprofile::function_label(f));
    std::string about;
    if (f.object != pmcprofile::kNoObject) about = clean(in.objects.peek(f.object).name);
    auto add = [&](const std::string& w) { about += (about.empty() ? "" : ", ") + w; };
    if (f.kernel) add("kernel");
    if (r.inlined()) add("inlined");
    if (f.why != pmcprofile::Unresolved::none)
      add(std::string("unresolved: ") + pmcprofile::unresolved_reason(f.why));
    l.about = about;
    return l;
  });
}

// The labels of a stack's frames under the input's: its event (several events), its
// command (--comm-frame), then its functions (from the leaf with drawing.reverse).
void stack_labels(FrameTree& tree, const pmcprofile::ProfileView& in, const SvgOptions& o,
                  const pmcprofile::Context& c, std::span<const pmcprofile::FunctionRef> stack,
                  std::vector<uint32_t>& path) {
  const pmcprofile::Tables& t = in.tables;
  path.clear();
  if (o.event_frame) {
    const uint32_t e = t.distinct_events.of[c.event];
    path.push_back(tree.label(FrameKind::event, e, [&] {
      return FrameLabel{clean(t.events[t.distinct_events.first[e]]), FrameKind::event, "event"};
    }));
  }
  if (o.comm_frame)
    path.push_back(tree.label(FrameKind::comm, c.comm, [&] {
      return FrameLabel{clean(t.comms[c.comm]), FrameKind::comm, "command"};
    }));
  const size_t functions = path.size();
  for (const auto& r : stack) path.push_back(function_label(tree, in, r));
  if (o.drawing.reverse)  // leaf at the base
    std::reverse(path.begin() + static_cast<std::ptrdiff_t>(functions), path.end());
}

// Adds every stack of `p` under `top`, a sample counting weight[its event id] times (1
// when `weight` is empty).
void add_profile(FrameTree& tree, const pmcprofile::ProfileView& in, const SvgOptions& o,
                 const pmcprofile::Profile& p, uint32_t top,
                 std::span<const uint64_t> weight = {}) {
  std::vector<uint32_t> path;
  auto add = [&](uint32_t ctx, std::span<const pmcprofile::FunctionRef> stack, uint64_t n) {
    const pmcprofile::Context& c = in.tables.context_of(ctx);
    if (!weight.empty()) n *= weight[c.event];
    stack_labels(tree, in, o, c, stack, path);
    uint32_t at = top;
    // An event's frame is the base of the percentages under it.
    for (uint32_t l : path) at = tree.child(at, l, tree.labels()[l].kind == FrameKind::event);
    tree.add_samples(at, n);
  };
  pmcprofile::for_each_function_stack(p, in.tables, o.inlines, add);
}

}  // namespace

FrameTree merge_stacks(const pmcprofile::ProfileView& in, const SvgOptions& o) {
  const std::vector<pmcprofile::Profile>& ps = in.profiles;
  const bool by_file = ps.size() > 1 || (!ps.empty() && !ps.front().name.empty());
  FrameTree tree;
  size_t guess = 0;
  for (const auto& p : ps) guess += p.nodes.size();
  tree.reserve(guess);
  for (size_t pi = 0; pi < ps.size(); ++pi) {
    const pmcprofile::Profile& p = ps[pi];
    uint32_t top = 0;
    if (by_file)
      top = tree.child(0, tree.label(FrameKind::input, pi, [&] {
        return FrameLabel{clean(p.name), FrameKind::input, "input"};
      }));
    add_profile(tree, in, o, p, top);
  }
  tree.finish();
  return tree;
}

FrameTree merge_diff_stacks(const pmcprofile::ProfileView& in, const SvgOptions& o,
                            std::span<const uint64_t> base_weight,
                            std::span<const uint64_t> new_weight) {
  const pmcprofile::Profile& base = in.profiles.at(0);
  FrameTree tree;
  tree.reserve(in.profiles.at(1).nodes.size());
  add_profile(tree, in, o, in.profiles.at(1), 0, new_weight);
  std::vector<uint32_t> path;
  auto add = [&](uint32_t ctx, std::span<const pmcprofile::FunctionRef> stack, uint64_t n) {
    const pmcprofile::Context& c = in.tables.context_of(ctx);
    if (!base_weight.empty()) n *= base_weight[c.event];
    stack_labels(tree, in, o, c, stack, path);
    uint32_t at = 0;
    for (uint32_t l : path) {
      const uint32_t next = tree.find(at, l);
      if (next == FrameTree::kNone) break;
      at = next;
    }
    tree.add_base_samples(at, n);
  };
  pmcprofile::for_each_function_stack(base, in.tables, o.inlines, add);
  tree.finish();
  return tree;
}

}  // namespace report::svg
