// Structural invariants of attention outputs: permutation equivariance
// (and invariance to the context order), identity projections reproduce
// basic attention, and each output lies in the convex hull of the values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "compare.hpp"
#include "invariant_cases.hpp"
#include "random_scenario.hpp"

using attn::MaskKind;
using inv::kInvariantTol;
using inv::masked_cases;
using inv::stage;
using ref::CaseSpec;

TEST_CASE("invariant: without a mask, permuting the tokens permutes the outputs") {
  const std::vector<int> perm = {3, 0, 4, 1, 2};
  for (int heads : {0, 2}) {
    CaseSpec c;
    c.n_q = 5, c.n_heads = heads, c.d_out = heads ? 3 : 0, c.seed = 31 + heads;
    const attn::Scenario a = ref::make_scenario(c);
    attn::Scenario b = a;
    for (int i = 0; i < c.n_q; ++i) b.x.row(i) = a.x.row(perm[i]);
    const attn::Trace ta = attn::compute_trace(a), tb = attn::compute_trace(b);
    const attn::StageValues& oa = stage(ta, attn::StageKind::output).value;
    attn::Mat expected(oa.rows(), oa.cols());
    for (int i = 0; i < c.n_q; ++i) expected.row(i) = oa.row(perm[i]);
    const ref::Worst w = ref::worst_element(stage(tb, attn::StageKind::output).value, ref::from_eigen(expected));
    INFO(ref::describe("permuted output", w));
    CHECK(ref::within(w, kInvariantTol));
    // Weights move both ways: w_b(i, j) = w_a(perm i, perm j).
    const attn::StageValues& wa = stage(ta, attn::StageKind::weights, 0).value;
    attn::Mat wexp(wa.rows(), wa.cols());
    for (int i = 0; i < c.n_q; ++i)
      for (int j = 0; j < c.n_q; ++j) wexp(i, j) = wa(perm[i], perm[j]);
    CHECK(ref::within(ref::worst_element(stage(tb, attn::StageKind::weights, 0).value, ref::from_eigen(wexp)), kInvariantTol));
  }
}

TEST_CASE("invariant: permuting the context leaves cross-attention outputs unchanged") {
  CaseSpec c;
  c.cross = true, c.n_q = 3, c.n_k = 4, c.d_ctx = 5, c.n_heads = 2, c.d_out = 2, c.seed = 41;
  const attn::Scenario a = ref::make_scenario(c);
  attn::Scenario b = a;
  const std::vector<int> perm = {2, 3, 1, 0};
  for (int j = 0; j < c.n_k; ++j) b.context->row(j) = a.context->row(perm[j]);
  const ref::Worst w = ref::worst_element(stage(attn::compute_trace(b), attn::StageKind::output).value,
                                          ref::from_eigen(stage(attn::compute_trace(a), attn::StageKind::output).value));
  INFO(ref::describe("output", w));
  CHECK(ref::within(w, kInvariantTol));
}

TEST_CASE("invariant: one head with identity projections equals basic attention") {
  for (attn::Positional pos : {attn::Positional::None, attn::Positional::Sinusoidal}) {
    CaseSpec c;
    c.n_q = 4, c.d_model = 4, c.mask = MaskKind::Causal, c.positional = pos, c.seed = 55;
    const attn::Scenario basic = ref::make_scenario(c);
    attn::Scenario one = basic;
    const attn::Mat eye = attn::Mat::Identity(4, 4);
    one.heads = {{eye, eye, eye}};
    const attn::Trace tb = attn::compute_trace(basic), to = attn::compute_trace(one);
    using K = attn::StageKind;
    for (K id : {K::q, K::k, K::v, K::scores, K::scaled, K::masked, K::weights, K::head_output}) {
      const ref::Worst w = ref::worst_element(stage(to, id, 0).value, ref::from_eigen(stage(tb, id, 0).value));
      INFO(ref::describe(attn::to_string(id), w));
      CHECK(ref::within(w, kInvariantTol));
    }
    CHECK(ref::within(ref::worst_element(stage(to, attn::StageKind::output).value, ref::from_eigen(stage(tb, attn::StageKind::output).value)),
                      kInvariantTol));
  }
}

TEST_CASE("invariant: each output lies in the convex hull of the values") {
  for (CaseSpec c : masked_cases()) {
    if (c.padding == ref::PaddingKind::AllKeys || c.full_row) continue;  // no hull for empty rows
    const attn::Trace t = attn::compute_trace(ref::make_scenario(c));
    for (int h = 0; h < c.n_heads; ++h) {
      const attn::StageValues& w = stage(t, attn::StageKind::weights, h).value;
      const attn::StageValues& v = stage(t, attn::StageKind::v, h).value;
      const attn::StageValues& out = stage(t, attn::StageKind::head_output, h).value;
      INFO(c.name << " head " << h);
      CHECK(w.dense().minCoeff() >= 0.0);
      attn::Mat rebuilt = attn::Mat::Zero(out.rows(), out.cols());
      for (int i = 0; i < out.rows(); ++i) {
        CHECK(std::abs(w.row(i).sum() - 1.0) <= kInvariantTol);
        for (int j = 0; j < w.cols(); ++j) rebuilt.row(i) += w(i, j) * v.row(j);
        for (int col = 0; col < out.cols(); ++col) {
          // Only keys with weight > 0 count: the hull of what the row sees.
          double lo = INFINITY, hi = -INFINITY;
          for (int j = 0; j < v.rows(); ++j)
            if (w(i, j) > 0) lo = std::min(lo, v(j, col)), hi = std::max(hi, v(j, col));
          CHECK(out(i, col) >= lo - kInvariantTol);
          CHECK(out(i, col) <= hi + kInvariantTol);
        }
      }
      const ref::Worst rw = ref::worst_element(out, ref::from_eigen(rebuilt));
      INFO(ref::describe("rebuilt sum of w v", rw));
      CHECK(ref::within(rw, kInvariantTol));
    }
  }
}

