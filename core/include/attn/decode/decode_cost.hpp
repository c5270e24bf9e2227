// What the KV cache saves, counted rather than timed: the multiply-adds of a
// decode step with the cache and without it, and the bytes the cache holds.
// Formulas only (no matrices), so a test can check them by hand and the app
// can plot them for any length.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn {

// Multiply-adds (one a·b added to a sum) of the matrix products of one
// layer; the elementwise work (scaling, ALiBi bias, mask, softmax's exp and
// sum, RoPE's turns, adding PE) is not counted, as it is small beside them
// and the same with or without a cache.
//
// At step t the sequence has L = t + 1 tokens. Per token the projections
// cost P = n_heads·d_model·d_k (queries) + n_kv_heads·d_model·(d_k + d_v)
// (keys and values; 0 for a scene without projections), and W_O costs
// O = n_heads·d_v·d_out (0 without W_O).
//   with the cache:    P + n_heads·L·(d_k + d_v) + O
//                      (the new row's projections, its score row q_t·K_cacheᵀ
//                      and its weights · V_cache, and its output row)
//   without the cache: L·P + n_heads·L²·(d_k + d_v) + L·O
//                      (the whole prefix again, as a model without a cache
//                      does: the layers above need every row's output, so
//                      every row's Q, K, V, scores, weights · V and output
//                      are recomputed; the full L×L score product is counted,
//                      as a plain implementation computes it before masking)
// So a step costs linearly more with t with the cache, quadratically more
// without; the totals over steps 0..t grow as t² and t³.
//
// The cache keeps, for each of the n_kv_heads key/value heads (n_heads
// unless grouped), one key row (d_k) and one value row (d_v) per token: per
// token n_kv_heads·(d_k + d_v) numbers, 8 bytes each as the doubles stored
// here, 2 each in fp16 as inference servers usually keep them. This is one
// layer's cache; a model keeps one per layer.
struct DecodeCost {
  int tokens = 0;                 // L = t + 1: tokens in the cache after step t
  long long cached_macs = 0;      // this step, with the cache
  long long uncached_macs = 0;    // this step, recomputing all L tokens
  long long cached_total = 0;     // steps 0..t together, with the cache
  long long uncached_total = 0;   // steps 0..t together, without it
  long long bytes_per_token_f64 = 0, bytes_per_token_f16 = 0;  // one token's K and V rows, all key/value heads
  long long cache_bytes_f64 = 0, cache_bytes_f16 = 0;          // the whole cache after step t
};

// The counts of step t (0-based) of a scene of dimensions `d`, `has_w_o`
// when it mixes its heads with W_O.
DecodeCost decode_cost(const Dims& d, bool has_w_o, int t);

}  // namespace attn
