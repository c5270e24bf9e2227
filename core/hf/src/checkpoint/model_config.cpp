#include "attn/hf/model_config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "attn/hf/model_error.hpp"
#include "checkpoint/rope_frequencies.hpp"

namespace attn::hf {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& why) { throw ModelError("config.json: " + why); }

// Sizes past these are not a model a laptop can hold: a damaged or hostile
// config, refused before anything is allocated from it.
constexpr long long kMaxLayers = 512, kMaxWidth = 65536, kMaxHeads = 1024, kMaxVocab = 4'000'000,
                    kMaxFf = 1'000'000, kMaxPositions = 10'000'000;

long long int_key(const json& c, const char* key, long long lo, long long hi, std::optional<long long> fallback = {}) {
  auto it = c.find(key);
  if (it == c.end() || it->is_null()) {
    if (fallback) return *fallback;
    fail(std::string("\"") + key + "\" is missing");
  }
  if (!it->is_number_integer()) fail(std::string("\"") + key + "\" must be an integer, not " + it->dump());
  const long long v = it->get<long long>();
  if (v < lo || v > hi)
    fail(std::string("\"") + key + "\" = " + std::to_string(v) + " is outside " + std::to_string(lo) + ".." +
         std::to_string(hi));
  return v;
}

double number_key(const json& c, const char* key, double fallback) {
  auto it = c.find(key);
  if (it == c.end() || it->is_null()) return fallback;
  if (!it->is_number()) fail(std::string("\"") + key + "\" must be a number, not " + it->dump());
  const double v = it->get<double>();
  if (!std::isfinite(v) || v <= 0) fail(std::string("\"") + key + "\" must be a positive number, not " + it->dump());
  return v;
}

bool bool_key(const json& c, const char* key, bool fallback) {
  auto it = c.find(key);
  if (it == c.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) fail(std::string("\"") + key + "\" must be true or false, not " + it->dump());
  return it->get<bool>();
}

std::string string_key(const json& c, const char* key, const std::string& fallback) {
  auto it = c.find(key);
  if (it == c.end() || it->is_null()) return fallback;
  if (!it->is_string()) fail(std::string("\"") + key + "\" must be a string, not " + it->dump());
  return it->get<std::string>();
}

Activation activation_named(const std::string& name, const char* key) {
  if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::GeluTanh;
  if (name == "gelu") return Activation::GeluErf;
  if (name == "relu") return Activation::Relu;
  fail(std::string("\"") + key + "\" = \"" + name + "\" is not supported (gelu, gelu_new, relu)");
}

void read_gpt2(const json& c, ModelConfig& m) {
  m.family = Family::Gpt2;
  m.d_model = static_cast<int>(int_key(c, "n_embd", 1, kMaxWidth));
  m.n_heads = static_cast<int>(int_key(c, "n_head", 1, kMaxHeads));
  m.n_layers = static_cast<int>(int_key(c, "n_layer", 1, kMaxLayers));
  m.max_positions = static_cast<int>(int_key(c, "n_positions", 1, kMaxPositions, int_key(c, "n_ctx", 1, kMaxPositions, 1024)));
  m.d_ff = static_cast<int>(int_key(c, "n_inner", 1, kMaxFf, 4LL * m.d_model));
  m.norm_eps = number_key(c, "layer_norm_epsilon", 1e-5);
  m.activation = activation_named(string_key(c, "activation_function", "gelu_new"), "activation_function");
  m.norm = NormKind::LayerNorm;
  m.pre_norm = true;
  m.causal = true;
  m.qkv_bias = m.o_bias = true;
  m.tied_embeddings = true;
  m.prefix_hint = "transformer.";
}

void read_bert(const json& c, ModelConfig& m) {
  m.family = Family::Bert;
  m.d_model = static_cast<int>(int_key(c, "hidden_size", 1, kMaxWidth));
  m.n_heads = static_cast<int>(int_key(c, "num_attention_heads", 1, kMaxHeads));
  m.n_layers = static_cast<int>(int_key(c, "num_hidden_layers", 1, kMaxLayers));
  m.d_ff = static_cast<int>(int_key(c, "intermediate_size", 1, kMaxFf));
  m.max_positions = static_cast<int>(int_key(c, "max_position_embeddings", 1, kMaxPositions, 512));
  m.type_vocab = static_cast<int>(int_key(c, "type_vocab_size", 0, 1024, 2));
  m.norm_eps = number_key(c, "layer_norm_eps", 1e-12);
  m.activation = activation_named(string_key(c, "hidden_act", "gelu"), "hidden_act");
  const std::string pos = string_key(c, "position_embedding_type", "absolute");
  if (pos != "absolute") fail("position_embedding_type \"" + pos + "\" is not supported (absolute)");
  m.norm = NormKind::LayerNorm;
  m.pre_norm = false;
  m.causal = false;
  m.qkv_bias = m.o_bias = true;
  m.tied_embeddings = true;
  m.prefix_hint = "bert.";
}

