// One layer's tensors by family naming (layer_weights.hpp): GPT-2's fused
// Conv1D, BERT's and Llama's separate linears, each shape checked against
// the config before it is loaded.
#include "forward/layer_weights.hpp"

#include "attn/hf/model_error.hpp"

namespace attn::hf::detail {

namespace {

using Shape = std::vector<std::int64_t>;

// BERT checkpoints from before 2019 name LayerNorm's parameters gamma/beta.
TensorRef norm_param(const Checkpoint& ck, const std::string& base, bool weight, std::int64_t d) {
  const std::string modern = base + (weight ? ".weight" : ".bias");
  if (!ck.find(modern).info) {
    const std::string old = base + (weight ? ".gamma" : ".beta");
    if (ck.find(old).info) return ck.tensor(old, {d});
  }
  return ck.tensor(modern, {d});
}

// The big tensors a layer reads, remembered so their pages can go once it is done.
template <class S>
TensorRef tracked(LayerWeights<S>& w, TensorRef t) {
  w.sources.push_back(t);
  return t;
}

template <class S>
void load_gpt2(const Checkpoint& ck, int l, LayerWeights<S>& w) {
  const auto& c = ck.config();
  const int d = c.d_model, ff = c.d_ff, inner = c.n_heads * c.head_dim;
  const std::string p = "h." + std::to_string(l) + ".";
  w.norm1_w = load_vector<S>(norm_param(ck, p + "ln_1", true, d));
  w.norm1_b = load_vector<S>(norm_param(ck, p + "ln_1", false, d));
  // c_attn packs Q, K and V side by side in its output columns.
  const Weight<S> qkv = load_conv1d<S>(tracked(w, ck.tensor(p + "attn.c_attn.weight", {d, 3 * inner})), d, 3 * inner);
  const RowX<S> qkv_b = load_vector<S>(ck.tensor(p + "attn.c_attn.bias", {3 * inner}));
  w.w_q = qkv.cols(0, inner);
  w.w_k = qkv.cols(inner, inner);
  w.w_v = qkv.cols(2 * inner, inner);
  w.b_q = qkv_b.head(inner);
  w.b_k = qkv_b.segment(inner, inner);
  w.b_v = qkv_b.tail(inner);
  w.w_o = load_conv1d<S>(tracked(w, ck.tensor(p + "attn.c_proj.weight", {inner, d})), inner, d);
  w.b_o = load_vector<S>(ck.tensor(p + "attn.c_proj.bias", {d}));
  w.norm2_w = load_vector<S>(norm_param(ck, p + "ln_2", true, d));
  w.norm2_b = load_vector<S>(norm_param(ck, p + "ln_2", false, d));
  w.w_up = load_conv1d<S>(tracked(w, ck.tensor(p + "mlp.c_fc.weight", {d, ff})), d, ff);
  w.b_up = load_vector<S>(ck.tensor(p + "mlp.c_fc.bias", {ff}));
  w.w_down = load_conv1d<S>(tracked(w, ck.tensor(p + "mlp.c_proj.weight", {ff, d})), ff, d);
  w.b_down = load_vector<S>(ck.tensor(p + "mlp.c_proj.bias", {d}));
}

template <class S>
void linear(const Checkpoint& ck, const std::string& name, int in, int out, bool bias, Weight<S>& w, RowX<S>& b,
            std::vector<TensorRef>& sources) {
  const TensorRef t = ck.tensor(name + ".weight", {out, in});
  sources.push_back(t);
  w = load_linear<S>(t, in, out);
  if (bias) b = load_vector<S>(ck.tensor(name + ".bias", {out}));
}

template <class S>
void load_bert(const Checkpoint& ck, int l, LayerWeights<S>& w) {
  const auto& c = ck.config();
  const int d = c.d_model, ff = c.d_ff, inner = c.n_heads * c.head_dim;
  const std::string p = "encoder.layer." + std::to_string(l) + ".";
  linear(ck, p + "attention.self.query", d, inner, true, w.w_q, w.b_q, w.sources);
  linear(ck, p + "attention.self.key", d, inner, true, w.w_k, w.b_k, w.sources);
  linear(ck, p + "attention.self.value", d, inner, true, w.w_v, w.b_v, w.sources);
  linear(ck, p + "attention.output.dense", inner, d, true, w.w_o, w.b_o, w.sources);
  w.norm1_w = load_vector<S>(norm_param(ck, p + "attention.output.LayerNorm", true, d));
  w.norm1_b = load_vector<S>(norm_param(ck, p + "attention.output.LayerNorm", false, d));
  linear(ck, p + "intermediate.dense", d, ff, true, w.w_up, w.b_up, w.sources);
  linear(ck, p + "output.dense", ff, d, true, w.w_down, w.b_down, w.sources);
  w.norm2_w = load_vector<S>(norm_param(ck, p + "output.LayerNorm", true, d));
  w.norm2_b = load_vector<S>(norm_param(ck, p + "output.LayerNorm", false, d));
}

template <class S>
void load_llama(const Checkpoint& ck, int l, LayerWeights<S>& w) {
  const auto& c = ck.config();
  const int d = c.d_model, ff = c.d_ff, q = c.n_heads * c.head_dim, kv = c.n_kv_heads * c.head_dim;
  const std::string p = "layers." + std::to_string(l) + ".";
  w.norm1_w = load_vector<S>(ck.tensor(p + "input_layernorm.weight", {d}));
  linear(ck, p + "self_attn.q_proj", d, q, c.qkv_bias, w.w_q, w.b_q, w.sources);
  linear(ck, p + "self_attn.k_proj", d, kv, c.qkv_bias, w.w_k, w.b_k, w.sources);
  linear(ck, p + "self_attn.v_proj", d, kv, c.qkv_bias, w.w_v, w.b_v, w.sources);
  linear(ck, p + "self_attn.o_proj", q, d, c.o_bias, w.w_o, w.b_o, w.sources);
  if (c.sandwich_norms) {  // Gemma 2: post_attention_layernorm follows attention; its own norm precedes the MLP
    w.post_attn_norm_w = load_vector<S>(ck.tensor(p + "post_attention_layernorm.weight", {d}));
    w.norm2_w = load_vector<S>(ck.tensor(p + "pre_feedforward_layernorm.weight", {d}));
    w.post_mlp_norm_w = load_vector<S>(ck.tensor(p + "post_feedforward_layernorm.weight", {d}));
  } else {
    w.norm2_w = load_vector<S>(ck.tensor(p + "post_attention_layernorm.weight", {d}));
  }
  linear(ck, p + "mlp.gate_proj", d, ff, c.mlp_bias, w.w_gate, w.b_gate, w.sources);
  linear(ck, p + "mlp.up_proj", d, ff, c.mlp_bias, w.w_up, w.b_up, w.sources);
  linear(ck, p + "mlp.down_proj", ff, d, c.mlp_bias, w.w_down, w.b_down, w.sources);
}

}  // namespace

template <class S>
LayerWeights<S> load_layer(const Checkpoint& ck, int layer) {
  LayerWeights<S> w;
  switch (ck.config().family) {
    case Family::Gpt2: load_gpt2(ck, layer, w); break;
    case Family::Bert: load_bert(ck, layer, w); break;
    case Family::Llama:
    case Family::Gemma2: load_llama(ck, layer, w); break;
  }
  return w;
}

template LayerWeights<float> load_layer<float>(const Checkpoint&, int);
template LayerWeights<double> load_layer<double>(const Checkpoint&, int);

EmbeddingTensors embedding_tensors(const Checkpoint& ck) {
  const auto& c = ck.config();
  const std::int64_t d = c.d_model, vocab = c.vocab;
  EmbeddingTensors e;
  switch (c.family) {
    case Family::Gpt2:
      e.tokens = ck.tensor("wte.weight", {vocab, d});
      e.positions = ck.tensor("wpe.weight", {c.max_positions, d});
      e.final_norm_w = norm_param(ck, "ln_f", true, d);
      e.final_norm_b = norm_param(ck, "ln_f", false, d);
      e.lm_head = e.tokens;
      break;
    case Family::Bert:
      e.tokens = ck.tensor("embeddings.word_embeddings.weight", {vocab, d});
      e.positions = ck.tensor("embeddings.position_embeddings.weight", {c.max_positions, d});
      if (c.type_vocab > 0) e.types = ck.tensor("embeddings.token_type_embeddings.weight", {c.type_vocab, d});
      e.embed_norm_w = norm_param(ck, "embeddings.LayerNorm", true, d);
      e.embed_norm_b = norm_param(ck, "embeddings.LayerNorm", false, d);
      break;
    case Family::Llama:
    case Family::Gemma2:
      e.tokens = ck.tensor("embed_tokens.weight", {vocab, d});
      e.final_norm_w = ck.tensor("norm.weight", {d});
      e.lm_head = c.tied_embeddings ? e.tokens : ck.tensor("lm_head.weight", {vocab, d});
      break;
  }
  return e;
}

}  // namespace attn::hf::detail
