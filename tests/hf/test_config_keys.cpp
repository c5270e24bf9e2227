// config.json keys that change the math: each is read (and gives the numbers
// transformers gives, see test_reference_forward.cpp's fixtures) or refused
// naming the key. Configs are in the layouts transformers 4 and 5 write.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/hf/model_error.hpp"

using namespace attn::hf;
using nlohmann::json;

namespace {

json llama_keys() {
  return {{"model_type", "llama"}, {"hidden_size", 32}, {"num_attention_heads", 4}, {"num_key_value_heads", 2},
          {"num_hidden_layers", 3}, {"intermediate_size", 64}, {"vocab_size", 100}, {"max_position_embeddings", 64},
          {"rms_norm_eps", 1e-5}, {"hidden_act", "silu"}, {"tie_word_embeddings", false}};
}

json gpt2_keys() {
  return {{"model_type", "gpt2"}, {"n_embd", 32}, {"n_head", 4}, {"n_layer", 3}, {"vocab_size", 100},
          {"n_positions", 64}, {"layer_norm_epsilon", 1e-5}, {"activation_function", "gelu_new"}};
}

json bert_keys() {
  return {{"model_type", "bert"}, {"hidden_size", 32}, {"num_attention_heads", 4}, {"num_hidden_layers", 2},
          {"intermediate_size", 64}, {"vocab_size", 100}, {"max_position_embeddings", 64}, {"type_vocab_size", 2},
          {"layer_norm_eps", 1e-12}, {"hidden_act", "gelu"}};
}

std::string config_refusal(const json& c) {
  try {
    parse_model_config(c.dump());
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string config_refusal(const std::string& text) {
  try {
    parse_model_config(text);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(accepted)";
}

bool has_config_note(const ModelConfig& m, const std::string& part) {
  for (const auto& n : m.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("config keys: transformers 5's rope_parameters sets theta and scaling") {
  json c = llama_keys();
  c["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 500000.0}};
  const ModelConfig m = parse_model_config(c.dump());
  CHECK(m.rope_theta == 500000.0);
  REQUIRE(m.rope_inv_freq.size() == 4);
  CHECK(m.rope_inv_freq[1] == doctest::Approx(std::pow(500000.0, -2.0 / 8)).epsilon(1e-15));
  c["rope_parameters"] = {{"rope_type", "linear"}, {"rope_theta", 10000.0}, {"factor", 4.0}};
  CHECK(parse_model_config(c.dump()).rope_inv_freq[0] == 0.25);
  // Both layouts at once must agree.
  c["rope_theta"] = 20000.0;
  CHECK(config_refusal(c).find("\"rope_theta\" = 20000.0 disagrees with rope_parameters.rope_theta = 10000.0") != std::string::npos);
}

TEST_CASE("config keys: RoPE keys the forward does not implement are refused by name") {
  json c = llama_keys();
  c["rope_parameters"] = {{"rope_type", "longrope"}, {"rope_theta", 10000.0}};
  CHECK(config_refusal(c).find("type \"longrope\" is not implemented") != std::string::npos);
  c["rope_parameters"] = {{"rope_type", "linear"}, {"rope_theta", 10000.0}, {"factor", 2.0}, {"low_freq_factor", 1.0}};
  CHECK(config_refusal(c).find("rope_parameters.low_freq_factor is not a setting of RoPE type \"linear\"") != std::string::npos);
  c.erase("rope_parameters");
  c["rope_scaling"] = {{"type", "linear"}, {"factor", 1e-308}};
  CHECK(config_refusal(c).find("rope_scaling.factor = 1e-308: must be from 1 to 1e6") != std::string::npos);
  c["rope_scaling"] = nullptr;
  c["partial_rotary_factor"] = 0.5;
  CHECK(config_refusal(c).find("\"partial_rotary_factor\" = 0.5") != std::string::npos);
  c.erase("partial_rotary_factor");
  c["rope_parameters"] = {{"full_attention", {{"rope_theta", 10000.0}}}};
  CHECK(config_refusal(c).find("rope_parameters.full_attention holds settings per kind of layer") != std::string::npos);
}

TEST_CASE("config keys: YaRN keeps fast pairs, interpolates slow ones and scales the scores") {
  json c = llama_keys();
  c["rope_parameters"] = {{"rope_type", "yarn"}, {"rope_theta", 10000.0}, {"factor", 4.0},
                          {"original_max_position_embeddings", 16}};
  const ModelConfig m = parse_model_config(c.dump());
  CHECK(m.rope_inv_freq[0] == 1.0);                                   // turns many times: kept
  CHECK(m.rope_inv_freq[3] == doctest::Approx(std::pow(10000.0, -6.0 / 8) / 4));  // turns little: divided by 4
  CHECK(m.rope_attention_factor == doctest::Approx(0.1 * std::log(4.0) + 1));
  CHECK(m.score_divisor(0) == doctest::Approx(std::sqrt(8.0) / std::pow(0.1 * std::log(4.0) + 1, 2)));
}

TEST_CASE("config keys: GPT-2's score scaling keys change the divisor") {
  json c = gpt2_keys();
  CHECK(parse_model_config(c.dump()).score_divisor(2) == doctest::Approx(std::sqrt(8.0)));
  c["scale_attn_weights"] = false;
  CHECK(parse_model_config(c.dump()).score_divisor(2) == 1.0);
  c["scale_attn_by_inverse_layer_idx"] = true;
  CHECK(parse_model_config(c.dump()).score_divisor(2) == 3.0);
  c["scale_attn_weights"] = true;
  CHECK(parse_model_config(c.dump()).score_divisor(1) == doctest::Approx(2 * std::sqrt(8.0)));
  c["reorder_and_upcast_attn"] = true;
  CHECK(has_config_note(parse_model_config(c.dump()), "reorder_and_upcast_attn"));
  c["add_cross_attention"] = true;
  CHECK(config_refusal(c).find("\"add_cross_attention\" = true") != std::string::npos);
  c = gpt2_keys();
  c["rope_theta"] = 10000;
  CHECK(config_refusal(c).find("GPT-2 has learned positions, not RoPE") != std::string::npos);
}

TEST_CASE("config keys: BERT's relative positions and decoder mode are refused") {
  json c = bert_keys();
  c["position_embedding_type"] = "relative_key";
  CHECK(config_refusal(c).find("\"position_embedding_type\" = \"relative_key\": relative positions are not implemented") !=
        std::string::npos);
  c = bert_keys();
  c["is_decoder"] = true;
  CHECK(config_refusal(c).find("\"is_decoder\" = true") != std::string::npos);
}

TEST_CASE("config keys: sliding windows per layer (Mistral, Qwen2's max_window_layers, layer_types)") {
  json c = llama_keys();
  c["model_type"] = "mistral";
  c["sliding_window"] = 4;
  ModelConfig m = parse_model_config(c.dump());
  CHECK(m.window_at(0) == 4);
  CHECK(m.window_at(2) == 4);
  c["model_type"] = "qwen2";
  CHECK(parse_model_config(c.dump()).window_at(2) == 0);  // use_sliding_window defaults to false
  c["use_sliding_window"] = true;
  c["max_window_layers"] = 1;
  m = parse_model_config(c.dump());
  CHECK(m.window_at(0) == 0);
  CHECK(m.window_at(1) == 4);
  c["layer_types"] = {"sliding_attention", "full_attention", "sliding_attention"};
  m = parse_model_config(c.dump());
  CHECK(m.window_at(0) == 4);
  CHECK(m.window_at(1) == 0);
  c["layer_types"] = {"sliding_attention", "chunked_attention", "full_attention"};
  CHECK(config_refusal(c).find("layer_types[1] = \"chunked_attention\"") != std::string::npos);
  // Left out: transformers' default of 4096 keys, said; written as null: none.
  json mistral = llama_keys();
  mistral["model_type"] = "mistral";
  m = parse_model_config(mistral.dump());
  CHECK(m.window_at(0) == 4096);
  CHECK(has_config_note(m, "sliding_window is not given: 4096"));
  mistral["sliding_window"] = nullptr;
  CHECK(parse_model_config(mistral.dump()).window_at(0) == 0);
}

TEST_CASE("config keys: Llama's biases, and keys of other families") {
  json c = llama_keys();
  c["mlp_bias"] = true;
  c["attention_bias"] = true;
  const ModelConfig m = parse_model_config(c.dump());
  CHECK(m.mlp_bias);
  CHECK(m.qkv_bias);
  CHECK(m.o_bias);
  c["model_type"] = "mistral";
  CHECK(config_refusal(c).find("\"mlp_bias\" = true: is not read by mistral") != std::string::npos);
  c = llama_keys();
  c["attn_logit_softcapping"] = 50.0;
  CHECK(config_refusal(c).find("\"attn_logit_softcapping\" = 50.0") != std::string::npos);
}

TEST_CASE("config keys: a default taken for a missing key is said") {
  json c = llama_keys();
  c.erase("rms_norm_eps");
  const ModelConfig m = parse_model_config(c.dump());
  CHECK(m.norm_eps == 1e-6);
  CHECK(has_config_note(m, "rms_norm_eps is not given: 1e-06"));
  CHECK(has_config_note(m, "rope_theta is not given"));
  CHECK_FALSE(has_config_note(parse_model_config(gpt2_keys().dump()), "layer_norm_epsilon"));
}

TEST_CASE("config keys: hostile values get one short line") {
  std::string eps = gpt2_keys().dump();
  eps.insert(1, "\"layer_norm_epsilon\": 1e400, ");
  CHECK(config_refusal(eps) == "config.json: not valid JSON (a number is too large for a double)");
  // 100,000 nested arrays where a number belongs: refused before any recursion.
  std::string deep = gpt2_keys().dump();
  deep.insert(1, "\"n_embd\": " + std::string(100000, '[') + std::string(100000, ']') + ", ");
  CHECK(config_refusal(deep).find("config.json: nested deeper than 32 levels") != std::string::npos);
  json big = gpt2_keys();
  big["model_type"] = std::string(50'000'000, 'x');
  const std::string long_type = config_refusal(big);
  CHECK(long_type.find("(50,000,000 characters)") != std::string::npos);
  CHECK(long_type.size() < 300);
  json nested = gpt2_keys();
  nested["n_head"] = json::array({json::array({1})});
  CHECK(config_refusal(nested) == "config.json: \"n_head\" must be an integer, not an array of 1 entry");
}

TEST_CASE("config keys: Gemma 2's caps, query scalar, alternating window and (1 + w) norms") {
  json c = llama_keys();
  c["model_type"] = "gemma2";
  c.erase("hidden_act");
  c.erase("tie_word_embeddings");
  c["head_dim"] = 16;
  c["hidden_activation"] = "gelu_pytorch_tanh";
  c["query_pre_attn_scalar"] = 24;
  c["attn_logit_softcapping"] = 50.0;
  c["final_logit_softcapping"] = nullptr;  // written as null: no cap
  c["sliding_window"] = 8;
  const ModelConfig m = parse_model_config(c.dump());
  CHECK(m.family == Family::Gemma2);
  CHECK(m.family_name() == "Gemma 2");
  CHECK(m.activation == Activation::GeluTanhGated);
  CHECK(m.norm_adds_one);
  CHECK(m.sandwich_norms);
  CHECK(m.tied_embeddings);  // Gemma 2's default
  CHECK(m.embed_scale == doctest::Approx(std::sqrt(32.0)).epsilon(1e-15));
  CHECK(m.score_divisor(0) == doctest::Approx(std::sqrt(24.0)).epsilon(1e-15));
  CHECK(m.attn_softcap == 50.0);
  CHECK(m.final_softcap == 0.0);
  CHECK(m.window_at(0) == 8);
  CHECK(m.window_at(1) == 0);
  CHECK(m.window_at(2) == 8);
  c.erase("query_pre_attn_scalar");
  c.erase("final_logit_softcapping");
  const ModelConfig defaults = parse_model_config(c.dump());
  CHECK(defaults.score_divisor(0) == doctest::Approx(4.0).epsilon(1e-15));  // sqrt(head_dim)
  CHECK(defaults.final_softcap == 30.0);
  c["hidden_activation"] = "silu";
  CHECK(config_refusal(c).find("hidden_activation") != std::string::npos);
  json llama = llama_keys();
  llama["attn_logit_softcapping"] = 50.0;
  CHECK(config_refusal(llama).find("attn_logit_softcapping") != std::string::npos);
}
