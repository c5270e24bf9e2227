#pragma once
// What config.json says about a model, in one family-independent form: the
// forward pass reads only this, never the JSON.
#include <optional>
#include <string>
#include <vector>

namespace attn::hf {

enum class Family { Gpt2, Bert, Llama };
enum class NormKind { LayerNorm, RmsNorm };
enum class Activation { GeluTanh, GeluErf, Relu, SiluGated };

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
  bool tied_embeddings = true;
  // RoPE (Llama family): one inverse frequency per rotated pair, after any
  // rope_scaling, so the scene's rotation is exactly the model's.
  bool rope = false;
  double rope_theta = 10000;
  std::vector<double> rope_inv_freq;  // head_dim / 2 entries
  std::optional<int> sliding_window;  // keys each query sees, itself included
  std::string prefix_hint;            // "transformer.", "bert.", "model."
  std::string torch_dtype;            // as config.json says, for `attn model info`
  std::string family_name() const;
};

// Reads config.json's text; throws ModelError("config.json: ...") naming the
// key that is missing, of the wrong type, or absurd (a hidden size of 10^9,
// heads that do not divide it, an unknown model_type).
ModelConfig parse_model_config(const std::string& json_text);

}  // namespace attn::hf
