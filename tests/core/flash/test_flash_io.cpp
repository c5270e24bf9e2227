// The slow-memory counts of attn/flash/flash_io.hpp against numbers worked out by
// hand from the algorithms' load and store steps, and the paper's claim:
// once n is large against the on-chip memory M, the tiles move far fewer
// numbers than standard attention.
#include <doctest/doctest.h>

#include "attn/flash/flash_io.hpp"

TEST_CASE("flash I/O: standard attention, counted by hand") {
  // n = 4, d = 2: Q, K, V and O are 8 numbers each, S and P 16.
  // Reads: Q + K (16), S (16), P + V (24) = 56. Writes: S, P (32), O (8) = 40.
  const attn::HbmTraffic t = attn::standard_attention_io(4, 4, 2, 2);
  CHECK(t.reads == 56);
  CHECK(t.writes == 40);
  CHECK(t.total() == 96);
  // 5 queries × 3 keys, d_k = 2, d_v = 1: reads Q 10 + K 6 + S 15 + P 15 + V 3; writes S 15 + P 15 + O 5.
  const attn::HbmTraffic u = attn::standard_attention_io(5, 3, 2, 1);
  CHECK(u.reads == 49);
  CHECK(u.writes == 35);
}

TEST_CASE("flash I/O: the tiled loops, counted by hand") {
  using attn::FlashLoop;
  // n = 4, d = 2, blocks of 2: T_r = T_c = 2.
  // Queries outside: Q once (8), K and V per query block (2 × 16); O written once (8).
  attn::HbmTraffic q = attn::flash_attention_io(4, 4, 2, 2, 2, 2, FlashLoop::QueriesOuter);
  CHECK(q.reads == 40);
  CHECK(q.writes == 8);
  // Keys outside: K and V once (16); per key block every Q_i, O_i, ℓ_i, m_i (4 × 6 = 24), twice: 64.
  // Writes: O, ℓ, m set first (4 × 4 = 16), then written back per key block (2 × 16): 48.
  attn::HbmTraffic k = attn::flash_attention_io(4, 4, 2, 2, 2, 2, FlashLoop::KeysOuter);
  CHECK(k.reads == 64);
  CHECK(k.writes == 48);
  // Uneven blocks: 5 queries × 3 keys, d_k = 2, d_v = 1, B_r = B_c = 2: T_r = 3, T_c = 2.
  q = attn::flash_attention_io(5, 3, 2, 1, 2, 2, FlashLoop::QueriesOuter);
  CHECK(q.reads == 10 + 3 * 3 * 3);
  CHECK(q.writes == 5);
  k = attn::flash_attention_io(5, 3, 2, 1, 2, 2, FlashLoop::KeysOuter);
  CHECK(k.reads == 3 * 3 + 2 * 5 * 5);
  CHECK(k.writes == 5 * 3 + 2 * 5 * 3);
  CHECK_THROWS_AS(attn::flash_attention_io(4, 4, 2, 2, 0, 2, FlashLoop::KeysOuter), std::invalid_argument);
}

TEST_CASE("flash I/O: the paper's block sizes from M and d") {
  // B_c = ⌈M / 4d⌉, B_r = min(B_c, d).
  attn::FlashBlocks b = attn::paper_blocks(100, 4);  // ⌈100 / 16⌉ = 7
  CHECK(b.cols == 7);
  CHECK(b.rows == 4);
  b = attn::paper_blocks(1000, 2);  // ⌈1000 / 8⌉ = 125
  CHECK(b.cols == 125);
  CHECK(b.rows == 2);
  b = attn::paper_blocks(64, 16);  // ⌈64 / 64⌉ = 1
  CHECK(b.cols == 1);
  CHECK(b.rows == 1);
  CHECK_THROWS_AS(attn::paper_blocks(0, 4), std::invalid_argument);
}

TEST_CASE("flash I/O: with n large against M, the tiles move far fewer numbers") {
  const long long n = 4096, d = 64, m = 100000;  // M in elements
  const attn::FlashBlocks b = attn::paper_blocks(m, d);
  const attn::HbmTraffic standard = attn::standard_attention_io(n, n, d, d);
  const attn::HbmTraffic keys = attn::flash_attention_io(n, n, d, d, b.rows, b.cols, attn::FlashLoop::KeysOuter);
  const attn::HbmTraffic queries = attn::flash_attention_io(n, n, d, d, b.rows, b.cols, attn::FlashLoop::QueriesOuter);
  INFO("standard " << standard.total() << ", keys outside " << keys.total() << ", queries outside " << queries.total());
  CHECK(keys.total() * 5 < standard.total());
  CHECK(queries.total() < standard.total());
  // Theorem 2: Θ(n² d² / M). Four times the memory: 3 key blocks instead of
  // 11, and (the per-block part dominating) about a third of the traffic.
  const attn::FlashBlocks b4 = attn::paper_blocks(4 * m, d);
  const attn::HbmTraffic keys4 = attn::flash_attention_io(n, n, d, d, b4.rows, b4.cols, attn::FlashLoop::KeysOuter);
  CHECK(keys4.total() * 5 < keys.total() * 2);
}
