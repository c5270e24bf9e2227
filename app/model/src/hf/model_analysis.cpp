// The Model view's background job (model_analysis.hpp): forward pass, then
// per-head measures and thumbnails, then the predictions.
#include "model/hf/model_analysis.hpp"

#include <algorithm>

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

namespace {

// Where a pass with `heads_off` may start from `all_heads_on`'s kept inputs: the
// first switched-off layer, or -1 when it cannot (no such pass, other ids).
int resume_layer(const AnalysisInput& in) {
  if (!in.all_heads_on || !in.all_heads_on->heads_off.empty() || in.heads_off.empty() || in.all_heads_on->ids != in.ids)
    return -1;
  const attn::hf::ForwardResult<float>& on = *in.all_heads_on->forward;
  int first = in.heads_off.front().layer;
  for (const attn::hf::HeadRef& h : in.heads_off) first = std::min(first, h.layer);
  const bool kept = on.first_layer == 0 && first >= 0 && first < static_cast<int>(on.layers.size()) &&
                    on.layers[static_cast<std::size_t>(first)].input.size() > 0;
  return kept ? first : -1;
}

}  // namespace

ModelAnalysis analyse(const AnalysisInput& in, TaskControl& control) {
  const attn::hf::ModelConfig& c = in.checkpoint->config();
  attn::hf::ForwardOptions options;
  options.heads_off = in.heads_off;
  options.mode = in.mode;
  // The pass with every head on keeps the residual stream entering each
  // layer, for the passes with heads off to resume from: n x d_model floats
  // a layer, head_dim / n of the attention maps it keeps anyway. GPT-2 small
  // at 1,024 tokens: 3 MB a layer, 38 MB in all; a 2,048-token text on a
  // Llama-2-7B shape: 34 MB a layer, 1.1 GB for 32 layers (its maps: 17 GB).
  options.keep_inputs = in.heads_off.empty();
  const auto report = [&](int done) {
    control.report(done, c.n_layers, "layer " + std::to_string(done) + " of " + std::to_string(c.n_layers));
    return !control.cancelled();
  };
  options.progress = in.counts ? in.counts->pass<float>(report) : std::function<bool(int)>(report);
  control.report(0, c.n_layers, "starting");
  const int resume = resume_layer(in);
  std::shared_ptr<attn::hf::ForwardResult<float>> forward;
  if (resume >= 0) {
    const attn::hf::ForwardResult<float>& on = *in.all_heads_on->forward;
    forward = std::make_shared<attn::hf::ForwardResult<float>>(attn::hf::resume_forward<float>(*in.checkpoint, on, resume, options));
    // The layers before the first switched-off head are the same bits in
    // both passes: the overview and the head view read them from here too.
    for (int l = 0; l < resume; ++l)
      forward->layers[static_cast<std::size_t>(l)].attentions = on.layers[static_cast<std::size_t>(l)].attentions;
  } else {
    forward = std::make_shared<attn::hf::ForwardResult<float>>(attn::hf::run_forward<float>(*in.checkpoint, in.ids, options));
  }
  control.throw_if_cancelled();
  ModelAnalysis a;
  a.ids = in.ids;
  a.heads_off = in.heads_off;
  a.mode = in.mode;
  for (const attn::hf::LayerRecord<float>& layer : forward->layers) {
    auto& heads = a.heads.emplace_back();
    auto& thumbs = a.thumbnails.emplace_back();
    const std::size_t l = a.heads.size() - 1;
    if (static_cast<int>(l) < resume) {  // measured and drawn already, from the same weights
      heads = in.all_heads_on->heads[l];
      thumbs = in.all_heads_on->thumbnails[l];
      continue;
    }
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
