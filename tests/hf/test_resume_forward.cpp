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
                                       "llama_yarn_biases", "gemma2"};

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

// `check` on each family's checkpoint, the family named in its messages.
template <class F>
void for_every_family(F&& check) {
  for (const char* name : kResumeFamilies) {
    INFO("model " << name);
    check(*Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name));
  }
}

const std::vector<int> kTenIds{3, 17, 42, 99, 5, 64, 7, 120, 11, 2};

TEST_CASE("final_row: one position's final state equals that row of the whole pass, for every family") {
  for_every_family([](const Checkpoint& ck) {
    check_final_row<float>(ck, kTenIds, 1e-5);
    check_final_row<double>(ck, kTenIds, 1e-12);
    ForwardOptions outside;
    outside.final_row = static_cast<int>(kTenIds.size());
    CHECK_THROWS_WITH_AS(run_forward<float>(ck, kTenIds, outside), doctest::Contains("outside the text"), ModelError);
  });
}

// Passes resumed together (resume_forward_batch) against each resumed
// alone: the same numbers up to the order of sums (1e-12 relative in
// float64, 1e-5 in float32), whatever each pass's input and patches, with
// and without final_row.
template <class S>
void check_batch_equals_single(const Checkpoint& ck, const std::vector<int>& ids, double tolerance) {
  const ModelConfig& c = ck.config();
  ForwardOptions keep;
  keep.keep_inputs = true;
  keep.keep_details = true;
  keep.keep_attentions = false;
  const ForwardResult<S> kept = run_forward<S>(ck, ids, keep);
  const int layer = c.n_layers - 1 > 0 ? 1 : 0;
  const MatX<S>& in = kept.layers[static_cast<std::size_t>(layer)].input;
  // Pass 0 as kept; pass 1 with one row changed; pass 2 with a head patched.
  std::vector<MatX<S>> inputs{in, in, in};
  inputs[1].row(3) *= S(0.5);
  std::vector<std::vector<HeadPatch>> patches(3);
  const Eigen::MatrixXd noise = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(ids.size()), c.head_dim, 0.25);
  patches[2].push_back({{layer, c.n_heads - 1}, std::make_shared<const Eigen::MatrixXd>(noise)});
  for (int final_row : {-1, 5}) {
    INFO("final_row " << final_row << ", " << precision_name<S>());
    ForwardOptions o;
    o.keep_attentions = false;
    o.final_row = final_row;
    const std::vector<MatX<S>> batch = resume_forward_batch<S>(ck, ids, layer, inputs, patches, o);
    REQUIRE(batch.size() == 3);
    for (std::size_t b = 0; b < 3; ++b) {
      ForwardResult<S> start{ids, kept.embeddings, {}, {}, false, 0};
      start.layers.resize(static_cast<std::size_t>(layer) + 1);
      start.layers[static_cast<std::size_t>(layer)].input = inputs[b];
      ForwardOptions one = o;
      one.patches = patches[b];
      const MatX<S> want = resume_forward<S>(ck, start, layer, one).final;
      INFO("pass " << b);
      REQUIRE(batch[b].rows() == want.rows());
      const MatX<double> gap = (batch[b].template cast<double>() - want.template cast<double>()).cwiseAbs();
      Eigen::Index wi = 0, wj = 0;
      const double worst = gap.maxCoeff(&wi, &wj);
      INFO("worst (" << wi << ", " << wj << "): " << batch[b](wi, wj) << " against " << want(wi, wj));
      CHECK(worst <= tolerance * std::max(1.0, want.template cast<double>().cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("resume_forward_batch: passes resumed together equal each resumed alone, for every family") {
  for_every_family([](const Checkpoint& ck) {
    check_batch_equals_single<float>(ck, kTenIds, 1e-5);
    check_batch_equals_single<double>(ck, kTenIds, 1e-12);
  });
}

TEST_CASE("resume_forward_batch refuses what it cannot do, naming it") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  const std::vector<int> ids{3, 17, 42, 99};
  ForwardOptions keep;
  keep.keep_inputs = true;
  const ForwardResult<float> kept = run_forward<float>(*ck, ids, keep);
  const MatX<float>& in = kept.layers[1].input;
  ForwardOptions o;
  o.keep_attentions = false;
  CHECK_THROWS_WITH_AS(resume_forward_batch<float>(*ck, ids, 1, {in}, {}, o), doctest::Contains("one input and one list"),
                       ModelError);
  CHECK_THROWS_WITH_AS(resume_forward_batch<float>(*ck, ids, 1, {MatX<float>(in.topRows(3))}, {{}}, o),
                       doctest::Contains("pass 0's input is not 4 x"), ModelError);
  const auto patch = std::make_shared<const Eigen::MatrixXd>(Eigen::MatrixXd::Zero(4, ck->config().head_dim));
  CHECK_THROWS_WITH_AS(resume_forward_batch<float>(*ck, ids, 1, {in}, {{{{0, 1}, patch}}}, o),
                       doctest::Contains("patched before layer 1"), ModelError);
  ForwardOptions kept_maps;
  CHECK_THROWS_WITH_AS(resume_forward_batch<float>(*ck, ids, 1, {in}, {{}}, kept_maps), doctest::Contains("keeps nothing"),
                       ModelError);
}
