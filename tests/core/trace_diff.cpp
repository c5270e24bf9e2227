// Random scenes and trace comparison for the recompute tests (trace_diff.hpp).
#include "trace_diff.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace trace_diff {

attn::Scenario random_scene(Rng& r) {
  attn::Scenario s;
  const int n = r.pick(2, 9), d = r.pick(2, 6), heads = r.pick(1, 3), dk = r.pick(1, 4);
  s.x = r.mat(n, d);
  for (int i = 0; i < n; ++i) s.tokens.push_back("w" + std::to_string(i));
  int d_ctx = d;
  if (r.pick(0, 3) == 0) {
    const int m = r.pick(2, 7);
    d_ctx = r.pick(2, 5);
    s.context = r.mat(m, d_ctx);
  }
  for (int h = 0; h < heads; ++h) s.heads.push_back({r.mat(d, dk), r.mat(d_ctx, dk), r.mat(d_ctx, dk)});
  if (r.pick(0, 1)) s.w_o = r.mat(heads * dk, r.pick(2, 5));
  const int nk = s.context ? static_cast<int>(s.context->rows()) : n;
  s.mask = r.pick(0, 2) ? attn::MaskKind::Custom : (s.context ? attn::MaskKind::None : attn::MaskKind::Causal);
  if (s.mask == attn::MaskKind::Custom) {
    s.custom_mask = attn::BoolMat::Constant(n, nk, false);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < nk; ++j) s.custom_mask(i, j) = r.pick(0, 3) == 0;
  }
  s.mask_mode = r.pick(0, 3) ? attn::MaskMode::BeforeSoftmax : attn::MaskMode::AfterSoftmax;
  s.softmax_axis = r.pick(0, 4) ? attn::SoftmaxAxis::Keys : attn::SoftmaxAxis::Queries;
  if (!s.context && r.pick(0, 3) == 0) s.positional = attn::Positional::Alibi;
  if (s.w_o && r.pick(0, 1)) s.output_bias = r.mat(static_cast<int>(s.w_o->cols()), 1).col(0);  // W_O's bias b_O
  return s;
}

Diff diff(const attn::Trace& got, const attn::Trace& want, const std::vector<std::string>& may_round) {
  Diff d;
  if (got.stages.size() != want.stages.size()) d.structure = "stage count differs";
  if (got.notes != want.notes) d.structure = "notes differ";
  for (size_t k = 0; k < std::min(got.stages.size(), want.stages.size()) && d.structure.empty(); ++k) {
    const attn::Stage &a = got.stages[k], &b = want.stages[k];
    const bool same_mask = a.blocked.rows() == b.blocked.rows() && a.blocked.cols() == b.blocked.cols() &&
                           a.blocked.mat() == b.blocked.mat();
    if (a.id != b.id || a.head != b.head || a.row_labels != b.row_labels || a.col_labels != b.col_labels ||
        a.fully_masked != b.fully_masked || !same_mask) {
      d.structure = "stage " + attn::to_string(b.id) + " head " + std::to_string(b.head) + ": id, labels or mask differ";
      break;
    }
    const Mat x = a.value.dense(), y = b.value.dense();
    if (x.rows() != y.rows() || x.cols() != y.cols()) {
      d.structure = "stage " + attn::to_string(b.id) + ": shape differs";
      break;
    }
    const bool rounding = std::find(may_round.begin(), may_round.end(), attn::name_of(b.id)) != may_round.end();
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double e = x(i, j) == y(i, j) ? 0.0 : std::abs(x(i, j) - y(i, j)) / std::max(1.0, std::abs(y(i, j)));
        double& worst = rounding ? d.rounding_worst : d.exact_worst;
        if (e > worst || std::isnan(e)) {
          worst = std::isnan(e) ? INFINITY : e;
          std::ostringstream w;
          w.precision(17);
          w << attn::name_of(b.id) << " head " << b.head << " (" << i << ", " << j << "): got " << x(i, j) << " want " << y(i, j);
          d.where = w.str();
        }
      }
  }
  if (got.softmax.size() != want.softmax.size() && d.structure.empty()) d.structure = "softmax statistics: head count differs";
  for (size_t h = 0; h < want.softmax.size() && d.structure.empty(); ++h)
    if (got.softmax[h].max != want.softmax[h].max || got.softmax[h].sum != want.softmax[h].sum)
      d.structure = "softmax statistics of head " + std::to_string(h) + " differ";
  return d;
}


attn::Scenario threaded_scene(Rng& r, int heads, int d_k) {
  attn::Scenario s;
  s.x = r.mat(600, 64);
  for (int h = 0; h < heads; ++h) s.heads.push_back({r.mat(64, d_k), r.mat(64, d_k), r.mat(64, d_k)});
  s.w_o = r.mat(heads * d_k, 64);
  return s;
}

void check_bit_identical(const attn::Trace& got, const attn::Trace& want) {
  const Diff d = diff(got, want);
  INFO(d.where);
  CHECK(d.structure == "");
  CHECK(d.exact_worst == 0.0);
  CHECK(d.rounding_worst == 0.0);
}

}  // namespace trace_diff
