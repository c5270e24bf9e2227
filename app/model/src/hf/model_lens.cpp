// The Model view's logit lens (model_lens.hpp): reports as the output head's
// blocks are done, and names each guess with the folder's tokenizer.
#include "model/hf/model_lens.hpp"

namespace model {

namespace {

LensGrid compute_lens(const PassJobInput& in, TaskControl& control) {
  control.report(0, 0, "logit lens");
  const attn::hf::LogitLens lens = attn::hf::logit_lens(*in.checkpoint, *in.forward, ModelLens::kTop, [&](int done, int total) {
    control.report(done, total, "logit lens");
    return !control.cancelled();
  });
  LensGrid grid;
  grid.row_names = lens.row_names;
  for (const auto& row : lens.top) {
    std::vector<std::vector<TokenPrediction>> cells;
    for (const auto& guesses : row) {
      std::vector<TokenPrediction> cell;
      for (const attn::hf::Prediction& p : guesses) cell.push_back({p.id, in.tokens->text(p.id), p.probability});
      cells.push_back(std::move(cell));
    }
    grid.top.push_back(std::move(cells));
  }
  return grid;
}

}  // namespace

// A causal model only: the lens needs an output head.
ModelLens::ModelLens()
    : PassJob([](const PassJobInput& in, TaskContext<LensGrid>& c) { return compute_lens(in, c); },
              [](const attn::hf::ModelConfig& c, const ModelAnalysis&) { return c.causal; }) {}

}  // namespace model
