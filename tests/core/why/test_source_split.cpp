// attn::train::split_score_by_source against PyTorch
// (tests/fixtures/why/source_split.json, from make_why_fixtures.py): layer
// 1's scores of two training fixtures' models split over (query source, key
// source). Every pair's part within 1e-9 × max(1, |torch|), the named
// sources in torch's order, and the parts adding up to the model's score
// within 1e-9. A failure names the worst part.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/io/model_file.hpp"
#include "attn/train/score_sources.hpp"
#include "fixture_files.hpp"
#include "why/worst_value.hpp"

namespace {

nlohmann::json source_fixture() {
  return nlohmann::json::parse(ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/why/source_split.json"));
}

attn::train::Model model_named(const std::string& name) {
  const nlohmann::json f =
      nlohmann::json::parse(ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/train/" + name + ".json"));
  return attn::io::parse_model(f.at("model").dump()).model;
}

}  // namespace

TEST_CASE("why: a trained model's score split over its residual stream's sources matches PyTorch") {
  const nlohmann::json f = source_fixture();
  REQUIRE(f.at("models").size() == 2);
  for (const auto& [name, want] : f.at("models").items()) {
    INFO(name);
    const attn::train::Model model = model_named(name);
    const std::vector<int> tokens = want.at("tokens").get<std::vector<int>>();
    why_test::WorstValue worst;
    for (const auto& cell : want.at("cells")) {
      const int h = cell.at("head"), i = cell.at("query"), j = cell.at("key");
      const std::string at = "head " + std::to_string(h) + " [" + std::to_string(i) + "," + std::to_string(j) + "]";
      const attn::SourceSplit s = attn::train::split_score_by_source(model, tokens, want.at("layer"), h, i, j);
      CHECK(s.query_sources == want.at("sources").get<std::vector<std::string>>());
      CHECK(s.key_sources == s.query_sources);
      worst.see(at + " score", s.score, cell.at("score"));
      REQUIRE(s.terms.rows() == static_cast<Eigen::Index>(cell.at("terms").size()));
      for (Eigen::Index a = 0; a < s.terms.rows(); ++a)
        for (Eigen::Index b = 0; b < s.terms.cols(); ++b)
          worst.see(at + " query " + s.query_sources[static_cast<std::size_t>(a)] + " × key " +
                        s.key_sources[static_cast<std::size_t>(b)],
                    s.terms(a, b), cell.at("terms")[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
      const double sum = s.terms.sum();
      CHECK_MESSAGE(std::abs(sum - s.score) <= 1e-9 * std::max(1.0, std::abs(s.score)), at, ": the parts sum to ", sum,
                    ", the score is ", s.score);
      CHECK(std::abs(s.by_query_source().sum() - sum) <= 1e-12 * std::max(1.0, std::abs(sum)));
      CHECK(std::abs(s.by_key_source().sum() - sum) <= 1e-12 * std::max(1.0, std::abs(sum)));
    }
    INFO(worst.text());
    CHECK(worst.ok());
  }
}

TEST_CASE("why: the stream's sources add up to the residual the forward pass had, at every layer") {
  const attn::train::Model model = model_named("two_layer_learned_mlp");
  const std::vector<int> tokens = source_fixture().at("models").at("two_layer_learned_mlp").at("tokens").get<std::vector<int>>();
  const attn::train::SequenceForward f = attn::train::forward(model, tokens);
  for (int layer = 0; layer <= model.config.n_layers; ++layer) {
    const attn::train::StreamSources s = attn::train::stream_sources(model, tokens, layer);
    // token, position, then per earlier layer each head and the MLP.
    CHECK(s.names.size() == static_cast<std::size_t>(2 + layer * (model.config.n_heads + 1)));
    attn::Mat sum = attn::Mat::Zero(f.residual[static_cast<std::size_t>(layer)].rows(), model.config.d_model);
    for (const attn::Mat& p : s.parts) sum += p;
    const double gap = (sum - f.residual[static_cast<std::size_t>(layer)]).cwiseAbs().maxCoeff();
    INFO("layer ", layer, ": largest gap ", gap);
    CHECK(gap <= 1e-12);
  }
}

TEST_CASE("why: the largest source pairs come first and are named with their share") {
  const attn::Mat q = (attn::Mat(3, 2) << 1, 0, 0, 2, 0.5, 0.5).finished();
  const attn::Mat k = (attn::Mat(2, 2) << 3, 0, 0, -1).finished();
  const attn::SourceSplit s = attn::bilinear_split({1, 2, 3, 0}, {"token", "position", "L0 H1"}, q, {"token", "L0 H3"}, k, 2.5, 0.5);
  // terms: token×token 3, position×L0 H3 −2, L0 H1×token 1.5, L0 H1×L0 H3 −0.5; sum 2.0
  const auto top = s.largest(2);
  REQUIRE(top.size() == 2);
  CHECK(top[0].value == 3);
  CHECK(top[1].value == -2);
  CHECK(s.describe(top[0]) == "key: token × query: token = 3 (120% of the score)");
  CHECK(s.largest(-1).size() == 6);
  CHECK((s.cell.layer == 1 && s.cell.head == 2 && s.cell.query == 3 && s.cell.key == 0));
  CHECK_THROWS_AS(attn::bilinear_split({}, {"a"}, q, {"b", "c"}, k, 0, 1), std::invalid_argument);
}

TEST_CASE("why: a source split names a cell outside the model or a key the mask hides") {
  const attn::train::Model model = model_named("two_layer_learned_mlp");
  const std::vector<int> tokens = source_fixture().at("models").at("two_layer_learned_mlp").at("tokens").get<std::vector<int>>();
  CHECK_THROWS_WITH_AS(attn::train::split_score_by_source(model, tokens, 2, 0, 1, 0), "layer: 2 is outside 0..1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attn::train::split_score_by_source(model, tokens, 1, 5, 1, 0), "head: 5 is outside 0..1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attn::train::split_score_by_source(model, tokens, 1, 0, 1, 2),
                       "key 2 comes after query 1: the causal mask hides it, so it has no score to split",
                       std::invalid_argument);
  CHECK_THROWS_AS(attn::train::split_score_by_source(model, {1, 2}, 1, 0, 1, 0), std::invalid_argument);
}
