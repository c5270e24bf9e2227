// The KV cache's counters (attn/decode/decode_cost.hpp): closed forms of the
// per-step multiply-adds and their sums over the steps so far, and the
// cache's size in bytes.
#include "attn/decode/decode_cost.hpp"

#include "attn/decode/kv_cache_size.hpp"

namespace attn {

DecodeCost decode_cost(const Dims& d, bool has_w_o, int t) {
  using ll = long long;
  const ll heads = d.n_heads, kv_heads = d.n_kv_heads, d_k = d.d_k, d_v = d.d_v;
  const ll per_token_projections =
      d.projected ? heads * d.d_model * d_k + kv_heads * static_cast<ll>(d.d_ctx) * (d_k + d_v) : 0;
  const ll per_token_output = has_w_o ? heads * d_v * d.d_out : 0;
  const ll per_key = heads * (d_k + d_v);  // one query row against one cached key: its score and its V term
  const ll L = static_cast<ll>(t) + 1;

  DecodeCost c;
  c.tokens = static_cast<int>(L);
  c.cached_macs = per_token_projections + per_key * L + per_token_output;
  c.uncached_macs = L * per_token_projections + per_key * L * L + L * per_token_output;
  // Σ_{s=1..L} s = L(L+1)/2 and Σ s² = L(L+1)(2L+1)/6 over the steps 0..t.
  const ll sum_l = L * (L + 1) / 2, sum_l2 = L * (L + 1) * (2 * L + 1) / 6;
  c.cached_total = L * (per_token_projections + per_token_output) + per_key * sum_l;
  c.uncached_total = sum_l * (per_token_projections + per_token_output) + per_key * sum_l2;
  // One rule for a token's K and V bytes, shared with the editor's figure.
  c.bytes_per_token_f64 = kv_cache_size(d, 8).bytes;
  c.bytes_per_token_f16 = kv_cache_size(d, 2).bytes;
  c.cache_bytes_f64 = c.bytes_per_token_f64 * L;
  c.cache_bytes_f16 = c.bytes_per_token_f16 * L;
  return c;
}

}  // namespace attn
