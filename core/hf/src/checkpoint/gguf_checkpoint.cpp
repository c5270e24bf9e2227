// A GGUF file as a Checkpoint (checkpoint.hpp). llama.cpp's converter
// renamed every tensor ("model.layers.3.self_attn.q_proj.weight" became
// "blk.3.attn_q.weight"), moved the settings from config.json into the
// metadata ("llama.attention.head_count"), interleaved the rotary halves of
// Q's and K's rows for Llama, transposed GPT-2's Conv1D weights and added 1
// to Gemma's norm weights. This
// file undoes each: the settings are written back as the config.json they
// came from and read by the same parser as a folder's (so every check and
// default is the same), and each tensor is listed under its Hugging Face
// name with how to read it. The forward pass then runs unchanged.
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/io/excerpt.hpp"

namespace attn::hf {
namespace {

using nlohmann::json;

// What attnviz runs, and the model_type each becomes.
const char* model_type_of(const std::string& arch) {
  if (arch == "llama") return "llama";  // Llama 2 and 3, Mistral and their fine-tunes
  if (arch == "qwen2") return "qwen2";
  if (arch == "gpt2") return "gpt2";
  if (arch == "gemma2") return "gemma2";
  return nullptr;
}

std::uint64_t required(const GgufFile& f, const std::string& key) {
  const std::optional<std::uint64_t> v = gguf_uint(f, key);
  if (!v) throw ModelError(f.what() + ": the metadata has no " + key);
  return *v;
}

// The vocabulary's size: the token embedding's rows (the token list may be
// shorter than a padded embedding), else the list's length.
std::uint64_t vocab_size(const GgufFile& f) {
  if (const GgufTensor* e = f.tensor("token_embd.weight"); e && e->dims.size() == 2) return e->dims[1];
  if (const GgufValue* tokens = f.find("tokenizer.ggml.tokens"); tokens && tokens->type == GgufValue::Type::Array)
    return tokens->count;
  throw ModelError(f.what() + ": neither token_embd.weight nor tokenizer.ggml.tokens says how many tokens there are");
}

// The config.json a Hugging Face folder of this model would have.
json config_of(const GgufFile& f, const std::string& arch, const std::string& model_type) {
  const std::string a = arch + ".";
  json c = {{"model_type", model_type}, {"vocab_size", vocab_size(f)}};
  if (arch == "gpt2") {
    c["n_embd"] = required(f, a + "embedding_length");
    c["n_layer"] = required(f, a + "block_count");
    c["n_head"] = required(f, a + "attention.head_count");
    c["n_inner"] = required(f, a + "feed_forward_length");
    c["n_positions"] = required(f, a + "context_length");
    if (auto eps = gguf_float(f, a + "attention.layer_norm_epsilon")) c["layer_norm_epsilon"] = *eps;
    return c;
  }
  if (arch == "gemma2") {
    c["hidden_activation"] = "gelu_pytorch_tanh";  // llama.cpp's gemma2 has no other
    if (auto cap = gguf_float(f, a + "attn_logit_softcapping")) c["attn_logit_softcapping"] = *cap;
    if (auto cap = gguf_float(f, a + "final_logit_softcapping")) c["final_logit_softcapping"] = *cap;
    if (auto window = gguf_uint(f, a + "attention.sliding_window")) c["sliding_window"] = *window;
    // The converter drops query_pre_attn_scalar; llama.cpp divides by
    // sqrt(head_dim), except for the 27B model (46 layers): d_model / heads.
    const std::uint64_t layers = required(f, a + "block_count");
    const std::uint64_t heads = required(f, a + "attention.head_count");
    if (layers == 46 && heads > 0)
      c["query_pre_attn_scalar"] = required(f, a + "embedding_length") / heads;
    else if (auto key_length = gguf_uint(f, a + "attention.key_length"))
      c["query_pre_attn_scalar"] = *key_length;
  } else {
    c["hidden_act"] = "silu";  // llama.cpp's llama and qwen2 have no other
  }
  c["hidden_size"] = required(f, a + "embedding_length");
  c["num_hidden_layers"] = required(f, a + "block_count");
  c["num_attention_heads"] = required(f, a + "attention.head_count");
  if (auto kv = gguf_uint(f, a + "attention.head_count_kv")) c["num_key_value_heads"] = *kv;
  c["intermediate_size"] = required(f, a + "feed_forward_length");
  c["max_position_embeddings"] = required(f, a + "context_length");
  if (auto eps = gguf_float(f, a + "attention.layer_norm_rms_epsilon")) c["rms_norm_eps"] = *eps;
  if (auto theta = gguf_float(f, a + "rope.freq_base")) c["rope_theta"] = *theta;
  if (auto key_length = gguf_uint(f, a + "attention.key_length")) c["head_dim"] = *key_length;
  c["tie_word_embeddings"] = f.tensor("output.weight") == nullptr;
  if (arch == "llama") c["attention_bias"] = f.tensor("blk.0.attn_q.bias") != nullptr;
  if (arch == "qwen2") c["use_sliding_window"] = false;
  if (auto type = gguf_string(f, a + "rope.scaling.type"); type && *type != "none") {
    json s = {{"rope_type", *type}};
    if (auto factor = gguf_float(f, a + "rope.scaling.factor")) s["factor"] = *factor;
    if (auto original = gguf_uint(f, a + "rope.scaling.original_context_length"))
      s["original_max_position_embeddings"] = *original;
    c["rope_scaling"] = s;
  }
  return c;
}

// One GGUF tensor under a Hugging Face name; nullptr when the file has none of that name.
struct Named {
  std::string hf, gguf;
  int permuted_heads = 0;
  bool stored_transposed = false;
};

std::vector<Named> names_of(const ModelConfig& m, const std::string& arch) {
  std::vector<Named> out;
  if (m.family == Family::Gpt2) {
    out = {{"wte.weight", "token_embd.weight"}, {"wpe.weight", "position_embd.weight"},
           {"ln_f.weight", "output_norm.weight"}, {"ln_f.bias", "output_norm.bias"}};
    for (int l = 0; l < m.n_layers; ++l) {
      const std::string h = "h." + std::to_string(l) + ".", b = "blk." + std::to_string(l) + ".";
      for (const char* part : {"weight", "bias"}) {
        const std::string p = part;
        const bool w = p == "weight";
        out.push_back({h + "ln_1." + p, b + "attn_norm." + p});
        out.push_back({h + "attn.c_attn." + p, b + "attn_qkv." + p, 0, w});
        out.push_back({h + "attn.c_proj." + p, b + "attn_output." + p, 0, w});
        out.push_back({h + "ln_2." + p, b + "ffn_norm." + p});
        out.push_back({h + "mlp.c_fc." + p, b + "ffn_up." + p, 0, w});
        out.push_back({h + "mlp.c_proj." + p, b + "ffn_down." + p, 0, w});
      }
    }
    return out;
  }
  // Llama's rows of Q and K were interleaved for ggml's RoPE; Qwen2's (NeoX-style) were not.
  const bool permuted = arch == "llama";
  out = {{"embed_tokens.weight", "token_embd.weight"}, {"norm.weight", "output_norm.weight"},
         {"lm_head.weight", "output.weight"}};
  for (int l = 0; l < m.n_layers; ++l) {
    const std::string h = "layers." + std::to_string(l) + ".", b = "blk." + std::to_string(l) + ".";
    out.push_back({h + "input_layernorm.weight", b + "attn_norm.weight"});
    if (m.sandwich_norms) {  // Gemma 2's four norms a layer
      out.push_back({h + "post_attention_layernorm.weight", b + "post_attention_norm.weight"});
      out.push_back({h + "pre_feedforward_layernorm.weight", b + "ffn_norm.weight"});
      out.push_back({h + "post_feedforward_layernorm.weight", b + "post_ffw_norm.weight"});
    } else {
      out.push_back({h + "post_attention_layernorm.weight", b + "ffn_norm.weight"});
    }
    for (const char* part : {"weight", "bias"}) {
      const std::string p = part;
      const bool w = p == "weight";
      out.push_back({h + "self_attn.q_proj." + p, b + "attn_q." + p, permuted && w ? m.n_heads : 0});
      out.push_back({h + "self_attn.k_proj." + p, b + "attn_k." + p, permuted && w ? m.n_kv_heads : 0});
      out.push_back({h + "self_attn.v_proj." + p, b + "attn_v." + p});
      out.push_back({h + "self_attn.o_proj." + p, b + "attn_output." + p});
      out.push_back({h + "mlp.gate_proj." + p, b + "ffn_gate." + p});
      out.push_back({h + "mlp.up_proj." + p, b + "ffn_up." + p});
      out.push_back({h + "mlp.down_proj." + p, b + "ffn_down." + p});
    }
  }
  return out;
}

TensorInfo info_of(const GgufTensor& t, const Named& n) {
  TensorInfo i;
  i.name = t.name;  // messages name the tensor as the file does
  i.dtype_name = ggml_type_name(t.type);
  switch (t.type) {
    case static_cast<std::uint32_t>(GgmlType::F32): i.dtype = DType::F32; break;
    case static_cast<std::uint32_t>(GgmlType::F16): i.dtype = DType::F16; break;
    case static_cast<std::uint32_t>(GgmlType::BF16): i.dtype = DType::BF16; break;
    default:
      if (ggml_type_traits(t.type)->dequantized) i.ggml_type = t.type;
  }
  // ggml lists the row length first; Hugging Face the rows. A transposed
  // Conv1D keeps its Hugging Face shape [in, out]: the bytes are [out, in].
  for (auto d = t.dims.rbegin(); d != t.dims.rend(); ++d) i.shape.push_back(static_cast<std::int64_t>(*d));
  if (n.stored_transposed && i.shape.size() == 2) std::swap(i.shape[0], i.shape[1]);
  i.begin = static_cast<std::size_t>(t.offset);
  i.end = static_cast<std::size_t>(t.offset + t.bytes);
  i.permuted_heads = n.permuted_heads;
  i.stored_transposed = n.stored_transposed;
  return i;
}

}  // namespace

std::shared_ptr<const Checkpoint> Checkpoint::open_gguf(const std::filesystem::path& file) {
  auto ck = std::make_shared<Checkpoint>();
  ck->dir_ = file.parent_path();
  ck->gguf_ = GgufFile::open(file);
  const GgufFile& f = *ck->gguf_;
  const std::string arch = gguf_string(f, "general.architecture").value_or("");
  const char* model_type = model_type_of(arch);
  if (!model_type)
    throw ModelError(f.what() + ": architecture " + io::quoted_excerpt(arch.empty() ? std::string("(none)") : arch) +
                     " is not one attnviz runs (llama, qwen2, gpt2 and gemma2 are)");
  try {
    ck->config_ = parse_model_config(config_of(f, arch, model_type).dump());
  } catch (const ModelError& e) {
    // The parser names config.json's keys; here they came from the metadata.
    throw ModelError(f.what() + ": its settings, read as config.json: " + e.what());
  }
  ck->config_.torch_dtype.clear();
  if (ck->config_.norm_adds_one) {  // Gemma: the converter stored each norm's weight as 1 + w
    ck->config_.norm_adds_one = false;
    ck->config_.notes.push_back("norm weights are stored as 1 + w, as llama.cpp's converter writes Gemma's");
  }
  // Llama 3.1's frequency rescaling, which llama.cpp's converter writes as
  // one factor per rotated pair rather than as settings.
  if (const GgufTensor* rf = f.tensor("rope_freqs.weight")) {
    std::vector<double>& inv = ck->config_.rope_inv_freq;
    if (rf->type != static_cast<std::uint32_t>(GgmlType::F32) || rf->elements() != inv.size())
      throw ModelError(f.what() + ": rope_freqs.weight is not " + std::to_string(inv.size()) + " F32 factors");
    for (std::size_t i = 0; i < inv.size(); ++i) {
      float factor = 0;
      std::memcpy(&factor, f.bytes(*rf) + 4 * i, 4);
      if (!(factor > 0) || !std::isfinite(factor))
        throw ModelError(f.what() + ": rope_freqs.weight's factor " + std::to_string(i) + " is not a positive number");
      inv[i] /= factor;
    }
    ck->config_.rope_type = "llama3";
    ck->config_.notes.push_back("RoPE: each pair's frequency divided by rope_freqs.weight's factor (Llama 3.1's rescaling)");
  }
  for (const Named& n : names_of(ck->config_, arch))
    if (const GgufTensor* t = f.tensor(n.gguf)) ck->gguf_tensors_.emplace(n.hf, info_of(*t, n));
  return ck;
}

}  // namespace attn::hf
