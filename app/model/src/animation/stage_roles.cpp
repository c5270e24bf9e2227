// Stage roles for the animation (see stage_roles.hpp).
#include "model/animation/stage_roles.hpp"

namespace model {

bool is_input_stage(const attn::Stage& s) { return s.inputs.empty(); }

// By the stage's role in the stage table (attn/compute/stage_kind.hpp); only the
// logits and probabilities need their kind, each drawn its own way.
Transition transition_of(const attn::Trace& trace, const attn::Stage& s) {
  using K = attn::StageKind;
  using R = attn::StageRole;
  if (s.inputs.empty()) return Transition::None;
  switch (attn::role_of(s.id)) {
    case R::Sequence:
    case R::Projection: return Transition::Project;
    case R::WeightedSum: return Transition::WeightedSum;
    case R::Concat: return Transition::Concat;
    case R::Output: return Transition::OutputProject;
    case R::Parameter: return Transition::None;
    // Each value turns into its rotated one in place, like a scaling.
    case R::Rotation: return Transition::Scale;
    // A cache grows by one appended row, like a projection's new row.
    case R::Cache: return Transition::Project;
    case R::Logits:
    case R::Probabilities: break;
    case R::FlashTile: return Transition::None;  // tiles are never in a trace's timeline
  }
  if (s.id == K::scores) return Transition::Sweep;
  if (s.id == K::scaled) return Transition::Scale;
  if (s.id == K::biased) return Transition::Bias;
  if (s.id == K::masked) return Transition::MaskBlank;
  if (s.id == K::softmax) return Transition::Softmax;
  if (s.id == K::weights)
    return trace.mask_mode == attn::MaskMode::AfterSoftmax ? Transition::MaskBlank : Transition::Softmax;
  return Transition::None;
}

ProductOperands product_operands(const attn::Trace& trace, int stage) {
  const attn::Stage& s = trace.stages[static_cast<size_t>(stage)];
  ProductOperands p;
  const attn::StageRole role = attn::role_of(s.id);
  const bool product = role == attn::StageRole::Projection || role == attn::StageRole::WeightedSum ||
                       (role == attn::StageRole::Output && s.inputs.size() == 2) ||
                       (s.id == attn::StageKind::scores && s.formula.find("tanh") == std::string::npos);
  if (!product || s.inputs.size() != 2) return p;
  p.a = trace.index_of(s.inputs[0]);
  p.b = trace.index_of(s.inputs[1]);
  if (!p.valid()) return p;
  p.b_transposed = s.id == attn::StageKind::scores;
  p.inner = static_cast<int>(trace.stages[static_cast<size_t>(p.a)].value.cols());
  return p;
}

}  // namespace model
