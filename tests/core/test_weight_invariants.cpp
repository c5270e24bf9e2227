// Invariants of the attention weights: normalised lines (or exact zeros when
// fully masked), exact zeros where blocked in both mask modes, invariance of
// softmax to a per-line shift, and no NaN even for empty rows or huge logits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "compare.hpp"
#include "invariant_cases.hpp"
#include "random_scenario.hpp"

using attn::MaskKind;
using attn::MaskMode;
using attn::SoftmaxAxis;
using inv::kInvariantTol;
using inv::masked_cases;
using inv::stage;
using ref::CaseSpec;

namespace {

// weights(i, j) along the normalised axis: line a, entry b.
double along(const attn::Mat& w, SoftmaxAxis axis, int a, int b) {
  return axis == SoftmaxAxis::Keys ? w(a, b) : w(b, a);
}

void check_normalised(const attn::Stage& w, SoftmaxAxis axis, const std::string& what) {
  const bool by_row = axis == SoftmaxAxis::Keys;
  const int lines = static_cast<int>(by_row ? w.value.rows() : w.value.cols());
  const int len = static_cast<int>(by_row ? w.value.cols() : w.value.rows());
  for (int a = 0; a < lines; ++a) {
    bool all_blocked = true;
    double sum = 0;
    for (int b = 0; b < len; ++b) {
      const int r = by_row ? a : b, c = by_row ? b : a;
      all_blocked = all_blocked && w.is_blocked(r, c);
      sum += along(w.value.dense(), axis, a, b);
    }
    const bool listed = std::find(w.fully_masked.begin(), w.fully_masked.end(), a) != w.fully_masked.end();
    INFO(what << " line " << a << " sum " << sum);
    CHECK(listed == all_blocked);
    if (all_blocked) {
      for (int b = 0; b < len; ++b) CHECK(along(w.value.dense(), axis, a, b) == 0.0);
    } else {
      CHECK(std::abs(sum - 1.0) <= kInvariantTol);
    }
  }
}

}  // namespace

TEST_CASE("invariant: weight rows sum to 1, or are exactly 0 and listed when fully masked") {
  for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries}) {
    for (CaseSpec c : masked_cases()) {
      c.axis = axis;
      const attn::Trace t = attn::compute_trace(ref::make_scenario(c));
      for (int h = 0; h < c.n_heads; ++h)
        check_normalised(stage(t, attn::StageKind::weights, h), axis,
                         c.name + (axis == SoftmaxAxis::Keys ? " keys" : " queries") + " head " +
                             std::to_string(h));
    }
  }
}

TEST_CASE("invariant: blocked weights are exactly 0 in both mask modes") {
  for (MaskMode mode : {MaskMode::BeforeSoftmax, MaskMode::AfterSoftmax}) {
    for (CaseSpec c : masked_cases()) {
      c.mode = mode;
      const attn::Scenario s = ref::make_scenario(c);
      const attn::Trace t = attn::compute_trace(s);
      const ref::RMask blocked = ref::reference_trace(s).blocked;
      for (int h = 0; h < c.n_heads; ++h) {
        const attn::StageValues& w = stage(t, attn::StageKind::weights, h).value;
        for (int i = 0; i < w.rows(); ++i)
          for (int j = 0; j < w.cols(); ++j)
            if (blocked[i][j]) {
              INFO(c.name << " head " << h << " cell " << i << "," << j);
              CHECK(w(i, j) == 0.0);
            }
      }
    }
  }
}

