// The Model view's logit attribution (model_attribution.hpp): a float64 pass
// keeping every layer's details on the overview's ids, then the parts of the
// top guess's logit after the last token.
#include "model/hf/model_attribution.hpp"

namespace model {

namespace {

AttributionMap compute_attribution(const PassJobInput& in, TaskControl& control) {
  const int layers = in.checkpoint->config().n_layers;
  attn::hf::ForwardOptions o;
  o.keep_attentions = false;
  o.keep_details = true;
  o.progress = [&](int done) {
    control.report(done, layers, "logit attribution");
    return !control.cancelled();
  };
  const attn::hf::ForwardResult<double> pass = attn::hf::run_forward<double>(*in.checkpoint, in.forward->ids, o);
  control.throw_if_cancelled();
  AttributionMap m;
  m.parts = attn::hf::direct_logit_attribution(*in.checkpoint, pass, static_cast<int>(in.forward->ids.size()) - 1,
                                               in.top.id);
  m.token_text = in.top.text;
  return m;
}

}  // namespace

// A causal pre-norm model with a top guess: the stream must be a sum, and
// there must be a guess to take apart.
ModelAttribution::ModelAttribution()
    : PassJob([](const PassJobInput& in, TaskContext<AttributionMap>& c) { return compute_attribution(in, c); },
              [](const attn::hf::ModelConfig& c, const ModelAnalysis& a) {
                return c.causal && c.pre_norm && !a.predictions.empty();
              }) {}

}  // namespace model
