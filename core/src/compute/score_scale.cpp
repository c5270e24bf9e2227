// The score's divisor (attn/compute/score_scale.hpp).
#include "attn/compute/score_scale.hpp"

#include <cmath>

namespace attn {

double score_divisor(const Scenario& s, int d_k) {
  switch (s.scale) {
    case ScaleMode::SqrtDk: return std::sqrt(static_cast<double>(d_k));
    case ScaleMode::Temperature: return s.temperature;
    case ScaleMode::None: break;
  }
  return 1.0;
}

}  // namespace attn