TEST_CASE("weights are derived from the scores on read: one cell read alone equals the whole matrix") {
  // The trace keeps no n×n weights matrix when the mask comes before the
  // softmax; every reader (a cell, a row, the whole matrix) must still see
  // the numbers the softmax computed, so the paths are compared exactly.
  for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries}) {
    for (MaskMode mode : {MaskMode::BeforeSoftmax, MaskMode::AfterSoftmax}) {
      for (CaseSpec c : masked_cases()) {
        c.axis = axis, c.mode = mode;
        const attn::Trace t = attn::compute_trace(ref::make_scenario(c));
        for (int h = 0; h < c.n_heads; ++h) {
          const attn::StageValues& w = stage(t, attn::StageKind::weights, h).value;
          INFO(c.name << (axis == SoftmaxAxis::Keys ? " keys" : " queries") << " head " << h);
          CHECK(w.derived());
          if (mode == MaskMode::BeforeSoftmax) CHECK(w.shared() == stage(t, attn::StageKind::scores, h).value.shared());
          const attn::Mat whole = w.dense();
          int differ = 0;
          for (int i = 0; i < w.rows(); ++i) {
            const Eigen::RowVectorXd row = w.row(i);
            for (int j = 0; j < w.cols(); ++j) differ += (w(i, j) != whole(i, j)) + (row(j) != whole(i, j));
          }
          for (int j = 0; j < w.cols(); ++j) differ += (w.col(j).array() != whole.col(j).array()).count();
          CHECK(differ == 0);
          // The masked logits, derived the same way: a column read equals the whole.
          const attn::StageValues& m = stage(t, attn::StageKind::masked, h).value;
          const attn::Mat logits = m.dense();
          int logits_differ = 0;  // −∞ == −∞, so blocked cells compare too
          for (int j = 0; j < m.cols(); ++j) logits_differ += (m.col(j).array() != logits.col(j).array()).count();
          CHECK(logits_differ == 0);
        }
      }
    }
  }
}

TEST_CASE("invariant: after_softmax rows with a blocked cell sum to less than 1") {
  CaseSpec c;
  c.n_q = 4, c.mask = MaskKind::Causal, c.mode = MaskMode::AfterSoftmax, c.seed = 77;
  const attn::Trace t = attn::compute_trace(ref::make_scenario(c));
  const attn::StageValues& w = stage(t, attn::StageKind::weights, 0).value;
  CHECK(std::abs(w.row(c.n_q - 1).sum() - 1.0) <= kInvariantTol);  // last row sees every key
  for (int i = 0; i + 1 < c.n_q; ++i) CHECK(w.row(i).sum() < 1.0 - 1e-6);
}

TEST_CASE("invariant: softmax ignores a constant added to every logit of a line") {
  // Scenario B appends two features: x gets [c_i, 1]; W_Q copies c_i into an
  // extra query column, W_K copies the constant 1 into an extra key column.
  // So scores_B = scores_A + c_i on every row (scale none keeps it exact).
  // For the queries axis the roles swap and each column gets + c_j.
  for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries}) {
    CaseSpec c;
    c.n_q = 4, c.d_model = 3, c.d_k = 2, c.d_v = 2, c.n_heads = 1, c.seed = 91;
    c.mask = MaskKind::Causal, c.axis = axis, c.scale = attn::ScaleMode::None;
    const attn::Scenario a = ref::make_scenario(c);
    attn::Scenario b = a;
    const int n = c.n_q, d = c.d_model, dk = c.d_k;
    const attn::Vec shift = (attn::Vec(n) << 3.0, -7.5, 12.25, 0.5).finished();
    b.x = attn::Mat::Zero(n, d + 2);
    b.x << a.x, shift, attn::Vec::Ones(n);
    const bool keys = axis == SoftmaxAxis::Keys;
    attn::HeadWeights hw{attn::Mat::Zero(d + 2, dk + 1), attn::Mat::Zero(d + 2, dk + 1),
                         attn::Mat::Zero(d + 2, c.d_v)};
    hw.w_q.topLeftCorner(d, dk) = a.heads[0].w_q;
    hw.w_k.topLeftCorner(d, dk) = a.heads[0].w_k;
    hw.w_v.topRows(d) = a.heads[0].w_v;
    hw.w_q(keys ? d : d + 1, dk) = 1.0;  // query extra column: c_i (keys) or 1
    hw.w_k(keys ? d + 1 : d, dk) = 1.0;  // key extra column: 1 (keys) or c_j
    b.heads = {hw};
    REQUIRE(attn::validate(b).empty());
    const attn::Trace ta = attn::compute_trace(a), tb = attn::compute_trace(b);
    const attn::StageValues& sa = stage(ta, attn::StageKind::scores, 0).value;
    const attn::StageValues& sb = stage(tb, attn::StageKind::scores, 0).value;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) CHECK(std::abs(sb(i, j) - sa(i, j) - shift(keys ? i : j)) <= 1e-12 * 16);
    const ref::Worst w = ref::worst_element(stage(tb, attn::StageKind::weights, 0).value.dense(),
                                            ref::from_eigen(stage(ta, attn::StageKind::weights, 0).value.dense()));
    INFO(ref::describe(keys ? "weights, keys axis" : "weights, queries axis", w));
    CHECK(ref::within(w, kInvariantTol));
  }
}

