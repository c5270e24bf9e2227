// Checkpoints with random weights in the exact on-disk layout of a family
// (config.json + model.safetensors), written by the model benchmark so that
// nothing of hundreds of megabytes is committed. Weights are small normal
// numbers (std 0.02, as GPT-2 initialises), written tensor by tensor, so
// memory stays at one tensor however large the file.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench {

struct PlannedTensor {
  std::string name;
  std::vector<std::int64_t> shape;
  bool ones = false;  // norm weights: 1, so activations keep their scale
};

// dtype "F32" or "BF16".
inline void write_random_safetensors(const std::filesystem::path& file, const std::vector<PlannedTensor>& plan,
                                     const std::string& dtype, std::uint64_t seed) {
  const std::size_t elem = dtype == "F32" ? 4 : 2;
  nlohmann::json header = nlohmann::json::object();
  std::size_t at = 0;
  for (const auto& t : plan) {
    std::size_t count = 1;
    for (auto s : t.shape) count *= static_cast<std::size_t>(s);
    header[t.name] = {{"dtype", dtype}, {"shape", t.shape}, {"data_offsets", {at, at + count * elem}}};
    at += count * elem;
  }
  std::string h = header.dump();
  while (h.size() % 8) h.push_back(' ');
  std::ofstream out(file, std::ios::binary);
  const std::uint64_t n = h.size();
  for (int b = 0; b < 8; ++b) out.put(static_cast<char>((n >> (8 * b)) & 0xff));
  out << h;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  std::vector<char> buf;
  for (const auto& t : plan) {
    std::size_t count = 1;
    for (auto s : t.shape) count *= static_cast<std::size_t>(s);
    buf.resize(count * elem);
    for (std::size_t i = 0; i < count; ++i) {
      const float v = t.ones ? 1.0f : normal(rng);
      std::uint32_t u;
      std::memcpy(&u, &v, 4);
      if (elem == 4) std::memcpy(&buf[i * 4], &u, 4);
      else {
        const std::uint16_t top = static_cast<std::uint16_t>(u >> 16);
        std::memcpy(&buf[i * 2], &top, 2);
      }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
}

// GPT-2 small's shape by default: 12 layers, 12 heads, d 768, vocab 50257.
inline void write_gpt2_checkpoint(const std::filesystem::path& dir, int layers = 12, int d = 768, int heads = 12,
                                  int vocab = 50257, int positions = 1024) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "config.json") << nlohmann::json{{"model_type", "gpt2"}, {"n_embd", d}, {"n_head", heads},
                                                       {"n_layer", layers}, {"n_positions", positions},
                                                       {"vocab_size", vocab}, {"activation_function", "gelu_new"},
                                                       {"layer_norm_epsilon", 1e-5}}
                                            .dump(2);
  std::vector<PlannedTensor> plan{{"wte.weight", {vocab, d}}, {"wpe.weight", {positions, d}}};
  for (int l = 0; l < layers; ++l) {
    const std::string p = "h." + std::to_string(l) + ".";
    plan.push_back({p + "ln_1.weight", {d}, true});
    plan.push_back({p + "ln_1.bias", {d}});
    plan.push_back({p + "attn.c_attn.weight", {d, 3 * d}});
    plan.push_back({p + "attn.c_attn.bias", {3 * d}});
    plan.push_back({p + "attn.c_proj.weight", {d, d}});
    plan.push_back({p + "attn.c_proj.bias", {d}});
    plan.push_back({p + "ln_2.weight", {d}, true});
    plan.push_back({p + "ln_2.bias", {d}});
    plan.push_back({p + "mlp.c_fc.weight", {d, 4 * d}});
    plan.push_back({p + "mlp.c_fc.bias", {4 * d}});
    plan.push_back({p + "mlp.c_proj.weight", {4 * d, d}});
    plan.push_back({p + "mlp.c_proj.bias", {d}});
  }
  plan.push_back({"ln_f.weight", {d}, true});
  plan.push_back({"ln_f.bias", {d}});
  write_random_safetensors(dir / "model.safetensors", plan, "F32", 1);
}

