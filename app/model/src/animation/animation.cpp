// Animation evaluation: given the trace, the timeline and a time, say what is
// visible and what value each cell shows. Pure: no clock, no state, so any
// moment can be rendered again, scrubbed to, or captured headless.
#include "model/animation/animation.hpp"

#include <algorithm>
#include <cmath>

#include "model/animation/stage_roles.hpp"

namespace model {
namespace {

using attn::SourceRegion;

// Phase at which a cell of the active step is "done" within a stage-level
// step: a top-to-bottom wave so the stage visibly builds.
double wave(double phase, int r, int rows) {
  const double offset = rows > 1 ? 0.5 * r / (rows - 1) : 0.0;
  return std::clamp((phase - offset) * 2.0, 0.0, 1.0);
}

// Where the active step reads from: rows and columns of its input stages.
std::vector<SourceRegion> sources_of(const attn::Trace& trace, const Step& step) {
  const attn::Stage& s = trace.stages[static_cast<size_t>(step.stage)];
  std::vector<SourceRegion> out;
  const ProductOperands ops = product_operands(trace, step.stage);
  const int r = step.row, c = step.col;
  for (size_t k = 0; k < s.inputs.size(); ++k) {
    const int idx = trace.index_of(s.inputs[k]);
    if (idx < 0) continue;
    const attn::StageValues& m = trace.stages[static_cast<size_t>(idx)].value;
    SourceRegion reg{s.inputs[k], 0, static_cast<int>(m.rows()), 0, static_cast<int>(m.cols())};
    const bool second = ops.valid() && idx == ops.b;
    if (ops.valid() && second) {
      // B operand: column c (or row c of K for Q · Kᵀ); all of it for row steps.
      if (c >= 0 && ops.b_transposed) reg.row0 = c, reg.row1 = c + 1;
      else if (c >= 0) reg.col0 = c, reg.col1 = c + 1;
    } else if (s.id == attn::StageKind::concat) {
      if (r >= 0) reg.row0 = r, reg.row1 = r + 1;
    } else if (r >= 0) {
      const bool column_softmax = trace.softmax_axis == attn::SoftmaxAxis::Queries &&
                                  transition_of(trace, s) == Transition::Softmax;
      if (!column_softmax) reg.row0 = r, reg.row1 = r + 1;
      if (c >= 0 && !ops.valid()) reg.col0 = c, reg.col1 = c + 1;
    }
    out.push_back(reg);
  }
  return out;
}

// Σ of the first `terms` products of cell (r, c) of a product stage.
double partial_sum(const attn::Trace& trace, const ProductOperands& ops, int r, int c, int terms) {
  const attn::StageValues& a = trace.stages[static_cast<size_t>(ops.a)].value;
  const attn::StageValues& b = trace.stages[static_cast<size_t>(ops.b)].value;
  double sum = 0;
  for (int t = 0; t < terms; ++t) sum += a(r, t) * (ops.b_transposed ? b(c, t) : b(t, c));
  return sum;
}

// Progress of cell (r, c) within the active step, 0..1; -1 when the cell is
// not part of it (then it is either done, or not yet reached).
double cell_phase(const Step& step, const Frame& f, int rows, int r, int c, int cols, bool concat, int n_heads) {
  if (step.row < 0) {
    if (concat && n_heads > 0) {
      const int block = c * n_heads / std::max(cols, 1);
      return std::clamp(f.step_phase * n_heads - block, 0.0, 1.0);
    }
    return wave(f.step_phase, r, rows);
  }
  if (r != step.row) return -1;
  if (step.col < 0) return std::clamp((f.step_phase * 1.3 - 0.3 * c / std::max(cols - 1, 1)), 0.0, 1.0);
  return c == step.col ? f.step_phase : -1;
}

}  // namespace

Frame evaluate(const attn::Trace& trace, const Timeline& tl, double t) {
  Frame f;
  f.t = std::clamp(t, 0.0, tl.total);
  f.stage_progress.assign(trace.stages.size(), 1.0f);
  f.finished = tl.steps.empty() || f.t >= tl.total;
  if (tl.steps.empty()) return f;
  for (size_t k = 0; k < tl.stage_order.size(); ++k) {
    const Timeline::Span& span = tl.spans[k];
    const double p = (f.t - span.start) / std::max(span.end - span.start, 1e-9);
    f.stage_progress[static_cast<size_t>(tl.stage_order[k])] = static_cast<float>(std::clamp(p, 0.0, 1.0));
  }
  f.step = step_at(tl, f.t);
  const Step& cur = tl.steps[static_cast<size_t>(f.step)];
  f.step_phase = cur.duration > 0 ? std::clamp((f.t - cur.start) / cur.duration, 0.0, 1.0) : 1.0;
  if (f.finished) return f;
  f.active_stage = cur.stage;
  f.active_row = cur.row;
  f.active_col = cur.col;
  const attn::Stage& st = trace.stages[static_cast<size_t>(cur.stage)];
  f.transition = transition_of(trace, st);
  const ProductOperands ops = product_operands(trace, cur.stage);
  if (ops.valid() && cur.col >= 0) {
    f.terms_total = ops.inner;
    // Products accumulate during the first 80% of the step, then it rests.
    f.terms_done = std::min(ops.inner, static_cast<int>(std::floor(f.step_phase / 0.8 * ops.inner)));
  }
  f.highlights = sources_of(trace, cur);
  return f;
}

float cell_visibility(const attn::Trace& trace, const Timeline& tl, const Frame& f, int stage, int r, int c) {
  const float p = f.stage_progress.at(static_cast<size_t>(stage));
  if (p >= 1.0f && stage != f.active_stage) return 1.0f;
  if (stage != f.active_stage) return p <= 0.0f ? 0.0f : 1.0f;
  const Step& cur = tl.steps[static_cast<size_t>(f.step)];
  const attn::Stage& s = trace.stages[static_cast<size_t>(stage)];
  const int rows = static_cast<int>(s.value.rows()), cols = static_cast<int>(s.value.cols());
  // Cells this step rewrites in place (scaling, masking, softmax) stay
  // visible: the transition is carried by displayed_value instead.
  const Transition tr = transition_of(trace, s);
  const double ph = cell_phase(cur, f, rows, r, c, cols, s.id == attn::StageKind::concat, trace.dims.n_heads);
  const bool in_place = tr == Transition::Scale || tr == Transition::MaskBlank || tr == Transition::Softmax ||
                        tr == Transition::Bias;
  if (ph < 0) {
    // Outside the active step: earlier rows/cells are done, later ones hidden.
    const bool before = r < cur.row || (r == cur.row && cur.col >= 0 && c < cur.col);
    return before ? 1.0f : 0.0f;
  }
  if (in_place) return 1.0f;
  return static_cast<float>(ease_in_out(ph * 1.5));
}

double displayed_value(const attn::Trace& trace, const Frame& f, int stage, int r, int c) {
  const attn::Stage& s = trace.stages[static_cast<size_t>(stage)];
  const double final_value = s.value(r, c);
  if (stage != f.active_stage) return final_value;
  const bool in_step = f.active_row < 0 || (r == f.active_row && (f.active_col < 0 || c == f.active_col));
  if (!in_step) return final_value;
  const double ph = f.active_row < 0 ? wave(f.step_phase, r, static_cast<int>(s.value.rows())) : f.step_phase;
  auto input_value = [&](size_t k) {
    const int idx = trace.index_of(s.inputs.at(k));
    return idx < 0 ? final_value : trace.stages[static_cast<size_t>(idx)].value(r, c);
  };
  // Every number shown is a real intermediate, never a blend of two: a
  // teacher may pause anywhere. The motion comes from cells switching one
  // after another as the step sweeps (and from the visibility fades).
  switch (transition_of(trace, s)) {
    case Transition::Scale:
    case Transition::Bias:
      return ph < 0.5 ? input_value(0) : final_value;
    case Transition::MaskBlank:
      if (!s.is_blocked(r, c)) return final_value;
      return ph < 0.5 ? input_value(0) : final_value;  // blanks at half-time
    case Transition::Softmax: {
      if (s.head < 0 || static_cast<size_t>(s.head) >= trace.softmax.size()) return final_value;
      // First half: exp(l - max), which is <= 1 and so already fits the
      // probability colours; second half: divided by the row sum.
      return ph < 0.5 ? attn::softmax_exp(trace, s.head, r, c) : final_value;
    }
    default: break;
  }
  if (f.terms_total > 0 && f.active_col == c && f.active_row == r) {
    const ProductOperands ops = product_operands(trace, stage);
    if (ops.valid()) return partial_sum(trace, ops, r, c, f.terms_done);
  }
  return final_value;
}

int presented_stage(const Timeline& tl, const Frame& f) {
  if (f.active_stage >= 0) return f.active_stage;
  if (tl.steps.empty()) return -1;
  const int step = std::clamp(f.step, 0, static_cast<int>(tl.steps.size()) - 1);
  return tl.steps[static_cast<size_t>(step)].stage;
}

}  // namespace model
