// What the "Convex hull" panel draws for one head: the value rows as points
// in the plane (when d_v = 2), their hull polygon, every output row, its
// attention weights and how far it lies outside the hull (0 inside).
// HullModel rebuilds it only when the trace or the head changes, so while a
// value is dragged it follows every frame and the panel only maps points to pixels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "model/layout/layout.hpp"

namespace model {

struct HullView {
  bool ok = false;
  std::string reason;  // when !ok: why nothing can be plotted, for the panel to say
  int head = 0;
  std::vector<Vec2d> values;             // row j of V, (n_k)
  std::vector<std::string> value_labels;
  std::vector<int> hull;                 // indices into values, counter-clockwise
  std::vector<Vec2d> outputs;            // row i of weights · V, (n_q)
  std::vector<std::string> output_labels;
  attn::Mat weights;                     // (n_q, n_k)
  std::vector<double> outside;           // per output: distance to the hull, 0 inside
  Rect bounds;                           // values and outputs, with a margin
  // Set when rows of weights need not sum to 1 (mask after softmax, softmax
  // over queries), so outputs may leave the hull: the panel says why.
  std::string caveat;
};

// Larger key counts are refused: the plot would be an unreadable cloud.
constexpr int kHullMaxPoints = 512;

HullView build_hull_view(const attn::Trace& trace, int head);

// Maps a plot point (y up) into `screen` (y down) with equal scales on both
// axes, the bounds centred: the same mapping for points and hit tests.
Vec2d hull_to_screen(const HullView& view, const Rect& screen, Vec2d p);

// The output nearest to the screen point within `radius` pixels, or -1.
int output_at(const HullView& view, const Rect& screen, Vec2d point, double radius);

class HullModel {
 public:
  int head = 0;      // head to plot when the canvas shows all heads
  int selected = 0;  // the output whose weights are drawn as lines

  const HullView& update(const attn::Trace& trace, std::uint64_t generation, int shown_head);
  const HullView& view() const { return view_; }
  int builds() const { return builds_; }  // for tests

 private:
  HullView view_;
  std::uint64_t generation_ = 0;
  int built_head_ = -1;
  int builds_ = 0;
};

}  // namespace model
