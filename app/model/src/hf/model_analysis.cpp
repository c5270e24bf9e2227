// The Model view's background job (model_analysis.hpp): forward pass, then
// per-head measures and thumbnails, then the predictions.
#include "model/hf/model_analysis.hpp"

namespace model {

std::vector<TokenPrediction> predictions_at(const attn::hf::Checkpoint& ck, const ModelTokens& tokens,
                                            const attn::hf::ForwardResult<float>& forward, int position, int k) {
  std::vector<TokenPrediction> out;
  const std::vector<float> logits = attn::hf::logits_at(ck, forward, position);
  for (const attn::hf::Prediction& p : attn::hf::top_predictions(logits, k))
    out.push_back({p.id, tokens.text(p.id), p.probability});
  return out;
}

double ModelAnalysis::probability_of(int id) const {
  return id >= 0 && id < static_cast<int>(last_probabilities.size()) ? last_probabilities[static_cast<std::size_t>(id)] : 0.0;
}

ModelAnalysis analyse(const AnalysisInput& in, TaskControl& control) {
  const attn::hf::ModelConfig& c = in.checkpoint->config();
  attn::hf::ForwardOptions options;
  options.heads_off = in.heads_off;
  options.mode = in.mode;
  options.progress = [&](int done) {
    control.report(done, c.n_layers, "layer " + std::to_string(done) + " of " + std::to_string(c.n_layers));
    return !control.cancelled();
  };
  control.report(0, c.n_layers, "starting");
  auto forward = std::make_shared<attn::hf::ForwardResult<float>>(attn::hf::run_forward<float>(*in.checkpoint, in.ids, options));
  control.throw_if_cancelled();
  ModelAnalysis a;
  a.ids = in.ids;
  a.heads_off = in.heads_off;
  a.mode = in.mode;
  for (const attn::hf::LayerRecord<float>& layer : forward->layers) {
    auto& heads = a.heads.emplace_back();
    auto& thumbs = a.thumbnails.emplace_back();
    for (const attn::hf::AttentionMap<float>& w : layer.attentions) {
      HeadSummary s;
      s.measures = measure_head(w);
      s.role = head_role(s.measures);
      heads.push_back(std::move(s));
      thumbs.push_back(make_thumbnail(w));
    }
    control.throw_if_cancelled();
  }
  if (c.causal && !in.ids.empty()) {
    const int last = static_cast<int>(in.ids.size()) - 1;
    a.predictions = predictions_at(*in.checkpoint, *in.tokens, *forward, last);
    // The whole distribution through the same softmax as the top ten.
    const std::vector<float> logits = attn::hf::logits_at(*in.checkpoint, *forward, last);
    a.last_probabilities.assign(logits.size(), 0.0f);
    for (const attn::hf::Prediction& p : attn::hf::top_predictions(logits, static_cast<int>(logits.size())))
      a.last_probabilities[static_cast<std::size_t>(p.id)] = static_cast<float>(p.probability);
  }
  a.forward = std::move(forward);
  return a;
}

}  // namespace model
