// Activation patching against PyTorch (tests/fixtures/why/hf_patching.json,
// make_why_fixtures.py, through make_hf_fixtures' own forwards): on the tiny
// GPT-2 and Llama, a clean prompt and one with two tokens changed, the logit
// difference with every head's output and every (layer, position) of the
// residual stream patched from the clean run. float64 within 1e-9 ×
// max(1, |torch|); float32 within 1e-3 (a logit difference of float32
// logits). Also: patching the residual stream at layer 0 at every position
// gives the clean metric back; prompts of different lengths are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/why/patching.hpp"
#include "why_fixture.hpp"

using namespace attn::hf;

namespace {

template <class S>
void check_patching(const std::string& name, const nlohmann::json& want, double tolerance) {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
  const PatchMetric metric{want.at("answer"), want.at("wrong"), want.at("position")};
  const auto clean = want.at("clean").get<std::vector<int>>(), corrupted = want.at("corrupted").get<std::vector<int>>();
  double worst = 0;
  std::string where;
  const auto see = [&](const std::string& what, double ours, double theirs) {
    const double e = std::abs(ours - theirs) / std::max(1.0, std::abs(theirs));
    if (!(e <= worst)) worst = std::isnan(e) ? 1e300 : e, where = what;
  };
  for (const auto& [site, key] : {std::pair{PatchSite::HeadOutput, "heads"}, std::pair{PatchSite::ResidualStream, "positions"}}) {
    const PatchingResult r = patch_activations<S>(*ck, clean, corrupted, metric, site);
    see("clean", r.clean, want.at("clean_metric"));
    see("corrupted", r.corrupted, want.at("corrupted_metric"));
    REQUIRE(r.patched.size() == want.at(key).size());
    for (std::size_t l = 0; l < r.patched.size(); ++l) {
      REQUIRE(r.patched[l].size() == want.at(key)[l].size());
      for (std::size_t c = 0; c < r.patched[l].size(); ++c) {
        see(std::string(key) + " layer " + std::to_string(l) + " #" + std::to_string(c), r.patched[l][c], want.at(key)[l][c]);
        CHECK(r.recovered[l][c] == doctest::Approx((r.patched[l][c] - r.corrupted) / (r.clean - r.corrupted)));
      }
    }
  }
  INFO(name, " (", precision_name<S>(), "): worst relative error ", worst, " at ", where);
  CHECK(worst <= tolerance);
}

}  // namespace

TEST_CASE("why: activation patching of every head and every stream position matches PyTorch") {
  const nlohmann::json f = why_fixture("hf_patching");
  REQUIRE(f.at("models").size() == 2);
  for (const auto& [name, want] : f.at("models").items()) {
    check_patching<double>(name, want, 1e-9);
    check_patching<float>(name, want, 1e-3);
  }
}

TEST_CASE("why: patching the whole stream at a position the prompts share changes nothing, and bad prompts are refused") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  const std::vector<int> clean = {17, 250, 3, 150, 120}, corrupted = {17, 42, 3, 150, 120};
  const PatchingResult r = patch_activations<double>(*ck, clean, corrupted, {5, 9, -1}, PatchSite::ResidualStream);
  // Layer 0's input at position 1 is all the prompts differ in: patching it brings the clean run back.
  CHECK(r.patched[0][1] == doctest::Approx(r.clean).epsilon(1e-12));
  CHECK(r.recovered[0][1] == doctest::Approx(1.0).epsilon(1e-9));
  // At position 0, before the change, the streams are equal: nothing moves.
  CHECK(r.patched[1][0] == doctest::Approx(r.corrupted).epsilon(1e-12));
  CHECK_THROWS_WITH_AS(patch_activations<double>(*ck, clean, {1, 2}, {5, 9, -1}, PatchSite::HeadOutput),
                       "the clean prompt has 5 tokens and the corrupted one 2: patching needs prompts of the same length",
                       ModelError);
  CHECK_THROWS_AS(patch_activations<double>(*ck, clean, corrupted, {5, 999999, -1}, PatchSite::HeadOutput), ModelError);
  CHECK_THROWS_WITH_AS(patch_activations<double>(*ck, clean, corrupted, {5, 5, -1}, PatchSite::HeadOutput),
                       "the right and the wrong token are both token 5, so their logit difference is 0: choose two tokens",
                       ModelError);
  // Left to the runs, the tokens are each run's top guess.
  const PatchingResult chosen = patch_activations<double>(*ck, clean, corrupted, {}, PatchSite::ResidualStream);
  const auto top = [&](const std::vector<int>& ids) {
    const ForwardResult<double> run = run_forward<double>(*ck, ids);
    return top_predictions(logits_at(*ck, run, static_cast<int>(ids.size()) - 1), 1).front().id;
  };
  CHECK(chosen.answer == top(clean));
  CHECK(chosen.wrong == top(corrupted));
  const auto bert = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/bert");
  CHECK_THROWS_AS(patch_activations<double>(*bert, {1, 2}, {1, 3}, {5, 9, -1}, PatchSite::HeadOutput), ModelError);
}
