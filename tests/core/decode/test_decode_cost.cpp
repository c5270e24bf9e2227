// The KV cache's counters (attn/decode/decode_cost.hpp) checked by hand on one tiny
// scene, then by their shape: with the cache a step costs a constant more
// than the one before (linear), without it the increase itself grows by a
// constant (quadratic), and the totals are the sums of the steps.
#include <doctest/doctest.h>

#include "attn/decode/decode.hpp"
#include "attn/decode/decode_cost.hpp"
#include "decode/decode_cases.hpp"

namespace {

// 2 query heads sharing 1 key/value head, d_model 3, d_k 2, d_v 1, W_O to 4.
attn::Dims tiny_dims() {
  attn::Dims d;
  d.n_q = d.n_k = 3;
  d.d_model = d.d_ctx = 3;
  d.d_k = 2, d.d_v = 1;
  d.n_heads = 2, d.n_kv_heads = 1;
  d.d_out = 4;
  d.projected = true;
  return d;
}

}  // namespace

TEST_CASE("decode cost: a tiny scene's counts, worked by hand") {
  // Per token: queries 2·3·2 = 12, keys and values 1·3·(2+1) = 9, so P = 21;
  // W_O: 2·1·4 = 8; per cached key: 2 heads × (2 + 1) = 6.
  const attn::DecodeCost c = attn::decode_cost(tiny_dims(), true, 2);  // step 2: 3 tokens
  CHECK(c.tokens == 3);
  CHECK(c.cached_macs == 21 + 6 * 3 + 8);                 // 47
  CHECK(c.uncached_macs == 3 * 21 + 6 * 9 + 3 * 8);       // 141
  CHECK(c.cached_total == (21 + 8) * 3 + 6 * (1 + 2 + 3));  // 123
  CHECK(c.uncached_total == (21 + 8) * (1 + 2 + 3) + 6 * (1 + 4 + 9));  // 258
  CHECK(c.bytes_per_token_f64 == 1 * (2 + 1) * 8);
  CHECK(c.bytes_per_token_f16 == 1 * (2 + 1) * 2);
  CHECK(c.cache_bytes_f64 == 72);
  CHECK(c.cache_bytes_f16 == 18);
  // Step 0: with one token both ways cost the same.
  const attn::DecodeCost first = attn::decode_cost(tiny_dims(), true, 0);
  CHECK(first.cached_macs == first.uncached_macs);
  CHECK(first.cached_macs == 21 + 6 + 8);
}

TEST_CASE("decode cost: no projections and no W_O count only the attention itself") {
  attn::Dims d = tiny_dims();
  d.projected = false, d.n_heads = 1, d.n_kv_heads = 1, d.d_k = d.d_v = 3;
  const attn::DecodeCost c = attn::decode_cost(d, false, 4);  // 5 tokens
  CHECK(c.cached_macs == 5 * (3 + 3));
  CHECK(c.uncached_macs == 25 * (3 + 3));
}

TEST_CASE("decode cost: linear per step with the cache, quadratic without, totals the sums of the steps") {
  const attn::Dims d = tiny_dims();
  long long cached_sum = 0, uncached_sum = 0;
  for (int t = 0; t < 60; ++t) {
    CAPTURE(t);
    const attn::DecodeCost c = attn::decode_cost(d, true, t);
    cached_sum += c.cached_macs, uncached_sum += c.uncached_macs;
    CHECK(c.cached_total == cached_sum);
    CHECK(c.uncached_total == uncached_sum);
    CHECK(c.cached_macs <= c.uncached_macs);
    if (t < 2) continue;
    const attn::DecodeCost b = attn::decode_cost(d, true, t - 1), a = attn::decode_cost(d, true, t - 2);
    CHECK(c.cached_macs - b.cached_macs == 6);  // one more key: its score and its V term, per head
    CHECK(c.cached_macs - b.cached_macs == b.cached_macs - a.cached_macs);
    const long long second = (c.uncached_macs - b.uncached_macs) - (b.uncached_macs - a.uncached_macs);
    CHECK(second == 2 * 6);  // n_heads·(d_k + d_v)·L² has second difference 2·6
  }
}

TEST_CASE("decode cost: grouped-query heads cache n_kv_heads heads, not n_heads") {
  attn::Dims mha = tiny_dims();
  mha.n_kv_heads = mha.n_heads;
  const attn::DecodeCost g = attn::decode_cost(tiny_dims(), true, 9), m = attn::decode_cost(mha, true, 9);
  CHECK(g.cache_bytes_f64 == 10 * 1 * 3 * 8);
  CHECK(m.cache_bytes_f64 == 10 * 2 * 3 * 8);
  CHECK(m.cache_bytes_f16 * 4 == m.cache_bytes_f64);
}

TEST_CASE("decode cost: every step of a decode carries its step's counts") {
  for (const decode_test::Case& c : decode_test::decodable_cases()) {
    CAPTURE(c.name);
    const attn::DecodeTrace dec = attn::compute_decode(c.s);
    for (const attn::DecodeStep& step : dec.steps) {
      const attn::DecodeCost want = attn::decode_cost(dec.dims, c.s.w_o.has_value(), step.t);
      CHECK(step.cost.cached_total == want.cached_total);
      CHECK(step.cost.uncached_total == want.uncached_total);
      CHECK(step.cost.cache_bytes_f64 == want.cache_bytes_f64);
      // The bytes are the bytes the step's caches actually hold.
      long long held = 0;
      for (size_t g = 0; g < step.cache.k.size(); ++g)
        held += (step.cache.k[g]->size() + step.cache.v[g]->size()) * 8;
      CHECK(step.cost.cache_bytes_f64 == held);
    }
  }
}
