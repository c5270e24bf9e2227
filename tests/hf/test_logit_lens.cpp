// The logit lens against PyTorch (tests/fixtures/why/lens_<model>.json, made
// by tests/fixtures/make_lens_fixtures.py from each folder's float64
// reference streams): at every row (the embeddings, then after each layer)
// and position, the five most probable ids in order and their probabilities.
// Tolerance: 1e-9 per probability in float64; the float32 pass the app draws
// agrees to kFloatWeightsAgreement on the probabilities. The last row is the
// model's own next-token prediction. A failure names the worst cell.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/logit_lens.hpp"
#include "attn/hf/model_error.hpp"
#include "why_fixture.hpp"

using namespace attn::hf;

namespace {

template <class S>
void check_lens(const std::string& name, double tolerance) {
  const nlohmann::json want = why_fixture("lens_" + name);
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
  ForwardOptions o;
  o.keep_attentions = false;
  o.keep_inputs = true;
  const ForwardResult<S> r = run_forward<S>(*ck, want.at("ids").get<std::vector<int>>(), o);
  const LogitLens lens = logit_lens(*ck, r, want.at("top").get<int>());
  REQUIRE(lens.top.size() == want.at("rows").size());
  REQUIRE(lens.row_names.size() == lens.top.size());
  CHECK(lens.row_names.front() == "embeddings");
  CHECK(lens.row_names.back() == "after layer " + std::to_string(ck->config().n_layers - 1));
  double worst = 0;
  std::string where;
  int id_mismatches = 0;
  for (std::size_t row = 0; row < lens.top.size(); ++row)
    for (std::size_t t = 0; t < lens.top[row].size(); ++t)
      for (std::size_t k = 0; k < lens.top[row][t].size(); ++k) {
        const auto& theirs = want.at("rows")[row][t][k];
        const Prediction& ours = lens.top[row][t][k];
        const double gap = std::abs(ours.probability - theirs[1].get<double>());
        // An id may differ only where two probabilities tie to the tolerance.
        if (ours.id != theirs[0].get<int>() && gap > tolerance) ++id_mismatches;
        if (gap > worst) {
          worst = gap;
          where = "row " + std::to_string(row) + " position " + std::to_string(t) + " rank " + std::to_string(k);
        }
      }
  INFO(name, " (", precision_name<S>(), "): worst probability gap ", worst, " at ", where);
  CHECK(worst <= tolerance);
  CHECK(id_mismatches == 0);
  // The last row is what the model itself predicts.
  const std::vector<S> last = logits_at(*ck, r, static_cast<int>(r.ids.size()) - 1);
  CHECK(lens.top.back().back().front().id == top_predictions(last, 1).front().id);
}

}  // namespace

TEST_CASE("logit lens: every row and position's top five match PyTorch, in float64 and float32") {
  for (const char* name : {"gpt2", "llama_gqa_bf16", "qwen2_bias_f16", "mistral_window", "gemma2"}) {
    check_lens<double>(name, 1e-9);
    check_lens<float>(name, kFloatWeightsAgreement);
  }
}

TEST_CASE("logit lens: refused for a model without a next-token head, and for a pass that kept no streams") {
  const auto bert = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/bert");
  ForwardOptions o;
  o.keep_inputs = true;
  const ForwardResult<double> rb = run_forward<double>(*bert, {1, 2, 3}, o);
  CHECK_THROWS_WITH_AS(logit_lens(*bert, rb, 3), "BERT has no next-token head, so it has no logit lens", ModelError);
  const auto gpt2 = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  const ForwardResult<double> bare = run_forward<double>(*gpt2, {1, 2, 3}, ForwardOptions{});
  CHECK_THROWS_WITH_AS(logit_lens(*gpt2, bare, 3), "the forward pass kept no residual stream entering layer 1",
                       ModelError);
}
