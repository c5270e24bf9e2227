// The Model view's logit lens (model_lens.hpp): one background job per pass,
// reporting as the output head's blocks are done, naming each guess with the
// folder's tokenizer.
#include "model/hf/model_lens.hpp"

namespace model {

ModelLens::ModelLens()
    : runner_([](const Input& in, TaskContext<LensGrid>& control) { return compute(in, control); },
              TaskPolicy::Replace) {}

LensGrid ModelLens::compute(const Input& in, TaskContext<LensGrid>& control) {
  control.report(0, 0, "logit lens");
  const attn::hf::LogitLens lens = attn::hf::logit_lens(*in.checkpoint, *in.forward, kTop, [&](int done, int total) {
    control.report(done, total, "logit lens");
    return !control.cancelled();
  });
  LensGrid grid;
  grid.forward = in.forward;
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

void ModelLens::update(bool wanted, const std::shared_ptr<const attn::hf::Checkpoint>& checkpoint,
                       const std::shared_ptr<const ModelTokens>& tokens, const ModelAnalysis* analysis) {
  if (auto o = runner_.take()) {
    if (o->done() && o->result) grid_ = std::make_shared<const LensGrid>(std::move(*o->result));
    else if (o->failed()) error_ = o->error;
  }
  // A causal model only (the lens needs an output head), once per pass.
  if (!wanted || !checkpoint || !tokens || !analysis || !analysis->forward || !checkpoint->config().causal) return;
  if (asked_.lock() == analysis->forward) return;
  asked_ = analysis->forward;
  error_.clear();
  runner_.submit({checkpoint, tokens, analysis->forward});
}

const LensGrid* ModelLens::grid(const ModelAnalysis* analysis) const {
  if (!grid_ || !analysis || !analysis->forward || grid_->forward.lock() != analysis->forward) return nullptr;
  return grid_.get();
}

void ModelLens::forget() {
  runner_.cancel();
  runner_.discard();
  grid_.reset();
  asked_.reset();
  error_.clear();
}

}  // namespace model
