#pragma once
// What config.json says about a model, in one family-independent form: the
// forward pass reads only this, never the JSON.
#include <optional>
#include <string>
#include <vector>

namespace attn::hf {

// Gemma 2 is the Llama family's layout with its own arithmetic (the fields
// under "Gemma 2" below), so most code treats the two alike.
enum class Family { Gpt2, Bert, Llama, Gemma2 };
enum class NormKind { LayerNorm, RmsNorm };
enum class Activation { GeluTanh, GeluErf, Relu, SiluGated, GeluTanhGated };

struct ModelConfig {
  std::string model_type;  // as config.json spells it ("gpt2", "qwen2", ...)
  Family family = Family::Gpt2;
  int n_layers = 0, d_model = 0, n_heads = 0, n_kv_heads = 0, head_dim = 0, d_ff = 0;
  int vocab = 0, max_positions = 0, type_vocab = 0;
  double norm_eps = 1e-5;
  NormKind norm = NormKind::LayerNorm;
  bool pre_norm = true;  // GPT-2 and Llama: norm before each block; BERT: after
  Activation activation = Activation::GeluTanh;
  bool causal = true;
  bool qkv_bias = false, o_bias = false;
  bool mlp_bias = false;  // Llama's mlp_bias: gate, up and down projections
  bool tied_embeddings = true;
  // What a score q.k is divided by: sqrt(head_dim) unless GPT-2's
  // scale_attn_weights is false; also by (layer + 1) when GPT-2's
  // scale_attn_by_inverse_layer_idx is true.
  bool scale_by_sqrt_head_dim = true;
  bool scale_by_layer = false;
  // RoPE (Llama family): one inverse frequency per rotated pair, after any
  // rescaling, so the scene's rotation is exactly the model's.
  bool rope = false;
  std::string rope_type = "default";  // default, linear, dynamic, yarn, llama3
  double rope_theta = 10000;
  std::vector<double> rope_inv_freq;  // head_dim / 2 entries
  double rope_attention_factor = 1;   // YaRN scales cos and sin by it, so scores by its square
  std::optional<int> sliding_window;  // keys each query sees, itself included, in the layers that use it
  std::vector<bool> windowed_layers;  // per layer: does it use sliding_window (Qwen2: from max_window_layers on)
  // Gemma 2: RMSNorm scales by (1 + w) (false again for a GGUF, whose
  // converter stored 1 + w); the embeddings are multiplied by sqrt(d_model);
  // a norm also follows attention and the MLP (post_attention_layernorm,
  // post_feedforward_layernorm); scores are divided by
  // sqrt(query_pre_attn_scalar), then capped as c·tanh(s / c), and so are
  // the logits (0 = no cap).
  bool norm_adds_one = false;
  double embed_scale = 1;
  bool sandwich_norms = false;
  double query_pre_attn_scalar = 0;  // 0: head_dim
  double attn_softcap = 0, final_softcap = 0;
  std::string prefix_hint;            // "transformer.", "bert.", "model."
  std::string torch_dtype;            // as config.json says, for `attn model info`
  // Keys that change the math but are absent (and the default taken), and
  // keys read that change nothing here, in words: shown by `attn model info`
  // and the Model view.
  std::vector<std::string> notes;
  std::string family_name() const;
  // The divisor of layer `layer`'s scores (sqrt(head_dim), (layer + 1),
  // 1 / YaRN's factor squared, as the config asks).
  double score_divisor(int layer) const;
  // Keys each query of layer `layer` sees, itself included; 0 = all.
  int window_at(int layer) const;
};

// Reads config.json's text; throws ModelError("config.json: ...") naming the
// key that is missing, of the wrong type, or absurd (a hidden size of 10^9,
// heads that do not divide it, an unknown model_type).
ModelConfig parse_model_config(const std::string& json_text);

}  // namespace attn::hf
