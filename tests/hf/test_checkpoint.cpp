// Model folders refused with one clear message each: no config.json, an
// unknown model_type, absurd sizes, a missing or misshapen tensor, a dtype
// the forward pass cannot read, a shard outside the folder or missing, only
// a pytorch_model.bin. The folders are written here in GPT-2's exact layout.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "safetensors_bytes.hpp"

using namespace attn::hf;
using namespace attn::hf::test;
using nlohmann::json;

namespace {

// GPT-2 with one layer, d 4, 2 heads, vocab 5, 8 positions.
json tiny_config() {
  return {{"model_type", "gpt2"}, {"n_embd", 4}, {"n_head", 2}, {"n_layer", 1}, {"vocab_size", 5}, {"n_positions", 8}};
}

std::vector<FakeTensor> tiny_tensors() {
  auto t = [](std::string name, std::vector<std::int64_t> shape) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.01f * static_cast<float>((i * 7) % 13) - 0.05f;
    return FakeTensor{std::move(name), "F32", std::move(shape), std::move(v)};
  };
  return {t("wte.weight", {5, 4}),          t("wpe.weight", {8, 4}),          t("h.0.ln_1.weight", {4}),
          t("h.0.ln_1.bias", {4}),          t("h.0.attn.c_attn.weight", {4, 12}), t("h.0.attn.c_attn.bias", {12}),
          t("h.0.attn.c_proj.weight", {4, 4}), t("h.0.attn.c_proj.bias", {4}), t("h.0.ln_2.weight", {4}),
          t("h.0.ln_2.bias", {4}),          t("h.0.mlp.c_fc.weight", {4, 16}), t("h.0.mlp.c_fc.bias", {16}),
          t("h.0.mlp.c_proj.weight", {16, 4}), t("h.0.mlp.c_proj.bias", {4}), t("ln_f.weight", {4}),
          t("ln_f.bias", {4})};
}

std::filesystem::path folder(const std::string& name, const json& config, const std::vector<FakeTensor>& tensors) {
  const auto dir = fresh_dir(name);
  write_file(dir / "config.json", config.dump());
  write_file(dir / "model.safetensors", safetensors_bytes(tensors));
  return dir;
}

