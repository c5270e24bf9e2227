// Bytes of a KV cache per token (see attn/decode/kv_cache_size.hpp).
#include "attn/decode/kv_cache_size.hpp"

namespace attn {

KvCacheSize kv_cache_size(const Dims& d, int bytes_per_value) {
  const long long per_head = static_cast<long long>(d.d_k + d.d_v) * bytes_per_value;
  return {per_head * d.n_kv_heads, per_head * d.n_heads, per_head};
}

}  // namespace attn
