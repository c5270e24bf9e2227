// Shapes derived from a scenario (its dimensions, how many of a head's
// dimensions RoPE turns) and the memory estimate used to refuse absurd
// inputs before anything large is allocated.
#include "attn/scenario/scenario.hpp"

#include <cmath>

namespace attn {

int rope_dims(const Rope& rope, int d_k) { return static_cast<int>(std::floor(rope.fraction * d_k + 1e-9)); }

Dims dims_of(const Scenario& s) {
  Dims d;
  d.n_q = static_cast<int>(s.x.rows());
  d.d_model = static_cast<int>(s.x.cols());
  const Mat& kv = s.keys_source();
  d.n_k = static_cast<int>(kv.rows());
  d.d_ctx = static_cast<int>(kv.cols());
  d.projected = !s.heads.empty();
  if (d.projected) {
    d.n_heads = static_cast<int>(s.heads.size());
    d.d_k = static_cast<int>(s.heads[0].w_q.cols());
    d.d_v = static_cast<int>(s.heads[0].w_v.cols());
  } else {
    d.n_heads = 1;
    d.d_k = d.d_model;
    d.d_v = d.d_ctx;
  }
  // A count that does not divide the heads is refused by validate(); until
  // then each head keeps its own keys and values.
  const bool grouped = s.n_kv_heads > 0 && s.n_kv_heads <= d.n_heads && d.n_heads % s.n_kv_heads == 0;
  d.n_kv_heads = grouped ? s.n_kv_heads : d.n_heads;
  d.d_out = s.w_o ? static_cast<int>(s.w_o->cols()) : d.n_heads * d.d_v;
  return d;
}

long long estimated_trace_bytes(const Dims& d) {
  const long long cell = 8;
  const long long n_q = d.n_q, n_k = d.n_k, heads = d.n_heads;
  // Per head: scores, scaled, masked, weights, exp, optional bias/softmax and
  // the blocked flags: about nine n_q x n_k matrices.
  const long long attention = heads * n_q * n_k * cell * 9;
  const long long projections =
      heads * ((n_q + n_k) * (long long)d.d_k + n_k * (long long)d.d_v + n_q * (long long)d.d_v) * cell;
  const long long weights =
      heads * ((long long)d.d_model * d.d_k + (long long)d.d_ctx * (d.d_k + d.d_v)) * cell;
  const long long inputs = ((long long)n_q * d.d_model + n_k * (long long)d.d_ctx) * cell * 3;
  const long long outputs = n_q * ((long long)heads * d.d_v + d.d_out) * cell;
  return attention + projections + weights + inputs + outputs;
}

}  // namespace attn