// The message of the first ModelError opening `dir` and running 3 tokens raises, or "".
std::string refusal(const std::filesystem::path& dir) {
  try {
    const auto ck = Checkpoint::open(dir);
    run_forward<double>(*ck, {1, 2, 3});
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("checkpoint: the tiny GPT-2 folder opens and runs") {
  const auto dir = folder("ck_valid", tiny_config(), tiny_tensors());
  CHECK(refusal(dir) == "");
  const auto ck = Checkpoint::open(dir);
  CHECK(ck->config().family == Family::Gpt2);
  CHECK(ck->config().head_dim == 2);
  const auto r = run_forward<double>(*ck, {1, 2, 3, 4});
  REQUIRE(r.layers.size() == 1);
  REQUIRE(r.layers[0].attentions.size() == 2);
  CHECK(r.layers[0].attentions[0](0, 1) == 0.0);  // causal: exactly 0 above the diagonal
  CHECK(r.layers[0].attentions[1].row(3).sum() == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("checkpoint: config.json problems are named") {
  const auto tensors = tiny_tensors();
  auto with = [&](const std::string& name, auto change) {
    json c = tiny_config();
    change(c);
    return refusal(folder(name, c, tensors));
  };
  CHECK(with("ck_type", [](json& c) { c["model_type"] = "t5"; }).find("\"model_type\" = \"t5\": is not supported") !=
        std::string::npos);
  CHECK(with("ck_notype", [](json& c) { c.erase("model_type"); }).find("\"model_type\" is missing") != std::string::npos);
  CHECK(with("ck_huge", [](json& c) { c["n_embd"] = 1000000000; }).find("\"n_embd\" = 1000000000 is outside") !=
        std::string::npos);
  CHECK(with("ck_heads", [](json& c) { c["n_head"] = 3; }).find("not divisible by the 3 heads") != std::string::npos);
  CHECK(with("ck_layers", [](json& c) { c["n_layer"] = "two"; }).find("\"n_layer\" must be an integer") !=
        std::string::npos);
  const auto dir = fresh_dir("ck_badjson");
  write_file(dir / "config.json", "{\"model_type\": ");
  CHECK(refusal(dir).find("config.json: not valid JSON") != std::string::npos);
  const auto empty = fresh_dir("ck_noconfig");
  CHECK(refusal(empty).find("no config.json") != std::string::npos);
}

TEST_CASE("checkpoint: a missing, misshapen or quantized tensor is named") {
  auto tensors = tiny_tensors();
  tensors.erase(tensors.begin() + 4);  // h.0.attn.c_attn.weight
  CHECK(refusal(folder("ck_missing", tiny_config(), tensors)).find("no tensor \"h.0.attn.c_attn.weight\"") !=
        std::string::npos);
  tensors = tiny_tensors();
  tensors[6].shape = {2, 8};  // c_proj.weight: 16 values in the wrong shape
  const std::string shape = refusal(folder("ck_shape", tiny_config(), tensors));
  CHECK_MESSAGE(shape.find("\"h.0.attn.c_proj.weight\": shape [2, 8], but config.json implies [4, 4]") != std::string::npos,
                shape);
  tensors = tiny_tensors();
  const auto dir = folder("ck_i8", tiny_config(), tensors);
  // The same bytes declared as I8 (4 bytes a float = 4 int8 values each).
  json h = json::parse(safetensors_header(tensors));
  h["ln_f.bias"]["dtype"] = "I8";
  h["ln_f.bias"]["shape"] = {16};
  write_file(dir / "model.safetensors", safetensors_bytes(tensors, h.dump()));
  const std::string i8 = refusal(dir);
  CHECK_MESSAGE(i8.find("\"ln_f.bias\": dtype \"I8\" is not supported") != std::string::npos, i8);
}

TEST_CASE("checkpoint: shards stay inside the folder and must all be there") {
  const auto dir = fresh_dir("ck_shards");
  write_file(dir / "config.json", tiny_config().dump());
  auto tensors = tiny_tensors();
  const std::vector<FakeTensor> first(tensors.begin(), tensors.begin() + 8), second(tensors.begin() + 8, tensors.end());
  write_file(dir / "model-00001-of-00002.safetensors", safetensors_bytes(first));
  write_file(dir / "model-00002-of-00002.safetensors", safetensors_bytes(second));
  json index = {{"metadata", {{"total_size", 0}}}, {"weight_map", json::object()}};
  for (const auto& t : first) index["weight_map"][t.name] = "model-00001-of-00002.safetensors";
  for (const auto& t : second) index["weight_map"][t.name] = "model-00002-of-00002.safetensors";
  write_file(dir / "model.safetensors.index.json", index.dump());
  CHECK(refusal(dir) == "");
  index["weight_map"]["ln_f.bias"] = "../elsewhere.safetensors";
  write_file(dir / "model.safetensors.index.json", index.dump());
  CHECK(refusal(dir).find("\"../elsewhere.safetensors\" is not a file name in the model folder") != std::string::npos);
  index["weight_map"]["ln_f.bias"] = "model-00003-of-00003.safetensors";
  write_file(dir / "model.safetensors.index.json", index.dump());
  CHECK(refusal(dir).find("model-00003-of-00003.safetensors: missing") != std::string::npos);
  std::filesystem::remove(dir / "model.safetensors.index.json");
  write_file(dir / "pytorch_model.bin", "not read");
  CHECK(refusal(dir).find("only pytorch_model.bin is here") != std::string::npos);
}

TEST_CASE("forward: ids outside the vocabulary, too many tokens and absent heads are refused") {
  const auto ck = Checkpoint::open(folder("ck_inputs", tiny_config(), tiny_tensors()));
  auto message = [&](std::vector<int> ids, ForwardOptions o = {}) {
    try {
      run_forward<double>(*ck, ids, o);
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message({1, 5}).find("token 1 has id 5, outside the vocabulary of 5") != std::string::npos);
  CHECK(message({}).find("no tokens") != std::string::npos);
  CHECK(message(std::vector<int>(9, 1)).find("9 tokens, but this GPT-2 model has positions for 8") != std::string::npos);
  ForwardOptions off;
  off.heads_off = {{0, 2}};
  CHECK(message({1, 2}, off).find("head 0.2 does not exist") != std::string::npos);
}
