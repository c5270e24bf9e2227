// The measured float32-against-float64 gap the Model view states: the
// layer-at-a-time comparison must find the same largest difference, at the
// same weight, as comparing two whole passes kept in memory.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/forward/precision_gap.hpp"

using namespace attn::hf;

TEST_CASE("precision gap: layer by layer equals the whole-pass comparison, for every family") {
  for (const char* name : {"gpt2", "bert", "llama_gqa_bf16", "qwen2_bias_f16", "mistral_window", "llama_yarn_biases", "gemma2"}) {
    INFO("model " << name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    const std::vector<int> ids{3, 17, 42, 99, 5, 64, 7, 120};
    const std::vector<HeadRef> off{{1, 0}};
    ForwardOptions o;
    o.heads_off = off;
    const ForwardResult<float> f32 = run_forward<float>(*ck, ids, o);
    const ForwardResult<double> f64 = run_forward<double>(*ck, ids, o);
    PrecisionGap want;
    for (std::size_t l = 0; l < f64.layers.size(); ++l)
      for (std::size_t h = 0; h < f64.layers[l].attentions.size(); ++h)
        for (Eigen::Index i = 0; i < f64.layers[l].attentions[h].rows(); ++i)
          for (Eigen::Index j = 0; j < f64.layers[l].attentions[h].cols(); ++j) {
            const double d = std::abs(f32.layers[l].attentions[h](i, j) - f64.layers[l].attentions[h](i, j));
            if (want.layer < 0 || d > want.max_abs)
              want = {d, static_cast<int>(l), static_cast<int>(h), static_cast<int>(i), static_cast<int>(j), false};
          }
    const PrecisionGap got = float_precision_gap(*ck, f32, off, AblationMode::Zero);
    CHECK(got.max_abs == want.max_abs);
    CHECK(got.layer == want.layer);
    CHECK(got.head == want.head);
    CHECK(got.query == want.query);
    CHECK(got.key == want.key);
    CHECK(got.max_abs > 0);     // float32 does round
    CHECK(got.max_abs < 1e-5);  // and on these tiny models stays close
  }
}

TEST_CASE("precision gap: cancelling stops the float64 pass") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  const ForwardResult<float> f32 = run_forward<float>(*ck, {1, 2, 3});
  CHECK(float_precision_gap(*ck, f32, {}, AblationMode::Zero, [](int) { return false; }).cancelled);
}
