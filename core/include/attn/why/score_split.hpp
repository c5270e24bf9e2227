// Why a head attends: one score S[i,j] = q_i · k_j split into parts that add
// up to it exactly, so a student sees which dimensions, and with RoPE which
// rotary frequencies, make key j stand out for query i. The parts are read
// from the trace's own Q and K, so they sum to the number on the grid.
#pragma once

#include <optional>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn {

// S[i,j] by dimension: the products q_i[d] × k_j[d] (BertViz's neuron view),
// largest magnitude first. With RoPE they are the rotated Q's and K's.
struct DimensionTerm {
  int dim = 0;
  double q = 0, k = 0;
  double term = 0;  // q × k
};

// One rotated pair's share of S[i,j]. Seen as a complex number, the query's
// pair is |q_p| e^{iφ_q} before rotation and the key's |k_p| e^{iφ_k}; RoPE
// turns each by its position times θ_p, so their product is
//   |q_p| |k_p| cos(φ_q − φ_k + Δ θ_p),  Δ = query position − key position.
// `content` is that term at Δ = 0 (what the two vectors give by themselves);
// term − content is what the distance turns it by.
struct RopePairTerm {
  int pair = 0;
  int dim_a = 0, dim_b = 0;    // the two dimensions turned together
  double theta = 0;            // radians per position
  double q_norm = 0, k_norm = 0;
  double q_phase = 0, k_phase = 0;  // φ_q, φ_k in radians, before rotation
  double content = 0;
  double term = 0;

  double position() const { return term - content; }
  // The term this pair would give at distance `distance` (the same q and k).
  double at_distance(double distance) const;
};

struct RopeSplit {
  int distance = 0;                // Δ = query position − key position
  std::vector<RopePairTerm> pairs; // in pair order (lowest pair: fastest turn)
  double unrotated = 0;            // Σ q[d] k[d] over dimensions RoPE leaves as they are
  double content() const;          // Σ content + unrotated: S as if i and j sat at one position
  double position() const;         // Σ (term − content): what the distance adds
};

struct ScoreSplit {
  int head = 0, query = 0, key = 0;
  int key_head = 0;   // the head whose keys head `head` reads (itself, unless grouped)
  double score = 0;   // S[i,j] as the trace holds it
  double scale = 1;   // the scaled logit is scale × S (1/√d_k, 1/τ or 1)
  std::vector<DimensionTerm> by_dimension;  // Σ term = score
  std::optional<RopeSplit> by_rope;         // with RoPE: Σ term + unrotated = score
};

// Splits S[query, key] of `head`. Throws std::invalid_argument for additive
// (Bahdanau) scores, which are no sum over dimensions, and std::out_of_range
// naming the head or cell when the trace lacks it.
ScoreSplit split_score(const Trace& trace, const Scenario& scenario, int head, int query, int key);

}  // namespace attn