void read_llama(const json& c, ModelConfig& m) {
  m.family = Family::Llama;
  m.d_model = static_cast<int>(int_key(c, "hidden_size", 1, kMaxWidth));
  m.n_heads = static_cast<int>(int_key(c, "num_attention_heads", 1, kMaxHeads));
  m.n_kv_heads = static_cast<int>(int_key(c, "num_key_value_heads", 1, kMaxHeads, m.n_heads));
  m.n_layers = static_cast<int>(int_key(c, "num_hidden_layers", 1, kMaxLayers));
  m.d_ff = static_cast<int>(int_key(c, "intermediate_size", 1, kMaxFf));
  m.max_positions = static_cast<int>(int_key(c, "max_position_embeddings", 1, kMaxPositions, 2048));
  m.norm_eps = number_key(c, "rms_norm_eps", 1e-6);
  const std::string act = string_key(c, "hidden_act", "silu");
  if (act != "silu") fail("hidden_act \"" + act + "\" is not supported for " + m.model_type + " (silu)");
  m.activation = Activation::SiluGated;
  m.norm = NormKind::RmsNorm;
  m.pre_norm = true;
  m.causal = true;
  const bool attention_bias = bool_key(c, "attention_bias", false);
  m.qkv_bias = m.model_type == "qwen2" || attention_bias;
  m.o_bias = attention_bias;
  m.tied_embeddings = bool_key(c, "tie_word_embeddings", false);
  m.prefix_hint = "model.";
  if (c.contains("head_dim") && !c["head_dim"].is_null())
    m.head_dim = static_cast<int>(int_key(c, "head_dim", 2, kMaxWidth));
  m.rope = true;
  m.rope_theta = number_key(c, "rope_theta", 10000);
  // Qwen2 writes a sliding_window it does not use unless use_sliding_window.
  const bool window_on = m.model_type == "mistral" || bool_key(c, "use_sliding_window", false);
  if (window_on && c.contains("sliding_window") && !c["sliding_window"].is_null())
    m.sliding_window = static_cast<int>(int_key(c, "sliding_window", 1, kMaxPositions));
}

}  // namespace

std::string ModelConfig::family_name() const {
  switch (family) {
    case Family::Gpt2: return "GPT-2";
    case Family::Bert: return "BERT";
    case Family::Llama: return "Llama";
  }
  return "?";
}

ModelConfig parse_model_config(const std::string& json_text) {
  json c;
  try {
    c = json::parse(json_text);
  } catch (const json::parse_error& e) {
    fail(std::string("not valid JSON (") + e.what() + ")");
  }
  if (!c.is_object()) fail("not a JSON object");
  ModelConfig m;
  m.model_type = string_key(c, "model_type", "");
  if (m.model_type.empty()) fail("\"model_type\" is missing, so the model family is unknown");
  if (m.model_type == "gpt2" || m.model_type == "distilgpt2")
    read_gpt2(c, m);
  else if (m.model_type == "bert")
    read_bert(c, m);
  else if (m.model_type == "llama" || m.model_type == "mistral" || m.model_type == "qwen2")
    read_llama(c, m);
  else
    fail("model_type \"" + m.model_type +
         "\" is not supported (gpt2, distilgpt2, bert, llama, mistral, qwen2 are)");
  m.vocab = static_cast<int>(int_key(c, "vocab_size", 1, kMaxVocab));
  m.torch_dtype = string_key(c, "torch_dtype", string_key(c, "dtype", ""));
  if (m.n_kv_heads == 0) m.n_kv_heads = m.n_heads;
  if (m.head_dim == 0) {
    if (m.d_model % m.n_heads != 0)
      fail("the hidden size " + std::to_string(m.d_model) + " is not divisible by the " + std::to_string(m.n_heads) +
           " heads");
    m.head_dim = m.d_model / m.n_heads;
  }
  if (m.n_heads % m.n_kv_heads != 0)
    fail("num_key_value_heads = " + std::to_string(m.n_kv_heads) + " does not divide the " + std::to_string(m.n_heads) +
         " attention heads");
  if (static_cast<long long>(m.n_heads) * m.head_dim > kMaxWidth)
    fail("heads x head_dim = " + std::to_string(static_cast<long long>(m.n_heads) * m.head_dim) + " is absurd");
  if (m.rope) {
    if (m.head_dim % 2 != 0) fail("head_dim " + std::to_string(m.head_dim) + " is odd, so RoPE cannot pair it");
    m.rope_inv_freq = detail::rope_inverse_frequencies(c, m.head_dim, m.rope_theta);
  }
  return m;
}

}  // namespace attn::hf
