// The flame graph's tree: every stack of every profile merged under one root, with the
// frames the tool adds (input, event, command) above the functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "pmcprofile/views.h"
#include "svg_options.h"

namespace report::svg {

// What a frame is, which picks its palette.
enum class FrameKind : uint8_t { root, input, event, comm, user, kernel, inlined, unresolved };

// A distinct frame of the graph: its name (clean()ed), what kind, and the hover text's
// last line (object, kernel, inlined, why unresolved).
struct FrameLabel {
  std::string name;
  FrameKind kind = FrameKind::user;
  std::string about;
};

// A frame of the merged tree.
struct TreeNode {
  uint32_t parent = 0;
  uint32_t label = 0;
  uint32_t depth = 0;
  uint32_t base = 0;   // the node whose samples percentages are of (its event, else the root)
  uint64_t total = 0;  // self samples while the tree is built, then with the callees'
  uint64_t base_total = 0;  // --diff: the same of the base's stacks through this frame
};

// Node 0 is the root, labelled 0 ("all"); a child always comes after its parent.
class FrameTree {
 public:
  FrameTree();

  // The label of (kind, id), made by make() on first use. Label numbers follow first use:
  // they keep inputs in the order given and break ties between equal names.
  template <class Make>
  uint32_t label(FrameKind kind, uint64_t id, Make&& make) {
    const uint64_t key = uint64_t{static_cast<uint8_t>(kind)} << 56 | id;
    auto [it, fresh] = label_ids_.try_emplace(key, static_cast<uint32_t>(labels_.size()));
    if (fresh) {
      FrameLabel l = make();
      l.kind = kind;
      labels_.push_back(std::move(l));
    }
    return it->second;
  }

  // The child of `parent` labelled `label`, made if new. An event's frame (`is_event`) is
  // the base of the percentages of the frames under it.
  uint32_t child(uint32_t parent, uint32_t label, bool is_event = false);
  // The child of `parent` labelled `label`, or kNone; never makes one.
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t find(uint32_t parent, uint32_t label) const;
  void add_samples(uint32_t node, uint64_t n) { nodes_[node].total += n; }
  void add_base_samples(uint32_t node, uint64_t n) { nodes_[node].base_total += n; }
  void reserve(size_t nodes);
  // Ends the merging: every caller's total now holds its callees' samples.
  void finish();

  const std::vector<FrameLabel>& labels() const { return labels_; }
  const std::vector<TreeNode>& nodes() const { return nodes_; }

 private:
  std::vector<FrameLabel> labels_;
  std::vector<TreeNode> nodes_;
  std::unordered_map<uint64_t, uint32_t> label_ids_;
  std::unordered_map<uint64_t, uint32_t> child_ids_;  // (parent, label) -> node
};

// The tree of every stack of every profile: the root "all", then the input (--by-file), the
// event (SvgOptions::event_frame), the command (comm_frame), then the functions (from the leaf
// with drawing.reverse).
FrameTree merge_stacks(const pmcprofile::ProfileView& in, const SvgOptions& o);

// --diff: the tree of the new profile (in.profiles[1]), each frame with the base's
// (in.profiles[0]) samples on the same path as base_total. A base stack that leaves the new
// shape counts up to the last frame the two share. A side with weights
// (pmcprofile::period_weights, by event id) counts samples x weight.
FrameTree merge_diff_stacks(const pmcprofile::ProfileView& in, const SvgOptions& o,
                            std::span<const uint64_t> base_weight,
                            std::span<const uint64_t> new_weight);

}  // namespace report::svg
