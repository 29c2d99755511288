// The flame graph's layout: the merged tree as the list of frames to draw, each with its
// place across the image and its row. Drawing them (y, colours, text) is the renderer's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "svg_tree.h"

namespace report::svg {

struct SvgFrame {
  double x = 0;        // pixels from the image's left edge
  double width = 0;    // pixels: the frame's samples times the pixels per sample
  uint32_t depth = 0;  // rows from the root (0)
  std::string name;    // clean()ed, not yet escaped for XML
  std::string about;   // the hover text's last line; may be empty
  FrameKind kind = FrameKind::user;  // with the name, picks the colour
  uint64_t samples = 0;              // the frame's own and its callees'
  uint32_t share_of = 0;  // the frame whose samples the percentage is of: an event's, else the root (0)
  uint64_t base_samples = 0;  // --diff: the base's samples on the same path
};

struct SvgLayout {
  // The frames drawn, depth-first: the root first, a frame's callees right after it, siblings
  // by name (inputs in the order given). The page script relies on this order.
  std::vector<SvgFrame> frames;
  uint64_t samples = 0;    // the root's: every sample
  uint64_t pruned = 0;     // frames narrower than the minimum, with the frames above them
  uint32_t max_depth = 0;  // of the frames drawn
};

// Frames of `tree` (finished) across `width` pixels, less the margins; frames narrower than
// `min_width` pixels are left out with their callees. The root is always drawn.
SvgLayout layout_frames(const FrameTree& tree, double width, double min_width);

}  // namespace report::svg
