// GGUF models as Checkpoints: the files tests/fixtures/make_gguf_fixtures.py
// converts from the tiny Hugging Face folders the way llama.cpp does (its
// names, its metadata, Llama's permuted rows of Q and K, GPT-2's transposed
// Conv1D weights). In F32 every attention weight equals the folder's; in
// Q8_0 and Q4_K they move by a bounded amount, reported per head.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iomanip>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"

using namespace attn::hf;

namespace {

const std::string kGguf = std::string(ATTN_HF_DATA_DIR) + "/../gguf/";
const std::string kHf = std::string(ATTN_HF_DATA_DIR) + "/";

struct Worst {
  double diff = 0;
  int layer = -1, head = -1;
  Eigen::Index row = -1, col = -1;
  double mean = 0;  // over every query's visible keys
};

// The largest difference between two passes' attention weights, and where.
Worst worst_attention(const ForwardResult<double>& a, const ForwardResult<double>& b) {
  Worst w;
  double sum = 0;
  long count = 0;
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t l = 0; l < a.layers.size(); ++l)
    for (std::size_t h = 0; h < a.layers[l].attentions.size(); ++h) {
      const AttentionMap<double>& x = a.layers[l].attentions[h];
      const AttentionMap<double>& y = b.layers[l].attentions[h];
      REQUIRE(x.rows() == y.rows());
      for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (Eigen::Index c = 0; c <= std::min(r, x.cols() - 1); ++c) {
          const double d = std::abs(x(r, c) - y(r, c));
          sum += d;
          ++count;
          if (d > w.diff) w = {d, static_cast<int>(l), static_cast<int>(h), r, c, 0};
        }
    }
  w.mean = count ? sum / static_cast<double>(count) : 0;
  return w;
}

std::vector<int> some_ids(int vocab, int n) {
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) ids.push_back((i * 37 + 11) % vocab);
  return ids;
}

}  // namespace

// Gemma's converter stores each norm weight as the float32 1 + w, which
// rounds w's last bits away (w ~ 0.1: up to 6e-8 of the scale): its F32 file
// agrees with its folder to 1e-6 rather than 1e-9.
TEST_CASE("gguf models: an F32 GGUF of each architecture runs the folder's forward, every attention weight within 1e-9") {
  struct Pair {
    std::string gguf, folder;
    double tolerance;
  };
  for (const auto& [gguf, folder, tolerance] :
       std::vector<Pair>{{"llama_f32.gguf", "llama_rope_parameters", 1e-9}, {"qwen2_f32.gguf", "qwen2_bias_f16", 1e-9},
                         {"gpt2_f32.gguf", "gpt2", 1e-9}, {"gemma2_f32.gguf", "gemma2", 1e-6}}) {
    CAPTURE(gguf);
    const auto g = Checkpoint::open(kGguf + gguf);
    const auto f = Checkpoint::open(kHf + folder);
    REQUIRE(g->gguf() != nullptr);
    const ModelConfig &a = g->config(), &b = f->config();
    CHECK(a.family == b.family);
    CHECK(a.n_layers == b.n_layers);
    CHECK(a.n_heads == b.n_heads);
    CHECK(a.n_kv_heads == b.n_kv_heads);
    CHECK(a.head_dim == b.head_dim);
    CHECK(a.d_ff == b.d_ff);
    CHECK(a.vocab == b.vocab);
    CHECK(a.qkv_bias == b.qkv_bias);
    CHECK(a.tied_embeddings == b.tied_embeddings);
    CHECK(a.activation == b.activation);
    CHECK(a.sandwich_norms == b.sandwich_norms);
    CHECK(a.embed_scale == b.embed_scale);
    CHECK(a.attn_softcap == doctest::Approx(b.attn_softcap).epsilon(1e-7));
    CHECK(a.final_softcap == doctest::Approx(b.final_softcap).epsilon(1e-7));
    CHECK(a.windowed_layers == b.windowed_layers);
    CHECK(a.sliding_window == b.sliding_window);
    for (int l = 0; l < a.n_layers; ++l) CHECK(a.score_divisor(l) == doctest::Approx(b.score_divisor(l)).epsilon(1e-12));
    REQUIRE(a.rope_inv_freq.size() == b.rope_inv_freq.size());
    for (std::size_t i = 0; i < a.rope_inv_freq.size(); ++i) CHECK(a.rope_inv_freq[i] == doctest::Approx(b.rope_inv_freq[i]).epsilon(1e-12));
    const std::vector<int> ids = some_ids(a.vocab, 12);
    const ForwardResult<double> rg = run_forward<double>(*g, ids), rf = run_forward<double>(*f, ids);
    const Worst w = worst_attention(rg, rf);
    CHECK_MESSAGE(w.diff <= tolerance, gguf << ": worst attention difference " << w.diff << " at layer " << w.layer
                                              << ", head " << w.head << ", query " << w.row << ", key " << w.col);
    // The next-token guess too: the final state through the output head.
    CHECK((rg.final - rf.final).cwiseAbs().maxCoeff() <= tolerance);
  }
}

