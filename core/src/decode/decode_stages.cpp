// A decode step's Stage records (decode_stages.hpp).
#include "decode/decode_stages.hpp"

#include <cmath>

#include "compute/stage_builder.hpp"

namespace attn::detail {
namespace {

std::string token_label(const Scenario& s, int i) {
  return s.tokens.size() == static_cast<size_t>(s.x.rows()) ? s.tokens[static_cast<size_t>(i)]
                                                            : "t" + std::to_string(i);
}

// A stage's cells must be finite, except −∞ where the mask blocked a logit:
// the same promise a Trace makes.
void require_finite(const Stage& st, int t) {
  const Mat& m = st.value.stored();
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const double v = m(r, c);
      if (std::isfinite(v) || (v < 0 && std::isinf(v) && st.is_blocked((int)r, (int)c))) continue;
      throw ComputeError("decode step " + std::to_string(t) + ", stage \"" + to_string(st.id) + "\"" +
                             (st.head >= 0 ? " (head " + std::to_string(st.head) + ")" : std::string()) + ", cell [" +
                             std::to_string(r) + "][" + std::to_string(c) +
                             "]: value overflowed; the inputs are too large for double precision",
                         st.ref(), (int)r, (int)c);
    }
}

}  // namespace

StepScene step_scene(const Scenario& s, int t) {
  StepScene sc{s, dims_of(s), t, {}, {}, {}, {}};
  std::vector<std::string> cached;
  cached.reserve(static_cast<size_t>(t) + 1);
  for (int i = 0; i <= t; ++i) cached.push_back(token_label(s, i));
  sc.new_token = std::vector<std::string>{cached.back()};
  sc.cached = std::move(cached);
  sc.dims_k = index_labels(sc.d.d_k);
  sc.dims_v = index_labels(sc.d.d_v);
  return sc;
}

Stage& push_step_stage(DecodeStep& step, const StepScene& sc, StageKind id, int head, std::string formula,
                       std::vector<StageRef> inputs, Mat m, Labels rows, Labels cols, ValueKind kind,
                       SharedMask blocked) {
  Stage st;
  st.id = id;
  st.head = head;
  st.title = std::string(info_of(id).title);
  st.formula = std::move(formula);
  st.inputs = std::move(inputs);
  st.value = StageValues(std::move(m));
  st.kind = kind;
  st.row_labels = std::move(rows);
  st.col_labels = std::move(cols);
  st.blocked = std::move(blocked);
  require_finite(st, sc.t);
  step.stages.push_back(std::move(st));
  return step.stages.back();
}

}  // namespace attn::detail
