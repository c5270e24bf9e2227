// attn::hf::direct_logit_attribution against PyTorch
// (tests/fixtures/why/hf_logit_attribution.json, make_why_fixtures.py): for
// the tiny GPT-2, Llama, Qwen2 and Mistral folders, each source's direct
// part of a next-token logit through the final norm held, within 1e-9 ×
// max(1, |torch|); the parts sum to the model's own logit within 1e-9, and
// the layers × heads map holds each head's part. A failure names the worst.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/why/logit_attribution.hpp"
#include "why_fixture.hpp"

using namespace attn::hf;

TEST_CASE("why: direct logit attribution matches PyTorch and adds up to the logit, for every causal family") {
  const nlohmann::json f = why_fixture("hf_logit_attribution");
  REQUIRE(f.at("models").size() == 4);
  for (const auto& [name, want] : f.at("models").items()) {
    INFO(name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    ForwardOptions o;
    o.keep_details = true;
    const ForwardResult<double> pass = run_forward<double>(*ck, want.at("ids").get<std::vector<int>>(), o);
    double worst = 0;
    std::string where;
    for (const auto& cell : want.at("cells")) {
      const LogitAttribution a = direct_logit_attribution(*ck, pass, cell.at("position"), cell.at("token"));
      const std::string at = "position " + std::to_string(a.position) + " token " + std::to_string(a.token);
      CHECK(a.sources == cell.at("sources").get<std::vector<std::string>>());
      REQUIRE(a.parts.size() == cell.at("parts").size());
      const auto see = [&](const std::string& what, double ours, double theirs) {
        const double e = std::abs(ours - theirs) / std::max(1.0, std::abs(theirs));
        if (!(e <= worst)) worst = std::isnan(e) ? 1e300 : e, where = what;
      };
      see(at + " logit", a.logit, cell.at("logit"));
      double sum = 0;
      for (std::size_t i = 0; i < a.parts.size(); ++i) {
        see(at + " " + a.sources[i], a.parts[i], cell.at("parts")[i]);
        sum += a.parts[i];
      }
      CHECK_MESSAGE(std::abs(sum - a.logit) <= 1e-9 * std::max(1.0, std::abs(a.logit)), at, ": parts sum to ", sum);
      // The map holds each head's own part, by name.
      for (std::size_t i = 0; i < a.sources.size(); ++i)
        for (std::size_t l = 0; l < a.heads.size(); ++l)
          for (std::size_t h = 0; h < a.heads[l].size(); ++h)
            if (a.sources[i] == "L" + std::to_string(l) + " H" + std::to_string(h)) CHECK(a.heads[l][h] == a.parts[i]);
    }
    INFO("worst relative error ", worst, " at ", where);
    CHECK(worst <= 1e-9);
  }
}

TEST_CASE("why: direct logit attribution refuses BERT, positions and tokens out of range, and a bare pass") {
  const auto bert = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/bert");
  CHECK_THROWS_WITH_AS(direct_logit_attribution(*bert, {1, 2, 3}, 2, 5),
                       "BERT has no next-token head, so no logit to attribute", ModelError);
  const auto gpt2 = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  CHECK_THROWS_WITH_AS(direct_logit_attribution(*gpt2, {1, 2, 3}, 3, 5), "position 3 is outside 0..2", ModelError);
  CHECK_THROWS_AS(direct_logit_attribution(*gpt2, {1, 2, 3}, 2, -1), ModelError);
  const ForwardResult<double> bare = run_forward<double>(*gpt2, {1, 2, 3}, ForwardOptions{});
  CHECK_THROWS_WITH_AS(direct_logit_attribution(*gpt2, bare, 2, 5),
                       "the forward pass kept no details of every layer to attribute a logit with", ModelError);
}

// Gemma 2: the parts go through the norms after attention and the MLP and
// the final (1 + w) norm, and add up to the logit before its cap.
TEST_CASE("why: Gemma 2's direct logit attribution adds up to the logit before the cap") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gemma2");
  ForwardOptions o;
  o.keep_details = true;
  const ForwardResult<double> pass = run_forward<double>(*ck, {2, 17, 40, 3, 150, 120, 64, 9, 33}, o);
  for (const int token : {5, 77, 200}) {
    const LogitAttribution a = direct_logit_attribution(*ck, pass, 8, token);
    double sum = 0;
    for (double p : a.parts) sum += p;
    INFO("token " << token << ": parts sum to " << sum << ", the logit is " << a.logit);
    CHECK(std::abs(sum - a.logit) <= 1e-9 * std::max(1.0, std::abs(a.logit)));
    // The model's own (capped) logit is the cap applied to this one.
    const std::vector<double> capped = logits_at(*ck, pass, 8);
    CHECK(std::abs(capped[static_cast<std::size_t>(token)] - 3.0 * std::tanh(a.logit / 3.0)) <= 1e-12);
  }
}
