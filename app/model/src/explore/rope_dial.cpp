// The RoPE dial's numbers (see rope_dial.hpp): the angles from the core's
// rope functions, the vectors from the trace itself, so the arrows show
// exactly what was computed.
#include "model/explore/rope_dial.hpp"

#include "attn/compute/rope.hpp"

namespace model {

std::optional<RopeDial> rope_dial(const attn::Trace& trace, const attn::Scenario& scenario, const attn::StageRef& stage,
                                  int row) {
  if (stage.id != attn::StageKind::q_rope && stage.id != attn::StageKind::k_rope) return std::nullopt;
  const attn::Stage* rotated = trace.find(stage);
  if (!rotated || rotated->inputs.empty() || row < 0 || row >= rotated->value.rows()) return std::nullopt;
  const attn::Stage* before = trace.find(rotated->inputs[0]);
  if (!before) return std::nullopt;
  RopeDial dial;
  dial.stage = stage;
  dial.row = row;
  dial.position = scenario.rope.offset + row;
  dial.d_k = static_cast<int>(rotated->value.cols());
  dial.rotated = attn::rope_dims(scenario.rope, dial.d_k);
  for (int dim = 0; dim < dial.rotated; ++dim) {
    const std::optional<attn::RopePair> p = attn::rope_pair_of(scenario.rope, dial.d_k, dim);
    if (!p || !p->is_a) continue;  // each pair once, from its first dimension
    RopeDialPair d;
    d.pair = p->pair;
    d.dim_a = p->a, d.dim_b = p->b;
    d.theta = attn::rope_theta(scenario.rope, dial.rotated, p->pair);
    d.angle = attn::rope_angle(scenario.rope, dial.d_k, row, p->pair);
    d.a = before->value(row, p->a), d.b = before->value(row, p->b);
    d.ra = rotated->value(row, p->a), d.rb = rotated->value(row, p->b);
    dial.pairs.push_back(d);
  }
  return dial;
}

}  // namespace model
