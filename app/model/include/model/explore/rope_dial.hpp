// One query's or key's pairs of dimensions as arrows on dials: each pair
// before RoPE and after it, with the angle its position turned it by. The
// inspector draws it beside a rotated cell's arithmetic, and hovering the
// rows of Q rotated shows the same vector turning further as the position
// grows.
#pragma once

#include <optional>
#include <vector>

#include "attn/compute/trace.hpp"

namespace model {

struct RopeDialPair {
  int pair = 0;
  int dim_a = 0, dim_b = 0;  // the two dimensions turned together
  double theta = 0;          // base^(−2i/r)
  double angle = 0;          // position × θ, radians
  double a = 0, b = 0;       // the vector before RoPE (Q or K)
  double ra = 0, rb = 0;     // after (Q rotated or K rotated), as the trace holds it
};

struct RopeDial {
  attn::StageRef stage;  // q_rope or k_rope
  int row = 0;
  int position = 0;  // offset + row
  int rotated = 0;   // dimensions turned (the rest pass through)
  int d_k = 0;
  std::vector<RopeDialPair> pairs;
};

// The dial of row `row` of a q_rope or k_rope stage; nullopt for any other
// stage, or a row the stage lacks.
std::optional<RopeDial> rope_dial(const attn::Trace& trace, const attn::Scenario& scenario, const attn::StageRef& stage,
                                  int row);

}  // namespace model
