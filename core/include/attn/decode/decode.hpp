// Generation with a KV cache: the tokens of a self-attention scene arrive one
// at a time, and each step computes only the new token's query, key and
// value rows, appends the key and value to a cache, and attends from the new
// query to every cached row. The result of step t equals row t of the full
// causal trace (tests/core/test_decode.cpp), with far fewer multiply-adds
// (attn/decode/decode_cost.hpp). Pure functions, like compute_trace.
#pragma once

#include <memory>
#include <vector>

#include "attn/decode/decode_cost.hpp"
#include "attn/scenario/scenario.hpp"
#include "attn/compute/trace.hpp"

namespace attn {

// More tokens than this are refused: every step of a DecodeTrace keeps its
// own copy of the cache so that each can be shown and explained, which makes
// the kept bytes grow with the square of the tokens (4096 tokens of one
// 64 + 64-wide key/value head: 8.6 GB), and a view of each token's step is
// for reading, not for long generations.
constexpr int kMaxDecodeTokens = 4096;

// What decoding carries from one step to the next: for each key/value head
// (index kv_index(h)), the keys (rotated with RoPE, as real caches keep them)
// and values of the tokens decoded so far. Shared, read-only: a step's
// k_cache and v_cache stages hold the very same matrices.
struct DecodeCache {
  int tokens = 0;                             // rows in each matrix
  std::vector<std::shared_ptr<const Mat>> k;  // per key/value head: (tokens, d_k)
  std::vector<std::shared_ptr<const Mat>> v;  // per key/value head: (tokens, d_v)
};

// One token's step. Per key/value head, at the head that carries it
// (kv_leader, as in a Trace): step_k, step_v (the new rows, 1×d_k and 1×d_v),
// k_cache, v_cache ((t+1)×d_k, (t+1)×d_v: rows 0..t−1 reused from the step
// before, row t = new_row appended now). Per query head: step_q (1×d_k),
// step_scores (1×(t+1), q_t · K_cacheᵀ), step_logits (scaled, + ALiBi bias,
// −∞ where the mask blocks), step_weights (the softmax row; all 0 when every
// key is blocked, as in the trace), step_head_output (1×d_v). Then
// step_output (1×d_out): the heads' rows side by side, times W_O if any.
struct DecodeStep {
  int t = 0;        // the token decoded: row t of X
  int new_row = 0;  // the caches' row computed this step (= t); the rows above it were reused
  std::vector<Stage> stages;
  DecodeCache cache;  // after appending this step's rows
  DecodeCost cost;

  const Stage* find(StageKind id, int head = -1) const;
};

struct DecodeTrace {
  Dims dims;
  std::vector<DecodeStep> steps;  // step t decodes token t
};

// Throws std::invalid_argument, with the reason, when `s` cannot be decoded
// token by token over its first `tokens` tokens: a scene validate() refuses,
// cross-attention, a mask that lets a query see a later key, a mask applied
// after the softmax, a softmax over queries, additive scores, or more than
// kMaxDecodeTokens tokens.
void check_decodable(const Scenario& s, int tokens);

// Decodes token cache.tokens of `s`, given the cache of the tokens before it
// (an empty DecodeCache{} for the first). Checks `s` as check_decodable does
// (the mask for this token's row only). Throws ComputeError on overflow.
DecodeStep decode_step(const Scenario& s, const DecodeCache& cache);

// The first `steps` tokens of `s` decoded one after another (-1: all of
// them). Checks once, then runs decode_step's computation each step.
DecodeTrace compute_decode(const Scenario& s, int steps = -1);

}  // namespace attn
