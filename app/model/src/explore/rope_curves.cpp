// Samples each rotary pair's term over the distances (rope_curves.hpp) with
// the core's own RopePairTerm::at_distance, so the curve passes through the
// content (Δ = 0) and the term the split shows (Δ = the score's).
#include "model/explore/rope_curves.hpp"

#include <algorithm>
#include <cmath>

namespace model {

RopeCurves rope_curves(const attn::RopeSplit& split, int farthest) {
  RopeCurves out;
  out.distance = split.distance;
  const int last = std::max({farthest, split.distance, 0});
  for (const attn::RopePairTerm& p : split.pairs) {
    RopeCurve c{p.pair, p.theta, {}};
    c.term.reserve(static_cast<std::size_t>(last) + 1);
    for (int d = 0; d <= last; ++d) {
      c.term.push_back(p.at_distance(d));
      out.largest = std::max(out.largest, std::abs(c.term.back()));
    }
    out.pairs.push_back(std::move(c));
  }
  return out;
}

}  // namespace model