// A BERT encoder in F32 (bert-base's width by default, with 1024 positions
// so that it runs at the same length as the others).
inline void write_bert_checkpoint(const std::filesystem::path& dir, int layers = 4, int d = 768, int heads = 12,
                                  int vocab = 30522, int positions = 1024) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "config.json") << nlohmann::json{{"model_type", "bert"}, {"hidden_size", d},
                                                       {"num_attention_heads", heads}, {"num_hidden_layers", layers},
                                                       {"intermediate_size", 4 * d}, {"vocab_size", vocab},
                                                       {"max_position_embeddings", positions}, {"type_vocab_size", 2},
                                                       {"layer_norm_eps", 1e-12}, {"hidden_act", "gelu"}}
                                            .dump(2);
  const std::string e = "bert.embeddings.";
  std::vector<PlannedTensor> plan{{e + "word_embeddings.weight", {vocab, d}},
                                  {e + "position_embeddings.weight", {positions, d}},
                                  {e + "token_type_embeddings.weight", {2, d}},
                                  {e + "LayerNorm.weight", {d}, true},
                                  {e + "LayerNorm.bias", {d}}};
  const auto linear = [&](const std::string& name, int out, int in) {
    plan.push_back({name + ".weight", {out, in}});
    plan.push_back({name + ".bias", {out}});
  };
  for (int l = 0; l < layers; ++l) {
    const std::string p = "bert.encoder.layer." + std::to_string(l) + ".";
    for (const char* s : {"query", "key", "value"}) linear(p + "attention.self." + s, d, d);
    linear(p + "attention.output.dense", d, d);
    plan.push_back({p + "attention.output.LayerNorm.weight", {d}, true});
    plan.push_back({p + "attention.output.LayerNorm.bias", {d}});
    linear(p + "intermediate.dense", 4 * d, d);
    linear(p + "output.dense", d, 4 * d);
    plan.push_back({p + "output.LayerNorm.weight", {d}, true});
    plan.push_back({p + "output.LayerNorm.bias", {d}});
  }
  write_random_safetensors(dir / "model.safetensors", plan, "F32", 3);
}

// A Llama-family model in BF16 (about 2 GB at the defaults: 16 layers,
// d 2048, 32 heads, 8 key/value heads, MLP 8192, vocab 32000, untied head).
// `tied`: no lm_head, the head read from the embedding (Llama 3.2).
inline void write_llama_checkpoint(const std::filesystem::path& dir, int layers = 16, int d = 2048, int heads = 32,
                                   int kv_heads = 8, int ff = 8192, int vocab = 32000, bool tied = false) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "config.json") << nlohmann::json{{"model_type", "llama"}, {"hidden_size", d},
                                                       {"num_attention_heads", heads},
                                                       {"num_key_value_heads", kv_heads},
                                                       {"num_hidden_layers", layers}, {"intermediate_size", ff},
                                                       {"vocab_size", vocab}, {"rms_norm_eps", 1e-5},
                                                       {"rope_theta", 500000.0}, {"tie_word_embeddings", tied},
                                                       {"max_position_embeddings", 8192}, {"torch_dtype", "bfloat16"}}
                                            .dump(2);
  const int hd = d / heads;
  std::vector<PlannedTensor> plan{{"model.embed_tokens.weight", {vocab, d}}};
  for (int l = 0; l < layers; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    plan.push_back({p + "input_layernorm.weight", {d}, true});
    plan.push_back({p + "self_attn.q_proj.weight", {heads * hd, d}});
    plan.push_back({p + "self_attn.k_proj.weight", {kv_heads * hd, d}});
    plan.push_back({p + "self_attn.v_proj.weight", {kv_heads * hd, d}});
    plan.push_back({p + "self_attn.o_proj.weight", {d, heads * hd}});
    plan.push_back({p + "post_attention_layernorm.weight", {d}, true});
    plan.push_back({p + "mlp.gate_proj.weight", {ff, d}});
    plan.push_back({p + "mlp.up_proj.weight", {ff, d}});
    plan.push_back({p + "mlp.down_proj.weight", {d, ff}});
  }
  plan.push_back({"model.norm.weight", {d}, true});
  if (!tied) plan.push_back({"lm_head.weight", {vocab, d}});
  write_random_safetensors(dir / "model.safetensors", plan, "BF16", 2);
}

}  // namespace bench
