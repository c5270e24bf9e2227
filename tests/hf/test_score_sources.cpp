// attn::hf::split_score_by_source against PyTorch
// (tests/fixtures/why/hf_source_split.json, from make_why_fixtures.py): a
// layer-1 score of the tiny GPT-2, Llama (grouped-query), Qwen2 (q/k/v
// biases) and Mistral (sliding window) folders split over (query source,
// key source) with the layer's norm held. Every pair's part within 1e-9 ×
// max(1, |torch|), the sources named in torch's order, and the parts adding
// up to the forward's own score within 1e-9. A failure names the worst part.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/why/score_sources.hpp"
#include "why_fixture.hpp"

using namespace attn::hf;

TEST_CASE("why: a real model's score split by residual-stream source matches PyTorch, for every pre-norm family") {
  const nlohmann::json f = why_fixture("hf_source_split");
  REQUIRE(f.at("models").size() == 4);
  for (const auto& [name, want] : f.at("models").items()) {
    INFO(name);
    const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/" + name);
    const std::vector<int> ids = want.at("ids").get<std::vector<int>>();
    double worst = 0;
    std::string where;
    for (const auto& cell : want.at("cells")) {
      const int h = cell.at("head"), i = cell.at("query"), j = cell.at("key");
      const attn::SourceSplit s = split_score_by_source(*ck, ids, want.at("layer"), h, i, j);
      const std::string at = "head " + std::to_string(h) + " [" + std::to_string(i) + "," + std::to_string(j) + "]";
      CHECK(s.query_sources == cell.at("query_sources").get<std::vector<std::string>>());
      CHECK(s.key_sources == cell.at("key_sources").get<std::vector<std::string>>());
      REQUIRE(s.terms.rows() == static_cast<Eigen::Index>(cell.at("terms").size()));
      const auto see = [&](const std::string& what, double ours, double theirs) {
        const double e = std::abs(ours - theirs) / std::max(1.0, std::abs(theirs));
        if (!(e <= worst)) worst = std::isnan(e) ? 1e300 : e, where = what;
      };
      see(at + " score", s.score, cell.at("score"));
      for (Eigen::Index a = 0; a < s.terms.rows(); ++a)
        for (Eigen::Index b = 0; b < s.terms.cols(); ++b)
          see(at + " " + s.query_sources[static_cast<std::size_t>(a)] + " x " + s.key_sources[static_cast<std::size_t>(b)],
              s.terms(a, b), cell.at("terms")[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
      CHECK_MESSAGE(std::abs(s.terms.sum() - s.score) <= 1e-9 * std::max(1.0, std::abs(s.score)), at,
                    ": the parts sum to ", s.terms.sum(), ", the score is ", s.score);
    }
    INFO("worst relative error ", worst, " at ", where);
    CHECK(worst <= 1e-9);
  }
}

TEST_CASE("why: a real model's source split refuses BERT, cells out of range and keys the mask hides") {
  const auto bert = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/bert");
  CHECK_THROWS_WITH_AS(split_score_by_source(*bert, {1, 2, 3}, 0, 0, 1, 0),
                       "BERT normalises the stream after each sum, so the stream is no sum of sources: only pre-norm "
                       "models split by source",
                       ModelError);
  const auto gpt2 = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gpt2");
  CHECK_THROWS_WITH_AS(split_score_by_source(*gpt2, {1, 2, 3}, 2, 0, 1, 0), "layer 2 is outside 0..1", ModelError);
  CHECK_THROWS_WITH_AS(split_score_by_source(*gpt2, {1, 2, 3}, 1, 4, 1, 0), "head 4 is outside 0..3", ModelError);
  CHECK_THROWS_WITH_AS(split_score_by_source(*gpt2, {1, 2, 3}, 1, 0, 1, 2),
                       "query 1 does not see key 2 in layer 1 (the mask hides it), so it has no score to split",
                       ModelError);
  const auto mistral = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/mistral_window");
  CHECK_THROWS_AS(split_score_by_source(*mistral, {1, 2, 3, 4, 5, 6, 7, 8}, 1, 0, 7, 0), ModelError);
}

// Gemma 2 norms attention's and the MLP's outputs before the stream gets
// them, and scales by (1 + w): each source goes through those norms held at
// the row's value, so the parts must still add up to the score the layer
// computed (and the capped weight follows from that score).
TEST_CASE("why: Gemma 2's score split adds up to its score through the norms after attention and the MLP") {
  const auto ck = Checkpoint::open(std::string(ATTN_HF_DATA_DIR) + "/gemma2");
  const std::vector<int> ids{2, 17, 40, 3, 150, 120, 64, 9, 33};
  for (const auto& [h, i, j] : {std::tuple{0, 8, 5}, std::tuple{3, 6, 0}, std::tuple{1, 8, 8}}) {
    const attn::SourceSplit s = split_score_by_source(*ck, ids, 1, h, i, j);
    INFO("head " << h << " [" << i << "," << j << "]: parts sum to " << s.terms.sum() << ", the score is " << s.score);
    CHECK(s.query_sources.size() == 1 + 4 + 1);  // the embedding, then layer 0's 4 heads and MLP
    CHECK(std::abs(s.terms.sum() - s.score) <= 1e-9 * std::max(1.0, std::abs(s.score)));
  }
}
