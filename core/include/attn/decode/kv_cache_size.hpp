// What a KV cache holds for each token in each layer: the K and V rows of
// every key/value head. Sharing heads (GQA, MQA) divides it by the group
// size, which is why today's models share them.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn {

struct KvCacheSize {
  long long bytes = 0;      // with the scene's key/value heads
  long long mha_bytes = 0;  // if every query head had its own K and V
  long long mqa_bytes = 0;  // with one key/value head for all
};

// Per token and layer: n_kv_heads × (d_k + d_v) numbers of `bytes_per_value`
// bytes (2: fp16, as models serve).
KvCacheSize kv_cache_size(const Dims& d, int bytes_per_value = 2);

}  // namespace attn