TEST_CASE("invariant: no NaN in any stage, fully masked rows and large logits included") {
  for (MaskMode mode : {MaskMode::BeforeSoftmax, MaskMode::AfterSoftmax})
    for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries})
      for (CaseSpec c : masked_cases()) {
        c.mode = mode, c.axis = axis;
        attn::Scenario s = ref::make_scenario(c);
        for (double factor : {1.0, 30.0}) {  // 30x inputs: logits in the thousands
          attn::Scenario scaled = s;
          scaled.x *= factor;
          const attn::Trace t = attn::compute_trace(scaled);
          INFO(c.name << " factor " << factor);
          CHECK_FALSE(ref::has_nan(t));
          for (int h = 0; h < c.n_heads; ++h) CHECK(stage(t, attn::StageKind::weights, h).value.allFinite());
        }
      }
}

TEST_CASE("finiteness checks: huge finite inputs pass, an infinity or a NaN anywhere is named") {
  // The check sums each matrix first (finite sum: all finite); these sums
  // overflow or cancel, so only the entry-by-entry check can decide.
  attn::Scenario s;
  s.x = attn::Mat::Constant(4, 3, 1e308);  // every row sums past the largest double
  s.x(1, 2) = -1e308;
  s.mask = attn::MaskKind::None;
  CHECK(attn::validate(s) == "");
  for (double bad : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
    attn::Scenario t = s;
    t.x(2, 1) = bad;
    INFO("value ", bad);
    CHECK(attn::validate(t).find("x[2][1]: not a finite number") != std::string::npos);
  }
  attn::Scenario pair = s;  // +∞ and −∞ together sum to NaN, still caught
  pair.x(0, 0) = std::numeric_limits<double>::infinity();
  pair.x(3, 0) = -std::numeric_limits<double>::infinity();
  CHECK(attn::validate(pair).find("x[0][0]: not a finite number") != std::string::npos);
}

TEST_CASE("logits divided by a power of two: the softmax's column pass equals a cell's division, bit for bit") {
  // The softmax multiplies by 1/d when that reciprocal is exact (d = 8 for
  // d_k = 64); a cell read divides. Both must give the same bits, down to
  // subnormal results and across scales that are and are not powers of two.
  attn::Scenario s;
  s.x = attn::Mat(5, 4);
  s.x << 1e-160, 3e-161, -2e-160, 7e-162,  // scores near the smallest doubles
      0.3, -1.7, 2.5, 0.9,                 //
      1e140, -3e139, 2e140, 1e139,         // scores near 1e280
      -0.1, 0.2, -0.3, 0.4,                //
      5e-155, -1e-154, 3e-155, 2e-155;
  s.mask = attn::MaskKind::Causal;
  struct Scale {
    attn::ScaleMode mode;
    double temperature;
  };
  for (Scale sc : {Scale{attn::ScaleMode::SqrtDk, 1}, Scale{attn::ScaleMode::Temperature, 0.25},
                   Scale{attn::ScaleMode::Temperature, 0.125}, Scale{attn::ScaleMode::Temperature, 3.0},
                   Scale{attn::ScaleMode::Temperature, 1.0 / 1024}, Scale{attn::ScaleMode::None, 1}}) {
    attn::Scenario t = s;
    t.scale = sc.mode;
    t.temperature = sc.temperature;
    if (sc.temperature == 1.0 / 1024) t.x.row(2) /= 1e3;  // keeps the scaled scores finite
    const attn::Trace trace = attn::compute_trace(t);
    const attn::StageValues& m = stage(trace, attn::StageKind::masked, 0).value;
    int differ = 0, subnormal = 0;
    for (int j = 0; j < m.cols(); ++j) {
      const Eigen::VectorXd column = m.col(j);  // the softmax's own pass
      for (int i = 0; i < m.rows(); ++i) {
        differ += column(i) != m(i, j);  // one cell: source ÷ d
        subnormal += std::fpclassify(m(i, j)) == FP_SUBNORMAL;
      }
    }
    INFO("scale mode ", (int)sc.mode, " temperature ", sc.temperature);
    CHECK(differ == 0);
    if (sc.mode == attn::ScaleMode::Temperature && sc.temperature == 0.25) CHECK(subnormal > 0);  // the edge is covered
  }
}

