// How each rotary pair's part of a score would change with the distance
// between query and key: the pair's term |q||k| cos(φ_q − φ_k + Δθ) at
// every distance from 0 to the farthest key, with the score's own distance
// marked. A fast pair swings within a few tokens; a slow one hardly moves,
// which is what "slow pairs carry content, fast ones position" means.
// Sampled once per inspected score (ExplainCache), never in draw code.
#pragma once

#include <vector>

#include "attn/why/score_split.hpp"

namespace model {

struct RopeCurve {
  int pair = 0;
  double theta = 0;
  std::vector<double> term;  // [Δ] for Δ = 0 .. farthest
};

struct RopeCurves {
  int distance = 0;  // the score's own Δ
  double largest = 0;  // max |term| over every curve: one scale for all
  std::vector<RopeCurve> pairs;  // in pair order
};

// `farthest`: the largest distance to sample (the number of keys − 1).
RopeCurves rope_curves(const attn::RopeSplit& split, int farthest);

}  // namespace model
