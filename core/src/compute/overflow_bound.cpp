// An upper bound on |value| for every stage of the pipeline, from the
// inputs' largest entries: a sum of k products of factors at most a and b in
// size is at most k·a·b, and the softmax's weights lie in [0, 1]. Each
// bound follows the formula of its stage in compute.cpp and head_stages.cpp.
// A computed sum carries rounding of about k ulps of that bound, far inside
// the margin kept below the largest double.
#include "attn/compute/overflow_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/compute/score_scale.hpp"

namespace attn {
namespace {

// Bounds up to this are proved: room for rounding (and a bound of a sum is
// never met with equality by a real overflow's neighbour).
constexpr double kSafe = std::numeric_limits<double>::max() / 1024;

double max_entry(const Mat& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

// The largest |value| of one head's Q, K and V.
struct HeadBound {
  double q = 0, k = 0, v = 0;
};

HeadBound projection_bounds(const Scenario& s, const Dims& d, int h, double x, double kv) {
  if (!d.projected) return {x, kv, kv};
  const HeadWeights& w = s.heads[static_cast<size_t>(h)];
  return {d.d_model * x * max_entry(w.w_q), d.d_ctx * kv * max_entry(w.w_k), d.d_ctx * kv * max_entry(w.w_v)};
}

double scores_bound(const Scenario& s, const Dims& d, int h, const HeadBound& b, bool& ok) {
  if (s.score == ScoreFn::Dot) return d.d_k * b.q * b.k;
  // Additive: q·W + k·U must stay finite inside tanh (it is refused there
  // otherwise); v · tanh(...) is then at most the sum of |v|.
  if (s.additive.empty()) {
    ok = ok && b.q + b.k <= kSafe;
    return d.d_k;  // W = U = I, v = 1
  }
  const AdditiveParams& p = s.additive[static_cast<size_t>(h)];
  const double inside = d.d_k * b.q * max_entry(p.w) + d.d_k * b.k * max_entry(p.u);
  ok = ok && inside <= kSafe;
  return static_cast<double>(p.v.size()) * max_entry(Mat(p.v));
}

}  // namespace

bool proved_finite(const Scenario& s) {
  const Dims d = dims_of(s);
  // Sinusoidal positions add values in [-1, 1] to every input.
  const double pe = s.positional == Positional::Sinusoidal ? 1 : 0;
  const double x = max_entry(s.x) + pe;
  const double kv = s.context ? max_entry(*s.context) + pe : x;
  // The ALiBi bias is −slope·|i − j| with slope < 1.
  const double bias = s.positional == Positional::Alibi ? std::max(d.n_q, d.n_k) : 0;
  bool ok = x <= kSafe && kv <= kSafe;
  double head_output = 0;
  for (int h = 0; h < d.n_heads && ok; ++h) {
    const HeadBound b = projection_bounds(s, d, h, x, kv);
    const double logits = scores_bound(s, d, h, b, ok) / score_divisor(s, d.d_k) + bias;
    // Weights in [0, 1] over n_k keys: weights · V is at most n_k·|V|.
    head_output = std::max(head_output, d.n_k * b.v);
    ok = ok && b.q <= kSafe && b.k <= kSafe && b.v <= kSafe && logits <= kSafe;
  }
  const double bias_o = s.output_bias.size() > 0 ? s.output_bias.cwiseAbs().maxCoeff() : 0.0;
  const double output =
      s.w_o ? static_cast<double>(d.n_heads) * d.d_v * head_output * max_entry(*s.w_o) + bias_o : head_output;
  return ok && head_output <= kSafe && output <= kSafe;
}

}  // namespace attn
