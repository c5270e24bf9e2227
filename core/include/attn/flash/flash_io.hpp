// How many numbers attention moves between slow memory (a GPU's HBM) and
// fast on-chip memory (SRAM), the cost FlashAttention was designed to cut
// (Dao et al. 2022, Algorithm 0 against Algorithm 1 and Theorem 2). These are
// counts of elements from the algorithms' own load and store steps, not a
// measurement: the point is how each grows with n, d and M.
#pragma once

namespace attn {

// Elements read from and written to slow memory.
struct HbmTraffic {
  long long reads = 0, writes = 0;
  long long total() const { return reads + writes; }
};

// Standard attention (Algorithm 0), each step a trip through slow memory:
// read Q and K (n_q·d_k + n_k·d_k), write S (n_q·n_k); read S, write
// P = softmax(S) (n_q·n_k each); read P and V (n_q·n_k + n_k·d_v), write O
// (n_q·d_v).
HbmTraffic standard_attention_io(long long n_q, long long n_k, long long d_k, long long d_v);

// Which loop runs outside.
enum class FlashLoop {
  // The paper's Algorithm 1 (FlashAttention): key/value blocks outside, read
  // once each (n_k·d_k + n_k·d_v). For each of the T_c of them, every query
  // block reads Q_i, O_i, ℓ_i and m_i and writes back O_i, ℓ_i and m_i
  // (T_c · n_q·(d_k + d_v + 2) read, T_c · n_q·(d_v + 2) written), after O,
  // ℓ and m were first set in slow memory (n_q·(d_v + 2) written).
  KeysOuter,
  // FlashAttention-2's order, the one compute_flash shows: query blocks
  // outside, Q_i read once (n_q·d_k); each query block reads every K_j and
  // V_j (T_r · n_k·(d_k + d_v)); m, ℓ and O stay on chip and only the
  // finished O_i is written (n_q·d_v).
  QueriesOuter,
};

// The tiled algorithm with blocks of B_r queries and B_c keys;
// T_r = ⌈n_q / B_r⌉, T_c = ⌈n_k / B_c⌉. Neither S nor P ever reaches slow
// memory, which is where the saving comes from. Throws std::invalid_argument
// for a block below 1.
HbmTraffic flash_attention_io(long long n_q, long long n_k, long long d_k, long long d_v, long long block_rows,
                              long long block_cols, FlashLoop loop);

// The paper's block sizes for an on-chip memory of M elements and head
// width d: B_c = ⌈M / 4d⌉ (a block each of K, V, Q and O fits), B_r =
// min(⌈M / 4d⌉, d). Throws std::invalid_argument for M or d below 1.
struct FlashBlocks {
  long long rows = 0, cols = 0;
};
FlashBlocks paper_blocks(long long sram_elements, long long d);

}  // namespace attn
