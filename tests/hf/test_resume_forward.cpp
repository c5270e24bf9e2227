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

// final_row computes the last layer for one query: the state it leaves must
// be that row of the whole pass. Not bit for bit (a one-row product may sum
// in another order): within 1e-12 relative in float64, 1e-5 in float32.
template <class S>
void check_final_row(const Checkpoint& ck, const std::vector<int>& ids, double tolerance) {
  const ForwardResult<S> whole = run_forward<S>(ck, ids, {});
  const bool applies = ck.config().causal && ck.config().pre_norm;
  for (int p : {0, 4, static_cast<int>(ids.size()) - 1}) {
    INFO("position " << p << ", " << precision_name<S>());
    ForwardOptions one;
    one.final_row = p;
    const ForwardResult<S> row = run_forward<S>(ck, ids, one);
    REQUIRE(row.final.rows() == (applies ? 1 : whole.final.rows()));
    const auto got = row.final.row(applies ? 0 : p).template cast<double>();
    const auto want = whole.final.row(p).template cast<double>();
    Eigen::Index worst = 0;
    const double gap = (got - want).cwiseAbs().maxCoeff(&worst);
    INFO("worst column " << worst << ": " << got(worst) << " against " << want(worst));
    CHECK(gap <= tolerance * std::max(1.0, want.cwiseAbs().maxCoeff()));
  }
  // A head of the last layer switched off (its mean needs every row): the whole pass.
  ForwardOptions off;
  off.final_row = 2;
  off.heads_off = {{ck.config().n_layers - 1, 0}};
  off.mode = AblationMode::Mean;
  CHECK(run_forward<S>(ck, ids, off).final.rows() == static_cast<Eigen::Index>(ids.size()));
}

TEST_CASE("final_row: one position's final state equals that row of the whole pass, for every family") {
  const std::vector<int> ids{3, 17, 42, 99, 5, 64, 7, 120, 11, 2};
  for (const char* name : kResumeFamilies) {
    INFO("model " << name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    check_final_row<float>(*ck, ids, 1e-5);
    check_final_row<double>(*ck, ids, 1e-12);
    ForwardOptions outside;
    outside.final_row = static_cast<int>(ids.size());
    CHECK_THROWS_WITH_AS(run_forward<float>(*ck, ids, outside), doctest::Contains("outside the text"), ModelError);
  }
}
