// The flame graph's fixed geometry, shared by the layout, the labels and the drawing.
#pragma once

namespace report::svg {

// flamegraph.pl's geometry: 16 px frames, 12 px Verdana, a glyph taken as 0.59 em wide.
constexpr double kFrameHeight = 16;
constexpr double kFontSize = 12;
constexpr double kFontWidth = 0.59;
constexpr double kPad = 10;  // left and right margins

}  // namespace report::svg
