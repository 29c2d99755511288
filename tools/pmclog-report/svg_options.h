// What --format svg draws and how: the drawing the command line asks for, and the frames the
// merged tree gets (format_options.cpp fills both).
#pragma once

#include <string>

namespace report {

// The flame graph's drawing.
struct SvgDrawing {
  bool icicle = false;    // root at the top, stacks growing down
  bool reverse = false;   // stacks merged by leaf: who calls the hot functions
  double min_width = 0.1;  // frames narrower than this many pixels are pruned (and counted)
  unsigned width = 1200;   // image width in pixels
  std::string title;       // "" : "Flame graph: EVENT (INPUTS)"
  std::string caveat;      // what the subtitle must also say of the stacks ("": nothing)
};

struct SvgOptions {
  SvgDrawing drawing;
  bool event_frame = false;  // each event a frame on the root (format_options.cpp says when)
  bool comm_frame = false;   // the command a frame under it (--comm-frame)
  bool inlines = false;      // inlined calls as frames of their own (--inline)
};

}  // namespace report
