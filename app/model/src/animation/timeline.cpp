// Builds the play order: one step per computed stage, row or cell. Large
// stages fall back to coarser steps so a 1024-token scene does not become a
// million-step timeline.
#include "model/animation/timeline.hpp"

#include <algorithm>

#include "model/animation/stage_roles.hpp"

namespace model {
namespace {

constexpr int kMaxRowSteps = 64;    // more rows than this: animate the stage whole
constexpr int kMaxCellSteps = 256;  // more cells than this: animate by rows
constexpr double kStageSeconds = 1.2;
constexpr double kSoftmaxSeconds = 2.0;  // two phases: exponentiate, normalise
constexpr double kRowSeconds = 0.7;

bool included(const attn::Stage& s, TimelineFilter f) { return f.head < 0 || s.head < 0 || s.head == f.head; }

// Cells make sense for sums of products: they show the terms accumulating.
double cell_seconds(int terms) { return std::min(0.5 + 0.25 * terms, 2.5); }

}  // namespace

Timeline build_timeline(const attn::Trace& trace, Granularity g, TimelineFilter filter) {
  Timeline tl;
  tl.granularity = g;
  double t = 0;
  auto add = [&](int stage, int row, int col, double d) {
    tl.steps.push_back({stage, row, col, t, d});
    t += d;
  };
  for (size_t i = 0; i < trace.stages.size(); ++i) {
    const attn::Stage& s = trace.stages[i];
    if (!included(s, filter) || is_input_stage(s)) continue;
    const int index = static_cast<int>(i);
    tl.stage_order.push_back(index);
    const double stage_start = t;
    const int rows = static_cast<int>(s.value.rows()), cols = static_cast<int>(s.value.cols());
    const Transition tr = transition_of(trace, s);
    const ProductOperands ops = product_operands(trace, index);
    const bool softmax = tr == Transition::Softmax;
    const bool whole = g == Granularity::Stage || rows > kMaxRowSteps || tr == Transition::Concat;
    if (whole) {
      add(index, -1, -1, softmax ? kSoftmaxSeconds : kStageSeconds);
    } else if (g == Granularity::Cell && ops.valid() && rows * cols <= kMaxCellSteps) {
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) add(index, r, c, cell_seconds(ops.inner));
    } else {
      for (int r = 0; r < rows; ++r) add(index, r, -1, softmax ? 1.2 : kRowSeconds);
    }
    tl.spans.push_back({stage_start, t});
  }
  tl.total = t;
  return tl;
}

int step_at(const Timeline& tl, double t) {
  if (tl.steps.empty()) return -1;
  // The first step that has not ended before t: at a boundary the finished
  // step stays current (complete, with its sources still lit).
  auto it = std::lower_bound(tl.steps.begin(), tl.steps.end(), t,
                             [](const Step& s, double v) { return s.start + s.duration < v; });
  if (it == tl.steps.end()) return static_cast<int>(tl.steps.size()) - 1;
  return static_cast<int>(it - tl.steps.begin());
}

double next_boundary(const Timeline& tl, double t) {
  constexpr double eps = 1e-9;
  for (const Step& s : tl.steps)
    if (s.start + s.duration > t + eps) return s.start + s.duration;
  return tl.total;
}

double previous_boundary(const Timeline& tl, double t) {
  constexpr double eps = 1e-9;
  double best = 0;
  for (const Step& s : tl.steps) {
    const double end = s.start + s.duration;
    if (end < t - eps) best = end;
    else break;
  }
  return best;
}

}  // namespace model
