// Why a head attends, by where its inputs came from. The residual stream at
// a position is a sum of sources (the token's embedding, its position, each
// earlier head's and MLP's output), and a query and a key are linear in it,
// so one score is an exact sum over (query source, key source) pairs:
//   S[i,j] = Σ_a Σ_b (part of q_i from source a) · (part of k_j from source b).
// A model fills in the parts (attn::train for the Train view's models,
// attn::hf for checkpoints, whose norms it holds at their values); this
// ranks the pairs and names the largest, e.g. "key: L0 H3 × query: token".
#pragma once

#include <string>
#include <vector>

#include "attn/base/matrix.hpp"

namespace attn {

struct SourceTerm {
  int query_source = 0, key_source = 0;
  double value = 0;  // the pair's part of S[i,j]
  double share = 0;  // value / S[i,j] (0 when S is 0)
};

// Which score: a layer's head, at (query, key).
struct ScoreCell {
  int layer = 0, head = 0, query = 0, key = 0;
};

struct SourceSplit {
  ScoreCell cell;
  double score = 0;  // S[i,j] = q_i · k_j, as the model computed it
  double scale = 1;  // the logit is scale × S
  std::vector<std::string> query_sources, key_sources;  // names, in stream order
  Mat terms;  // (query sources, key sources): each pair's part; Σ = score

  Vec by_query_source() const;  // row sums: each query source's part
  Vec by_key_source() const;    // column sums
  // The `count` pairs of largest magnitude, largest first.
  std::vector<SourceTerm> largest(int count) const;
  // "key: L0 H3 × query: token embedding = 61% of the score"
  std::string describe(const SourceTerm& term) const;
};

// The split of `cell` from each source's part of the query (rows of q_parts, one per
// query source, d_k wide) and of the key (rows of k_parts): terms =
// q_parts · k_partsᵀ. Throws std::invalid_argument when the names and rows
// disagree or the widths differ.
SourceSplit bilinear_split(const ScoreCell& cell, std::vector<std::string> query_sources, const Mat& q_parts,
                           std::vector<std::string> key_sources, const Mat& k_parts, double score, double scale);

}  // namespace attn
