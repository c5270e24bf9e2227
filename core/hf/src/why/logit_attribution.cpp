// Direct logit attribution (attn/hf/why/logit_attribution.hpp): the final
// stream at one position taken apart (stream_sources), each part through
// the final norm held at the token's value and the output head's row for
// the token, read as the model's own logits read it.
#include "attn/hf/why/logit_attribution.hpp"

#include "attn/hf/model_error.hpp"
#include "forward/layer_weights.hpp"
#include "why/stream_sources.hpp"

namespace attn::hf {

LogitAttribution direct_logit_attribution(const Checkpoint& ck, const ForwardResult<double>& r, int position,
                                          int token) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head, so no logit to attribute");
  if (!c.pre_norm)
    throw ModelError(c.family_name() + " normalises the stream after each sum, so the stream is no sum of sources");
  const int n = static_cast<int>(r.ids.size());
  detail::check_index("position", position, n);
  if (token < 0 || token >= c.vocab)
    throw ModelError("token " + std::to_string(token) + " is outside the vocabulary 0.." + std::to_string(c.vocab - 1));
  if (static_cast<int>(r.layers.size()) != c.n_layers || r.layers.back().output.rows() == 0 || r.final.rows() == 0)
    throw ModelError("the forward pass kept no details of every layer to attribute a logit with");
  const detail::Sources s = detail::stream_sources(ck, r, c.n_layers, position, position);
  const detail::Row64 unembed = detail::load_rows<double>(e.lm_head, c.d_model, {token}).row(0);
  const detail::Row64 stream = r.layers.back().output.row(position);
  detail::Row64 gamma = detail::Row64::Ones(c.d_model), beta;
  if (e.final_norm_w.info) gamma = detail::load_vector<double>(e.final_norm_w);
  if (e.final_norm_b.info) beta = detail::load_vector<double>(e.final_norm_b);
  LogitAttribution a;
  a.position = position;
  a.token = token;
  a.logit = r.final.row(position).dot(unembed);
  a.heads.assign(static_cast<std::size_t>(c.n_layers), std::vector<double>(static_cast<std::size_t>(c.n_heads), 0.0));
  a.mlps.assign(static_cast<std::size_t>(c.n_layers), 0.0);
  for (std::size_t i = 0; i < s.parts.size(); ++i) {
    const detail::Row64 part = s.parts[i].row(0);
    // Without a final norm (none of the causal families here) the part goes straight to the head.
    const double v = (e.final_norm_w.info ? detail::held_by_norm(c, stream, part, gamma) : part).dot(unembed);
    a.sources.push_back(s.names[i]);
    a.parts.push_back(v);
    const detail::SourceOrigin& o = s.origins[i];
    if (o.head >= 0) a.heads[static_cast<std::size_t>(o.layer)][static_cast<std::size_t>(o.head)] = v;
    if (o.mlp) a.mlps[static_cast<std::size_t>(o.layer)] = v;
  }
  if (beta.size() > 0) {
    a.sources.push_back("final norm bias");
    a.parts.push_back(beta.dot(unembed));
  }
  return a;
}

LogitAttribution direct_logit_attribution(const Checkpoint& ck, const std::vector<int>& ids, int position, int token) {
  ForwardOptions o;
  o.keep_attentions = false;
  o.keep_details = true;
  return direct_logit_attribution(ck, run_forward<double>(ck, ids, o), position, token);
}

}  // namespace attn::hf
