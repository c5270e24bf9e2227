// Stage roles for the animation (see stage_roles.hpp).
#include "model/layout/stage_roles.hpp"

namespace model {

bool is_input_stage(const attn::Stage& s) { return s.inputs.empty(); }

Transition transition_of(const attn::Trace& trace, const attn::Stage& s) {
  const std::string& id = s.id;
  if (s.inputs.empty()) return Transition::None;
  if (id == "q" || id == "k" || id == "v" || id == "x" || id == "context") return Transition::Project;
  if (id == "scores") return Transition::Sweep;
  if (id == "scaled") return Transition::Scale;
  if (id == "biased") return Transition::Bias;
  if (id == "masked") return Transition::MaskBlank;
  if (id == "softmax") return Transition::Softmax;
  if (id == "weights")
    return trace.mask_mode == attn::MaskMode::AfterSoftmax ? Transition::MaskBlank : Transition::Softmax;
  if (id == "head_output") return Transition::WeightedSum;
  if (id == "concat") return Transition::Concat;
  if (id == "output") return Transition::OutputProject;
  return Transition::None;
}

ProductOperands product_operands(const attn::Trace& trace, int stage) {
  const attn::Stage& s = trace.stages[static_cast<size_t>(stage)];
  ProductOperands p;
  const bool product = (s.id == "q" || s.id == "k" || s.id == "v" || s.id == "head_output" ||
                        (s.id == "output" && s.inputs.size() == 2) ||
                        (s.id == "scores" && s.formula.find("tanh") == std::string::npos));
  if (!product || s.inputs.size() != 2) return p;
  p.a = trace.index_of(s.inputs[0]);
  p.b = trace.index_of(s.inputs[1]);
  if (!p.valid()) return p;
  p.b_transposed = s.id == "scores";
  p.inner = static_cast<int>(trace.stages[static_cast<size_t>(p.a)].value.cols());
  return p;
}

}  // namespace model
