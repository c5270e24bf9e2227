// Builds the convex-hull panel's picture from a trace; see hull_view.hpp.
#include "model/explore/hull_view.hpp"

#include <algorithm>
#include <cmath>

#include "attn/explore/convex_hull.hpp"

namespace model {

HullView build_hull_view(const attn::Trace& trace, int head) {
  HullView h;
  h.head = std::clamp(head, 0, std::max(0, trace.dims.n_heads - 1));
  const attn::Stage* w = trace.find(attn::StageKind::weights, h.head);
  const attn::Stage* out = trace.find(attn::StageKind::head_output, h.head);
  // The values the head read: its own, or its group's (grouped-query attention).
  const attn::Stage* v = out && out->inputs.size() == 2 ? trace.find(out->inputs[1]) : nullptr;
  if (!v || !w || !out) {
    h.reason = "This trace has no values for head " + std::to_string(h.head) + ".";
    return h;
  }
  if (trace.dims.d_v != 2) {
    h.reason = "Values have " + std::to_string(trace.dims.d_v) +
               " numbers each (d_v = " + std::to_string(trace.dims.d_v) +
               "); a flat plot needs exactly 2. Open a scene with d_v = 2, e.g. convex_hull_2d.json, "
               "or set d_v to 2 in the editor.";
    return h;
  }
  if (trace.dims.n_k > kHullMaxPoints || trace.dims.n_q > kHullMaxPoints) {
    h.reason = "Too many tokens to plot (" + std::to_string(std::max(trace.dims.n_q, trace.dims.n_k)) +
               "; at most " + std::to_string(kHullMaxPoints) + ").";
    return h;
  }
  h.ok = true;
  for (Eigen::Index j = 0; j < v->value.rows(); ++j) h.values.push_back({v->value(j, 0), v->value(j, 1)});
  for (Eigen::Index i = 0; i < out->value.rows(); ++i) h.outputs.push_back({out->value(i, 0), out->value(i, 1)});
  h.value_labels = v->row_labels;
  h.output_labels = out->row_labels;
  h.weights = w->value.dense();
  h.hull = attn::convex_hull_2d(v->value.dense());
  for (Eigen::Index i = 0; i < out->value.rows(); ++i)
    h.outside.push_back(attn::hull_distance(v->value.dense(), out->value.row(i).transpose()));
  if (trace.mask_mode == attn::MaskMode::AfterSoftmax)
    h.caveat = "The mask zeroes weights after softmax without renormalising, so rows sum to less than 1 "
               "and outputs can fall outside the hull.";
  else if (trace.softmax_axis == attn::SoftmaxAxis::Queries)
    h.caveat = "Softmax runs over queries: columns sum to 1, rows need not, so outputs can fall outside the hull.";

  Rect b{h.values[0].x, h.values[0].y, h.values[0].x, h.values[0].y};
  for (const std::vector<Vec2d>* pts : {&h.values, &h.outputs})
    for (const Vec2d& p : *pts) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
  // A margin of 8% (at least 0.1) keeps labels and dots off the frame.
  const double pad = std::max(0.1, 0.08 * std::max(b.width(), b.height()));
  h.bounds = {b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad};
  return h;
}

Vec2d hull_to_screen(const HullView& view, const Rect& screen, Vec2d p) {
  const Rect& b = view.bounds;
  const double scale = std::min(screen.width() / std::max(1e-12, b.width()), screen.height() / std::max(1e-12, b.height()));
  const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  const double sx = (screen.x0 + screen.x1) / 2, sy = (screen.y0 + screen.y1) / 2;
  return {sx + (p.x - cx) * scale, sy - (p.y - cy) * scale};
}

int output_at(const HullView& view, const Rect& screen, Vec2d point, double radius) {
  int best = -1;
  double best_d = radius;
  for (size_t i = 0; i < view.outputs.size(); ++i) {
    const Vec2d s = hull_to_screen(view, screen, view.outputs[i]);
    const double d = std::hypot(s.x - point.x, s.y - point.y);
    if (d <= best_d) best_d = d, best = static_cast<int>(i);
  }
  return best;
}

const HullView& HullModel::update(const attn::Trace& trace, std::uint64_t generation, int shown_head) {
  const int want = shown_head >= 0 ? shown_head : head;
  if (builds_ == 0 || generation != generation_ || want != built_head_) {
    view_ = build_hull_view(trace, want);
    generation_ = generation;
    built_head_ = want;
    ++builds_;
  }
  if (view_.ok) selected = std::clamp(selected, 0, static_cast<int>(view_.outputs.size()) - 1);
  return view_;
}

}  // namespace model
