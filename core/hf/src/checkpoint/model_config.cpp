// config.json into a ModelConfig (model_config.hpp): one reader per family
// (GPT-2, BERT, Llama-style), keys out of range or foreign to the family
// refused by name, defaults noted where the file is silent.
#include "attn/hf/checkpoint/model_config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "attn/hf/model_error.hpp"
#include "checkpoint/config_reader.hpp"
#include "checkpoint/rope_frequencies.hpp"
#include "json/bounded_json.hpp"

namespace attn::hf {

namespace {

using nlohmann::json;
using detail::ConfigReader;

// Sizes past these are not a model a laptop can hold: a damaged or hostile
// config, refused before anything is allocated from it.
constexpr long long kMaxLayers = 512, kMaxWidth = 65536, kMaxHeads = 1024, kMaxVocab = 4'000'000,
                    kMaxFf = 1'000'000, kMaxPositions = 10'000'000;

Activation activation_named(const ConfigReader& r, const char* key, const std::string& fallback, const char* note) {
  const std::string name = r.string_or(key, fallback, note);
  if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::GeluTanh;
  if (name == "gelu") return Activation::GeluErf;
  if (name == "relu") return Activation::Relu;
  r.refuse(key, "is not supported (gelu, gelu_new, gelu_pytorch_tanh, gelu_fast and relu are)");
}

// Keys of other model families that change the math. Found in a config of
// ours, they mean the file is not what its model_type says, or a variant
// the forward does not implement: refused, never ignored.
void refuse_foreign_keys(const ConfigReader& r, const ModelConfig& m) {
  if (m.family != Family::Gemma2)
    for (const char* key : {"attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar"})
      if (r.has(key)) r.refuse(key, "changes the attention or the blocks in a way this family's forward does not implement");
  for (const char* key : {"use_qk_norm",
                          "qk_layernorm", "rotary_pct", "use_parallel_residual", "alibi", "embedding_multiplier",
                          "attention_multiplier", "residual_multiplier", "logits_scaling", "no_rope_layers",
                          "rope_interleaved", "moe_intermediate_size", "num_experts", "num_local_experts"})
    if (r.has(key)) r.refuse(key, "changes the attention or the blocks in a way this family's forward does not implement");
  for (const char* key : {"add_cross_attention", "is_decoder"})
    if (r.boolean_or(key, false)) r.refuse(key, "cross-attention and decoder variants are not implemented for this family");
}

void read_gpt2(const ConfigReader& r, ModelConfig& m) {
  m.family = Family::Gpt2;
  m.d_model = static_cast<int>(r.integer("n_embd", 1, kMaxWidth));
  m.n_heads = static_cast<int>(r.integer("n_head", 1, kMaxHeads));
  m.n_layers = static_cast<int>(r.integer("n_layer", 1, kMaxLayers));
  m.max_positions = static_cast<int>(
      r.has("n_positions") ? r.integer("n_positions", 1, kMaxPositions)
                           : r.integer_or("n_ctx", 1, kMaxPositions, 1024, "nor is n_positions: 1024 positions, GPT-2's"));
  m.d_ff = static_cast<int>(r.integer_or("n_inner", 1, kMaxFf, 4LL * m.d_model));  // null in every GPT-2 config: 4 x n_embd
  m.norm_eps = r.positive_or("layer_norm_epsilon", 1e-5, "1e-05, GPT-2's default");
  m.activation = activation_named(r, "activation_function", "gelu_new", "gelu_new, GPT-2's default");
  m.scale_by_sqrt_head_dim = r.boolean_or("scale_attn_weights", true);
  m.scale_by_layer = r.boolean_or("scale_attn_by_inverse_layer_idx", false);
  if (r.boolean_or("reorder_and_upcast_attn", false))
    r.note("reorder_and_upcast_attn only changes the precision half-precision scores are computed in; "
           "this forward computes them in float64 (and float32 for the overview)");
  m.norm = NormKind::LayerNorm;
  m.pre_norm = true;
  m.causal = true;
  m.qkv_bias = m.o_bias = true;
  m.tied_embeddings = true;
  m.prefix_hint = "transformer.";
}

void read_bert(const ConfigReader& r, ModelConfig& m) {
  m.family = Family::Bert;
  m.d_model = static_cast<int>(r.integer("hidden_size", 1, kMaxWidth));
  m.n_heads = static_cast<int>(r.integer("num_attention_heads", 1, kMaxHeads));
  m.n_layers = static_cast<int>(r.integer("num_hidden_layers", 1, kMaxLayers));
  m.d_ff = static_cast<int>(r.integer("intermediate_size", 1, kMaxFf));
  m.max_positions = static_cast<int>(r.integer_or("max_position_embeddings", 1, kMaxPositions, 512, "512 positions, BERT's"));
  m.type_vocab = static_cast<int>(r.integer_or("type_vocab_size", 0, 1024, 2, "2 segment types, BERT's"));
  m.norm_eps = r.positive_or("layer_norm_eps", 1e-12, "1e-12, BERT's default");
  m.activation = activation_named(r, "hidden_act", "gelu", "gelu, BERT's default");
  const std::string pos = r.string_or("position_embedding_type", "absolute");
  if (pos != "absolute") r.refuse("position_embedding_type", "relative positions are not implemented (absolute is)");
  m.norm = NormKind::LayerNorm;
  m.pre_norm = false;
  m.causal = false;
  m.qkv_bias = m.o_bias = true;
  m.tied_embeddings = true;
  m.prefix_hint = "bert.";
}

// Which layers use the sliding window: transformers 5's "layer_types" when
// written, else Mistral's every layer, Qwen2's from max_window_layers on (only
// with use_sliding_window), and Llama's none.
void read_windows(const ConfigReader& r, ModelConfig& m) {
  m.windowed_layers.assign(static_cast<std::size_t>(m.n_layers), false);
  const bool qwen = m.model_type == "qwen2";
  if (qwen && !r.boolean_or("use_sliding_window", false)) {
    if (r.has("layer_types"))
      for (const auto& t : r.at("layer_types"))
        if (t == "sliding_attention") r.refuse("layer_types", "names sliding layers though use_sliding_window is false");
    return;
  }
  if (m.model_type == "llama") {
    if (r.has("sliding_window")) r.note("sliding_window is not used by Llama models (every layer sees all keys)");
    return;
  }
  const bool gemma = m.model_type == "gemma2";
  if (!r.json().contains("sliding_window")) {
    // transformers' Mistral and Qwen2 default a window left out to 4096
    // keys; one written as null means none.
    m.sliding_window = 4096;
    r.note("sliding_window is not given: 4096, the " + m.model_type + " default");
  } else if (!r.has("sliding_window")) {
    return;
  } else {
    m.sliding_window = static_cast<int>(r.integer("sliding_window", 1, kMaxPositions));
  }
  if (r.has("layer_types")) {
    const json& types = r.at("layer_types");
    if (!types.is_array() || types.size() != static_cast<std::size_t>(m.n_layers))
      r.refuse("layer_types", "must list one type per layer (" + std::to_string(m.n_layers) + ")");
    for (std::size_t l = 0; l < types.size(); ++l) {
      if (types[l] == "sliding_attention")
        m.windowed_layers[l] = true;
      else if (types[l] != "full_attention")
        r.fail("layer_types[" + std::to_string(l) + "] = " + detail::describe_json(types[l]) +
               " is not \"full_attention\" or \"sliding_attention\"");
    }
    return;
  }
  long long first = 0;
  if (qwen) first = r.integer_or("max_window_layers", 0, kMaxLayers, 28, "28, Qwen2's default: layers from 28 on use the window");
  // Gemma 2 alternates: layers 0, 2, 4, ... see the window, the others every key.
  for (long long l = first; l < m.n_layers; l += gemma ? 2 : 1) m.windowed_layers[static_cast<std::size_t>(l)] = true;
}

// What Gemma 2 does differently from Llama (transformers' modeling_gemma2).
void read_gemma2(const ConfigReader& r, ModelConfig& m) {
  m.family = Family::Gemma2;
  // transformers reads hidden_activation (hidden_act is a leftover of Gemma 1).
  const char* key = r.has("hidden_activation") ? "hidden_activation" : "hidden_act";
  const std::string act = r.string_or(key, "gelu_pytorch_tanh", "gelu_pytorch_tanh, Gemma 2's default");
  if (act != "gelu_pytorch_tanh" && act != "gelu_new" && act != "gelu_fast")
    r.refuse(key, "is not supported for gemma2 (gelu_pytorch_tanh is)");
  m.activation = Activation::GeluTanhGated;
  m.norm_adds_one = true;
  m.sandwich_norms = true;
  const auto cap = [&](const char* name, double fallback) {
    if (r.json().contains(name) && r.json().at(name).is_null()) return 0.0;  // written as null: no cap
    return r.positive_or(name, fallback, (std::to_string(static_cast<int>(fallback)) + ", Gemma 2's").c_str());
  };
  m.attn_softcap = cap("attn_logit_softcapping", 50);
  m.final_softcap = cap("final_logit_softcapping", 30);
}

void read_llama(const ConfigReader& r, ModelConfig& m) {
  m.family = Family::Llama;
  m.d_model = static_cast<int>(r.integer("hidden_size", 1, kMaxWidth));
  m.n_heads = static_cast<int>(r.integer("num_attention_heads", 1, kMaxHeads));
  m.n_kv_heads = static_cast<int>(
      r.integer_or("num_key_value_heads", 1, kMaxHeads, m.n_heads, "one key/value head per query head"));
  m.n_layers = static_cast<int>(r.integer("num_hidden_layers", 1, kMaxLayers));
  m.d_ff = static_cast<int>(r.integer("intermediate_size", 1, kMaxFf));
  m.max_positions = static_cast<int>(r.integer_or("max_position_embeddings", 1, kMaxPositions, 2048, "2048 positions"));
  m.norm_eps = r.positive_or("rms_norm_eps", 1e-6, "1e-06, the default of transformers' Llama, Mistral and Qwen2");
  if (m.model_type == "gemma2") {
    read_gemma2(r, m);
  } else {
    const std::string act = r.string_or("hidden_act", "silu", "silu, the family's default");
    if (act != "silu") r.refuse("hidden_act", "is not supported for " + m.model_type + " (silu is)");
    m.activation = Activation::SiluGated;
  }
  m.norm = NormKind::RmsNorm;
  m.pre_norm = true;
  m.causal = true;
  if (m.model_type == "gemma2") {
    m.qkv_bias = m.o_bias = r.boolean_or("attention_bias", false);
  } else if (m.model_type == "qwen2") {
    // Qwen2 always has q/k/v biases and no output bias; it reads no attention_bias.
    m.qkv_bias = true;
    if (r.has("attention_bias")) r.note("attention_bias is not read by Qwen2 (its q, k and v always have biases, o none)");
  } else {
    m.qkv_bias = m.o_bias = r.boolean_or("attention_bias", false);
  }
  if (m.model_type == "llama")
    m.mlp_bias = r.boolean_or("mlp_bias", false);
  else if (r.boolean_or("mlp_bias", false))
    r.refuse("mlp_bias", "is not read by " + m.model_type + ", whose MLP has no biases");
  m.tied_embeddings = m.model_type == "gemma2"
                          ? r.boolean_or("tie_word_embeddings", true, "true: Gemma 2's output head is its embedding table")
                          : r.boolean_or("tie_word_embeddings", false, "false: lm_head.weight is its own tensor");
  if (r.has("pretraining_tp") && r.integer("pretraining_tp", 1, 1024) > 1)
    r.note("pretraining_tp only splits the products into slices; the sums are the same");
  m.prefix_hint = "model.";
  if (r.has("head_dim")) m.head_dim = static_cast<int>(r.integer("head_dim", 2, kMaxWidth));
  m.rope = true;
  read_windows(r, m);
}

}  // namespace

std::string ModelConfig::family_name() const {
  switch (family) {
    case Family::Gpt2: return "GPT-2";
    case Family::Bert: return "BERT";
    case Family::Llama: return "Llama";
    case Family::Gemma2: return "Gemma 2";
  }
  return "?";
}

double ModelConfig::score_divisor(int layer) const {
  double d = !scale_by_sqrt_head_dim ? 1.0
             : query_pre_attn_scalar > 0 ? std::sqrt(query_pre_attn_scalar)
                                         : std::sqrt(static_cast<double>(head_dim));
  if (scale_by_layer) d *= layer + 1;
  return d / (rope_attention_factor * rope_attention_factor);
}

int ModelConfig::window_at(int layer) const {
  if (!sliding_window || layer < 0 || layer >= static_cast<int>(windowed_layers.size())) return 0;
  return windowed_layers[static_cast<std::size_t>(layer)] ? *sliding_window : 0;
}

ModelConfig parse_model_config(const std::string& json_text) {
  const json c = detail::parse_bounded_json(json_text, "config.json", detail::kSmallFileBounds);
  if (!c.is_object()) throw ModelError("config.json: not a JSON object");
  ModelConfig m;
  const ConfigReader r(c, "", m.notes);
  m.model_type = r.string_or("model_type", "");
  if (m.model_type.empty()) r.fail("\"model_type\" is missing, so the model family is unknown");
  if (m.model_type == "gpt2" || m.model_type == "distilgpt2")
    read_gpt2(r, m);
  else if (m.model_type == "bert")
    read_bert(r, m);
  else if (m.model_type == "llama" || m.model_type == "mistral" || m.model_type == "qwen2" || m.model_type == "gemma2")
    read_llama(r, m);
  else
    r.refuse("model_type", "is not supported (gpt2, distilgpt2, bert, llama, mistral, qwen2, gemma2 are)");
  refuse_foreign_keys(r, m);
  m.vocab = static_cast<int>(r.integer("vocab_size", 1, kMaxVocab));
  m.torch_dtype = r.string_or("torch_dtype", r.string_or("dtype", ""));
  if (m.n_kv_heads == 0) m.n_kv_heads = m.n_heads;
  if (m.head_dim == 0) {
    if (m.d_model % m.n_heads != 0)
      r.fail("the hidden size " + std::to_string(m.d_model) + " is not divisible by the " + std::to_string(m.n_heads) +
             " heads");
    m.head_dim = m.d_model / m.n_heads;
  }
  if (m.n_heads % m.n_kv_heads != 0)
    r.fail("num_key_value_heads = " + std::to_string(m.n_kv_heads) + " does not divide the " + std::to_string(m.n_heads) +
           " attention heads");
  if (m.family == Family::Gemma2) {
    m.embed_scale = std::sqrt(static_cast<double>(m.d_model));
    m.query_pre_attn_scalar = r.positive_or("query_pre_attn_scalar", m.head_dim, "head_dim, as in Gemma 2's 2B and 9B");
  }
  if (static_cast<long long>(m.n_heads) * m.head_dim > kMaxWidth)
    r.fail("heads x head_dim = " + std::to_string(static_cast<long long>(m.n_heads) * m.head_dim) + " is absurd");
  if (m.rope) {
    if (m.head_dim % 2 != 0) r.fail("head_dim " + std::to_string(m.head_dim) + " is odd, so RoPE cannot pair it");
    const detail::RopeSettings rope = detail::read_rope(c, m.head_dim, m.max_positions, m.notes);
    m.rope_type = rope.type;
    m.rope_theta = rope.theta;
    m.rope_inv_freq = rope.inv_freq;
    m.rope_attention_factor = rope.attention_factor;
  } else {
    for (const char* key : {"rope_theta", "rope_scaling", "rope_parameters"})
      if (r.has(key)) r.refuse(key, m.family_name() + " has learned positions, not RoPE");
  }
  return m;
}

}  // namespace attn::hf
