// A pass resumed from a kept residual stream (resume_forward) against the
// same pass run from the embeddings: the Model view shares the layers before
// the first switched-off head between its passes only because the two give
// the same bits, so the tolerance here is 0, for every family and layer.
#include <doctest/doctest.h>

#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/forward/layer_scene.hpp"
#include "attn/hf/model_error.hpp"

using namespace attn::hf;

namespace {

const char* const kResumeFamilies[] = {"gpt2", "bert", "llama_gqa_bf16", "qwen2_bias_f16", "mistral_window",
                                       "llama_yarn_biases"};

// The largest |a - b| and where it is, for a message when it is not 0.
template <class M>
std::string bit_difference(const M& a, const M& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return "shapes differ";
  double worst = -1;
  Eigen::Index wi = 0, wj = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const double d = std::abs(static_cast<double>(a(i, j)) - static_cast<double>(b(i, j)));
      if (d > worst) worst = d, wi = i, wj = j;
    }
  return worst == 0 || a.size() == 0 ? "" : "differs by " + std::to_string(worst) + " at (" + std::to_string(wi) + ", " +
                                                std::to_string(wj) + ")";
}

template <class S>
void check_resumed_equals_fresh(const Checkpoint& ck, const std::vector<int>& ids, AblationMode mode) {
  ForwardOptions keep;
  keep.keep_inputs = true;
  const ForwardResult<S> all_on = run_forward<S>(ck, ids, keep);
  for (int l = 0; l < ck.config().n_layers; ++l) {
    INFO("resumed at layer " << l << ", " << precision_name<S>());
    ForwardOptions off;
    off.heads_off = {{l, 0}};
    off.mode = mode;
    const ForwardResult<S> fresh = run_forward<S>(ck, ids, off);
    const ForwardResult<S> resumed = resume_forward<S>(ck, all_on, l, off);
    CHECK(resumed.first_layer == l);
    REQUIRE(resumed.layers.size() == fresh.layers.size());
    for (std::size_t k = 0; k < static_cast<std::size_t>(l); ++k) CHECK(resumed.layers[k].attentions.empty());
    for (std::size_t k = static_cast<std::size_t>(l); k < fresh.layers.size(); ++k)
      for (std::size_t h = 0; h < fresh.layers[k].attentions.size(); ++h) {
        INFO("layer " << k << " head " << h);
        CHECK(bit_difference(resumed.layers[k].attentions[h], fresh.layers[k].attentions[h]) == "");
      }
    CHECK(bit_difference(resumed.final, fresh.final) == "");
  }
}

}  // namespace

TEST_CASE("resume_forward from a kept input gives the fresh pass's bits for every family and layer") {
  const std::vector<int> ids{3, 17, 42, 99, 5, 64, 7, 120, 11, 2};
  for (const char* name : kResumeFamilies) {
    INFO("model " << name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    check_resumed_equals_fresh<float>(*ck, ids, AblationMode::Zero);
    check_resumed_equals_fresh<double>(*ck, ids, AblationMode::Mean);
  }
}

TEST_CASE("a layer's scene cut from a pass that kept only inputs equals the scene of a pass with details") {
  const std::vector<int> ids{3, 17, 42, 99, 5, 64, 7, 120};
  for (const char* name : kResumeFamilies) {
    INFO("model " << name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    ForwardOptions inputs;
    inputs.keep_inputs = true;
    inputs.keep_attentions = false;
    const ForwardResult<double> kept = run_forward<double>(*ck, ids, inputs);
    for (int l = 0; l < ck->config().n_layers; ++l) {
      INFO("layer " << l);
      ForwardOptions details;
      details.keep_details = true;
      details.stop_after_layer = l;
      const ForwardResult<double> full = run_forward<double>(*ck, ids, details);
      CHECK(bit_difference(layer_scene(*ck, kept, l, {}).scenario.x, layer_scene(*ck, full, l, {}).scenario.x) == "");
      CHECK(bit_difference(kept.layers[static_cast<std::size_t>(l)].input, full.layers[static_cast<std::size_t>(l)].input) ==
            "");
    }
  }
}

TEST_CASE("resume_forward refuses a head switched off before the layer it starts at and a pass without inputs") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  const std::vector<int> ids{3, 17, 42};
  ForwardOptions keep;
  keep.keep_inputs = true;
  const ForwardResult<float> kept = run_forward<float>(*ck, ids, keep);
  ForwardOptions off;
  off.heads_off = {{0, 1}};
  CHECK_THROWS_AS(resume_forward<float>(*ck, kept, 1, off), ModelError);
  CHECK_NOTHROW(resume_forward<float>(*ck, kept, 0, off));
  const ForwardResult<float> bare = run_forward<float>(*ck, ids);
  CHECK_THROWS_AS(resume_forward<float>(*ck, bare, 1, {}), ModelError);
}
