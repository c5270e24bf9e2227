// `attn model` run as a user runs it, on the committed tiny checkpoints
// (tests/data/hf): info names the family and tokenizer, tokens prints one id
// and piece a line, attention writes the weights PyTorch computed (held to
// the fixture's float64 reference at 1e-9, masked entries exactly 0), scene
// writes a scenario whose trace gives the same weights, and bad input exits
// 2 with one line naming what is wrong.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "attn/io/scenario_file.hpp"
#include "attn/compute/trace.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

const std::string kModels = std::string(ATTN_CLI_DATA_DIR) + "/../../data/hf";

json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

std::string ids_text(const json& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ",") + std::to_string(id.get<int>());
  return s;
}

std::string scratch(const std::string& name) {
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  return std::string(ATTN_CLI_TEST_TMP) + "/" + name;
}

}  // namespace

TEST_CASE("attn model info names the family, the shapes and the tokenizer") {
  const auto r = run_attn({"model", "info", kModels + "/llama_gqa_bf16"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("family:      Llama (model_type \"llama\")") != std::string::npos);
  CHECK(r.out.find("4 of width 8, 2 key/value heads (grouped-query)") != std::string::npos);
  CHECK(r.out.find("BF16") != std::string::npos);
  CHECK(r.out.find("tokenizer:   BPE, byte-level") != std::string::npos);
}

TEST_CASE("attn model tokens prints each id and its piece, special tokens included") {
  const auto r = run_attn({"model", "tokens", kModels + "/bert", "--text", "the quick fox"});
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("2\t[CLS]\n", 0) == 0);
  CHECK(r.out.find("\tquick\n") != std::string::npos);
  REQUIRE(r.out.size() >= 8);
  CHECK(r.out.substr(r.out.size() - 8) == "3\t[SEP]\n");
}

TEST_CASE("attn model attention writes PyTorch's weights, [layer][head][query][key]") {
  for (const char* name : {"gpt2", "bert", "mistral_window"}) {
    INFO(name);
    const json ref = read_json(kModels + "/" + name + "/reference.json");
    const std::string out = scratch(std::string("attention_") + name + ".json");
    const auto r = run_attn({"model", "attention", kModels + "/" + name, "--ids", ids_text(ref["ids"]), "-o", out});
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const json got = read_json(out);
    CHECK(got["ids"] == ref["ids"]);
    REQUIRE(got["tokens"].size() == ref["ids"].size());
    REQUIRE(got["attentions"].size() == ref["layers"].size());
    double worst = 0;
    for (std::size_t l = 0; l < ref["layers"].size(); ++l)
      for (std::size_t h = 0; h < ref["layers"][l]["attentions"].size(); ++h)
        for (std::size_t i = 0; i < ref["ids"].size(); ++i)
          for (std::size_t j = 0; j < ref["ids"].size(); ++j) {
            const double want = ref["layers"][l]["attentions"][h][i][j].get<double>();
            const double have = got["attentions"][l][h][i][j].get<double>();
            if (want == 0) CHECK(have == 0.0);  // masked: exactly 0
            worst = std::max(worst, std::abs(want - have));
          }
    CHECK(worst <= 1e-9);
  }
}

TEST_CASE("attn model scene writes a layer whose trace gives the model's weights") {
  const json ref = read_json(kModels + "/qwen2_bias_f16/reference.json");
  const std::string out = scratch("qwen2_scene.json");
  const auto r = run_attn({"model", "scene", kModels + "/qwen2_bias_f16", "--ids", ids_text(ref["ids"]), "--layer", "1",
                           "--head", "2", "-o", out});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto file = attn::io::load_scenario(out);
  CHECK(file.app["view"]["head"] == 2);
  CHECK(file.description.find("constant 1") != std::string::npos);  // Qwen2's q/k/v biases
  const attn::Trace t = attn::compute_trace(file.scenario);
  const attn::Stage* w = t.find(attn::StageKind::weights, 2);
  REQUIRE(w);
  double worst = 0;
  for (Eigen::Index i = 0; i < w->value.rows(); ++i)
    for (Eigen::Index j = 0; j < w->value.cols(); ++j)
      worst = std::max(worst, std::abs(w->value(i, j) - ref["layers"][1]["attentions"][2][static_cast<std::size_t>(i)]
                                                            [static_cast<std::size_t>(j)].get<double>()));
  CHECK(worst <= 1e-9);
}

