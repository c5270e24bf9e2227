#pragma once
// One layer's multi-head attention from its projected Q, K and V: scores,
// the family's mask, softmax and weights x V per head, in blocks of 128
// queries spread over threads (every core, whatever the number of heads),
// with the chosen heads switched off.
#include "attn/hf/forward/forward.hpp"
#include "forward/tensor_load.hpp"

namespace attn::hf::detail {

struct AttentionShape {
  int heads = 0, kv_heads = 0, head_dim = 0;
  bool causal = true;
  int window = 0;       // keys each query sees, itself included; 0 = all
  double divisor = 0;   // what each score q.k is divided by; 0 = sqrt(head_dim)
  // The position of q's first row (k and v always start at position 0): a
  // pass that wants one position's output asks with that query alone.
  int first_query = 0;
  double softcap = 0;   // Gemma 2: each divided score becomes c·tanh(s / c); 0 = none
};

// q: (m, heads * hd) for the positions first_query.., k and v: (n, kv_heads * hd).
// Fills `weights` [head] (m, n) when `keep` and returns the concatenated head
// outputs (m, heads * hd).
// `off[h]` switches head h off in `mode`.
template <class S>
MatX<S> multi_head_attention(const MatX<S>& q, const MatX<S>& k, const MatX<S>& v, const AttentionShape& shape,
                             const std::vector<bool>& off, AblationMode mode, bool keep,
                             std::vector<AttentionMap<S>>& weights,
                             int threads);

}  // namespace attn::hf::detail
