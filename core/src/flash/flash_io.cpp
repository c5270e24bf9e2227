// The slow-memory element counts of attn/flash/flash_io.hpp: each line below is
// one load or store step of the algorithm it counts.
#include "attn/flash/flash_io.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

void require_positive(const char* what, long long v) {
  if (v < 1) throw std::invalid_argument(std::string(what) + " must be at least 1, got " + std::to_string(v));
}

}  // namespace

HbmTraffic standard_attention_io(long long n_q, long long n_k, long long d_k, long long d_v) {
  const long long s = n_q * n_k;  // S and P are both (n_q, n_k)
  HbmTraffic t;
  t.reads += n_q * d_k + n_k * d_k, t.writes += s;  // S = Q Kᵀ
  t.reads += s, t.writes += s;                      // P = softmax(S)
  t.reads += s + n_k * d_v, t.writes += n_q * d_v;  // O = P V
  return t;
}

HbmTraffic flash_attention_io(long long n_q, long long n_k, long long d_k, long long d_v, long long block_rows,
                              long long block_cols, FlashLoop loop) {
  require_positive("B_r", block_rows);
  require_positive("B_c", block_cols);
  const long long t_r = ceil_div(n_q, block_rows), t_c = ceil_div(n_k, block_cols);
  HbmTraffic t;
  switch (loop) {
    case FlashLoop::KeysOuter:
      t.writes += n_q * (d_v + 2);                    // O = 0, ℓ = 0, m = −∞ set in slow memory
      t.reads += n_k * (d_k + d_v);                   // each K_j, V_j once
      t.reads += t_c * n_q * (d_k + d_v + 2);         // every Q_i, O_i, ℓ_i, m_i, once per key block
      t.writes += t_c * n_q * (d_v + 2);              // O_i, ℓ_i, m_i back, once per key block
      break;
    case FlashLoop::QueriesOuter:
      t.reads += n_q * d_k;                           // each Q_i once
      t.reads += t_r * n_k * (d_k + d_v);             // every K_j, V_j, once per query block
      t.writes += n_q * d_v;                          // each finished O_i once
      break;
  }
  return t;
}

FlashBlocks paper_blocks(long long sram_elements, long long d) {
  require_positive("the on-chip memory M", sram_elements);
  require_positive("the head width d", d);
  const long long b = ceil_div(sram_elements, 4 * d);
  return {std::min(b, d), b};
}

}  // namespace attn