TEST_CASE("weights of a 39-token line: exps sixteen and four at a time and a padded tail equal one cell's exp") {
  // A column of 39 rows goes through the exp in groups of 16, 16, 4 and a
  // padded tail of 3; a cell read computes its one exp alone. Same bits.
  CaseSpec c;
  c.name = "39 tokens";
  c.n_q = 39;
  c.d_model = 6;
  c.d_k = c.d_v = 3;
  c.n_heads = 2;
  c.mask = attn::MaskKind::Causal;
  c.seed = 7;
  for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries}) {
    c.axis = axis;
    attn::Scenario s = ref::make_scenario(c);
    s.x *= 4;  // spreads the logits so that some exps are tiny and some are 1
    const attn::Trace t = attn::compute_trace(s);
    for (int h = 0; h < c.n_heads; ++h) {
      const attn::StageValues& w = stage(t, attn::StageKind::weights, h).value;
      int differ = 0;
      for (int j = 0; j < w.cols(); ++j) {
        const Eigen::VectorXd column = w.col(j);
        for (int i = 0; i < w.rows(); ++i) differ += column(i) != w(i, j);
      }
      INFO("head ", h, (axis == SoftmaxAxis::Keys ? " keys" : " queries"));
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("the softmax's exp is within 4 ulp of exp over its whole range, and exactly 0 below e^-708") {
  // One unprojected head with d = 1 and no scaling: row 0's scores are
  // x_0 · x_j = x_j (x_0 = 1), so its shifted logits x_j − 1 sweep [−800, 0].
  // glibc's vector exp promises at most 4 ulp; an independent long double
  // exp is the reference. Below −708 the softmax counts the exp as 0.
  const int n = 2001;
  attn::Scenario s;
  s.x = attn::Mat(n, 1);
  s.x(0, 0) = 1;
  for (int j = 1; j < n; ++j) s.x(j, 0) = 1 - 800.0 * (j - 1) / (n - 2);
  s.scale = attn::ScaleMode::None;
  const attn::Trace t = attn::compute_trace(s);
  double worst_ulp = 0, worst_x = 0;
  int nonzero_below = 0;
  for (int j = 0; j < n; ++j) {
    const double x = s.x(j, 0) - 1;  // the shifted logit, exact
    const double got = attn::softmax_exp(t, 0, 0, j);
    if (x < -708) {
      nonzero_below += got != 0;
      continue;
    }
    const long double want = std::exp(static_cast<long double>(x));
    const double ulp = std::nextafter(static_cast<double>(want), 2.0) - static_cast<double>(want);
    const double err = static_cast<double>(std::fabs(static_cast<long double>(got) - want)) / ulp;
    if (err > worst_ulp) worst_ulp = err, worst_x = x;
  }
  INFO("worst error ", worst_ulp, " ulp at exp(", worst_x, ")");
  CHECK(worst_ulp <= 4.0);
  CHECK(nonzero_below == 0);
}