// Tiny models of 8-wide heads are touchy: their worst weight moved 0.012 to
// 0.019 when these fixtures were made.
TEST_CASE("gguf models: Q8_0 moves each attention weight by at most 0.05 from F32") {
  for (const std::string arch : {"llama", "qwen2", "gpt2", "gemma2"}) {
    CAPTURE(arch);
    const auto q = Checkpoint::open(kGguf + arch + "_q8_0.gguf");
    const auto f = Checkpoint::open(kGguf + arch + "_f32.gguf");
    const std::vector<int> ids = some_ids(q->config().vocab, 12);
    const Worst w = worst_attention(run_forward<double>(*q, ids), run_forward<double>(*f, ids));
    MESSAGE(arch << " Q8_0: worst attention difference " << std::setprecision(3) << w.diff << " (layer " << w.layer
                 << ", head " << w.head << ", query " << w.row << ", key " << w.col << "), mean " << w.mean);
    CHECK(w.diff > 0);  // quantized: not the same weights
    CHECK(w.diff <= 0.05);
  }
}

TEST_CASE("gguf models: a Q4_K_M model opens (Q4_K and Q6_K blocks) and its attention moves from F16 by a reported amount") {
  const auto q = Checkpoint::open(kGguf + "wide_q4_k.gguf");
  const auto f = Checkpoint::open(kGguf + "wide_f16.gguf");
  CHECK(q->config().d_model == 256);
  const std::vector<int> ids = some_ids(q->config().vocab, 16);
  const Worst w = worst_attention(run_forward<double>(*q, ids), run_forward<double>(*f, ids));
  MESSAGE("Q4_K_M against F16: worst attention difference " << std::setprecision(3) << w.diff << " (layer " << w.layer
                                                              << ", head " << w.head << ", query " << w.row << ", key " << w.col
                                                              << "), mean " << w.mean);
  // Sharp heads (Q scaled up) can swap their top key: the worst weight may
  // move far; the typical one moves little.
  CHECK(w.diff > 0.001);
  CHECK(w.mean > 0);
  CHECK(w.mean < 0.1);  // 0.039 when the fixtures were made
}

TEST_CASE("gguf models: an architecture attnviz does not run is refused by name") {
  try {
    Checkpoint::open(kGguf + "blocks.gguf");
    FAIL("opened");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("architecture \"attnviz-blocks\" is not one attnviz runs") != std::string::npos);
  }
}

TEST_CASE("gguf models: a tensor in a type attnviz does not read (IQ2_XXS) is refused, naming the tensor and its type") {
  // wide_f16.gguf with blk.0.attn_q.weight's type changed to IQ2_XXS (its
  // rows of 256 are whole blocks, and the smaller size still fits).
  std::ifstream in(kGguf + "wide_f16.gguf", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string name = "blk.0.attn_q.weight";
  const std::size_t at = bytes.find(name);
  REQUIRE(at != std::string::npos);
  const std::size_t type_at = at + name.size() + 4 + 2 * 8;  // after the dimension count and two dimensions
  REQUIRE(static_cast<unsigned char>(bytes[type_at]) == 1);  // F16
  bytes[type_at] = 16;                                       // IQ2_XXS
  std::filesystem::create_directories(ATTN_HF_TEST_TMP);
  const std::string path = std::string(ATTN_HF_TEST_TMP) + "/iq2.gguf";
  std::ofstream(path, std::ios::binary) << bytes;
  const auto ck = Checkpoint::open(path);
  try {
    run_forward<double>(*ck, {1, 2, 3});
    FAIL("ran");
  } catch (const ModelError& e) {
    const std::string message = e.what();
    CHECK(message.find("blk.0.attn_q.weight") != std::string::npos);
    CHECK(message.find("IQ2_XXS") != std::string::npos);
  }
}

// The four architectures' files carry their own vocabularies: byte-level BPE
// (llama, qwen2, gpt2) and Gemma's SentencePiece pieces with scores. Each
// file's tokenizer gives the ids of its folder's tokenizer.json.
TEST_CASE("gguf models: each model file's own tokenizer gives its folder's tokenizer.json ids") {
  const std::vector<std::string> texts{"The quick brown fox", "  two  spaces\tand a tab\n", "Café Zürich 2024, déjà vu",
                                       "<start_of_turn>user hello<end_of_turn>", "日本語 🙂", ""};
  for (const auto& [gguf, folder] : std::vector<std::pair<std::string, std::string>>{
           {"llama_f32.gguf", "llama_rope_parameters"}, {"qwen2_q8_0.gguf", "qwen2_bias_f16"}, {"gpt2_f32.gguf", "gpt2"},
           {"gemma2_q8_0.gguf", "gemma2"}}) {
    CAPTURE(gguf);
    const attn::hf::Tokenizer from_file = attn::hf::Tokenizer::load_folder(kGguf + gguf);
    const attn::hf::Tokenizer from_folder = attn::hf::Tokenizer::load_folder(kHf + folder);
    for (const std::string& text : texts) {
      CAPTURE(text);
      CHECK(from_file.encode(text) == from_folder.encode(text));
    }
  }
}