TEST_CASE("attn model: bad input exits 2 with one line naming the problem") {
  auto refused = [](std::vector<std::string> args, const std::string& words) {
    const auto r = run_attn(args);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(words) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  refused({"model", "info", kModels + "/no_such_model"}, "no such folder or file");
  refused({"model", "info", kModels + "/gpt2/config.json"}, "not a GGUF file");
  refused({"model", "info", std::string(ATTN_CLI_DATA_DIR)}, "no config.json");
  refused({"model", "attention", kModels + "/gpt2", "--ids", "1,99999", "-o", scratch("x.json")},
          "token 1 has id 99999, outside the vocabulary of 320");
  refused({"model", "attention", kModels + "/gpt2", "--ids", "1,x", "-o", scratch("x.json")}, "--ids: \"x\" is not a token id");
  refused({"model", "scene", kModels + "/gpt2", "--text", "hi", "--layer", "7", "-o", scratch("x.json")},
          "layer 7 is out of range");
  refused({"model", "attention", kModels + "/gpt2", "-o", scratch("x.json")}, "give the text to run the model on");
}

namespace {

// The largest difference between a reference.json's attention weights and
// those `attn model attention -o` wrote.
double worst_attention_difference(const json& ref, const json& got) {
  double worst = 0;
  for (std::size_t l = 0; l < ref["layers"].size(); ++l)
    for (std::size_t h = 0; h < ref["layers"][l]["attentions"].size(); ++h)
      for (std::size_t i = 0; i < ref["ids"].size(); ++i)
        for (std::size_t j = 0; j < ref["ids"].size(); ++j)
          worst = std::max(worst, std::abs(ref["layers"][l]["attentions"][h][i][j].get<double>() -
                                           got["attentions"][l][h][i][j].get<double>()));
  return worst;
}

}  // namespace

// The same commands on a GGUF file: info lists its ggml types with their
// bytes, tokens reads the file's own tokenizer, attention gives the weights
// PyTorch computed for the folder it was converted from (F32: within 1e-9),
// and -o over the GGUF itself is refused.
TEST_CASE("attn model on a GGUF file: info lists the types and their bytes, tokens and attention as for the folder") {
  const std::string gguf = std::string(ATTN_CLI_DATA_DIR) + "/../../data/gguf/";
  const auto info = run_attn({"model", "info", gguf + "wide_q4_k.gguf"});
  REQUIRE_MESSAGE(info.status == 0, info.err);
  CHECK(info.out.find("Q4_K (671744 weights, ") != std::string::npos);
  CHECK(info.out.find("Q6_K (278528 weights, ") != std::string::npos);
  CHECK(info.out.find("files:       wide_q4_k.gguf (") != std::string::npos);
  CHECK(info.out.find("note:") == std::string::npos);  // every setting came from the metadata
  const auto tokens = run_attn({"model", "tokens", gguf + "llama_f32.gguf", "--text", "the theme"});
  REQUIRE(tokens.status == 0);
  CHECK(tokens.out == run_attn({"model", "tokens", kModels + "/llama_rope_parameters", "--text", "the theme"}).out);
  const json ref = read_json(kModels + "/gpt2/reference.json");
  const std::string out = scratch("attention_gpt2_gguf.json");
  const auto r = run_attn({"model", "attention", gguf + "gpt2_f32.gguf", "--ids", ids_text(ref["ids"]), "-o", out});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const json got = read_json(out);
  const double worst = worst_attention_difference(ref, got);
  CHECK_MESSAGE(worst <= 1e-9, "worst difference from PyTorch's " << worst);
  const auto over = run_attn({"model", "attention", gguf + "gpt2_f32.gguf", "--ids", "1,2", "-o", gguf + "gpt2_f32.gguf"});
  CHECK(over.status == 2);
}

TEST_CASE("attn model quant: a Q4_K_M GGUF beside its F16 prints each head's divergence, and JSON with the worst rows") {
  const std::string gguf = std::string(ATTN_CLI_DATA_DIR) + "/../../data/gguf/";
  const auto table = run_attn({"model", "quant", gguf + "wide_q4_k.gguf", "--beside", gguf + "wide_f16.gguf", "--text",
                               "the theme of the thesis"});
  REQUIRE_MESSAGE(table.status == 0, table.err);
  CHECK(table.out.find("L1") != std::string::npos);
  CHECK(table.out.find("The most moved row: layer ") != std::string::npos);
  const auto j = run_attn({"model", "quant", gguf + "wide_q4_k.gguf", "--beside", gguf + "wide_f16.gguf", "--text",
                           "the theme of the thesis", "--json"});
  REQUIRE(j.status == 0);
  const json q = json::parse(j.out);
  CHECK(q["format"] == "attnviz-quant");
  REQUIRE(q["heads"].size() == 8);
  for (const json& h : q["heads"]) {
    CHECK(h["mean_bits"].get<double>() >= 0);
    CHECK(h["mean_bits"].get<double>() <= h["worst_bits"].get<double>());
    CHECK(h["worst_bits"].get<double>() <= 1);
  }
  // Two different models are refused in one line.
  const auto other = run_attn({"model", "quant", gguf + "wide_q4_k.gguf", "--beside", gguf + "llama_f32.gguf", "--ids", "1,2"});
  CHECK(other.status == 2);
  CHECK(other.err.find("not the same model") != std::string::npos);
}

// Gemma 2 from its GGUF: info names the family and its caps, tokens reads
// its SentencePiece vocabulary as the folder's tokenizer.json does, and the
// attention is PyTorch's for the folder (F32, whose norm weights the
// converter rounded as 1 + w: within 1e-6).
TEST_CASE("attn model on Gemma 2's GGUF: the family, its tokens and its attention") {
  const std::string gguf = std::string(ATTN_CLI_DATA_DIR) + "/../../data/gguf/";
  const auto info = run_attn({"model", "info", gguf + "gemma2_f32.gguf"});
  REQUIRE_MESSAGE(info.status == 0, info.err);
  CHECK(info.out.find("Gemma 2") != std::string::npos);
  CHECK(info.out.find("scores divided by sqrt(16), then soft-capped at 2; next-token scores capped at 3") != std::string::npos);
  const auto tokens = run_attn({"model", "tokens", gguf + "gemma2_f32.gguf", "--text", "Hello world, déjà vu"});
  REQUIRE_MESSAGE(tokens.status == 0, tokens.err);
  CHECK(tokens.out == run_attn({"model", "tokens", kModels + "/gemma2", "--text", "Hello world, déjà vu"}).out);
  const json ref = read_json(kModels + "/gemma2/reference.json");
  const std::string out = scratch("attention_gemma2_gguf.json");
  const auto r = run_attn({"model", "attention", gguf + "gemma2_f32.gguf", "--ids", ids_text(ref["ids"]), "-o", out});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const json got = read_json(out);
  const double worst = worst_attention_difference(ref, got);
  MESSAGE("Gemma 2 GGUF against PyTorch's folder: worst attention difference " << worst);
  CHECK(worst <= 1e-6);
}
