// The Model view's text against the model's limits and its numbers, on the
// tiny GPT-2 of tests/data/hf (64 positions): a longer text is an error
// until the user keeps its first 64 tokens, the second pass (heads off)
// keeps every token's probability, and probabilities print at a precision
// that tells small ones apart.
#include <doctest/doctest.h>

#include <numeric>

#include "model/hf/model_session.hpp"
#include "model/hf/probability_text.hpp"
#include "compute/model_settle.hpp"

namespace {

const std::string kTinyGpt2 = std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2";

std::string long_text() {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "the cat sat on the mat. ";
  return text;
}

}  // namespace

TEST_CASE("a text longer than the model's positions: the same error, then its first N tokens when asked") {
  model::ModelSession s;
  model::ModelUi ui;
  ui.folder = kTinyGpt2;
  ui.text = long_text();
  settle_model(s, ui);
  const std::vector<int> all = model::ModelTokens::load(kTinyGpt2)->encode(ui.text);
  REQUIRE(all.size() > 64);
  CHECK(s.too_long());
  CHECK(s.error().find("positions for 64") != std::string::npos);
  CHECK(s.error().find(std::to_string(all.size()) + " tokens") != std::string::npos);
  CHECK(s.before() == nullptr);
  CHECK(s.note().empty());

  ui.keep_first_tokens = true;
  settle_model(s, ui);
  REQUIRE_MESSAGE(s.error().empty(), s.error());
  CHECK_FALSE(s.too_long());
  REQUIRE(s.before() != nullptr);
  CHECK(s.ids() == std::vector<int>(all.begin(), all.begin() + 64));
  CHECK(s.labels().size() == 64);
  CHECK(s.before()->ids == s.ids());
  CHECK(s.before()->forward->layers[0].attentions[0].rows() == 64);
  CHECK(s.note().find("first 64 of " + std::to_string(all.size()) + " tokens") != std::string::npos);
  CHECK(s.dump(ui)["note"] == s.note());

  // A text that fits runs whole, with no note.
  ui.text = "the cat sat";
  settle_model(s, ui);
  CHECK(s.note().empty());
  CHECK(s.ids() == model::ModelTokens::load(kTinyGpt2)->encode(ui.text));
}

TEST_CASE("the pass with heads switched off keeps every token's probability, in the top ten or not") {
  model::ModelSession s;
  model::ModelUi ui;
  ui.folder = kTinyGpt2;
  ui.text = "the cat sat on the mat";
  ui.heads_off = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}};
  settle_model(s, ui);
  REQUIRE(s.before() != nullptr);
  REQUIRE(s.after() != nullptr);
  const model::ModelAnalysis& after = *s.after();
  CHECK(after.last_probabilities.size() == 320);
  const double total = std::accumulate(after.last_probabilities.begin(), after.last_probabilities.end(), 0.0);
  CHECK(total == doctest::Approx(1).epsilon(1e-4));
  for (const model::TokenPrediction& p : after.predictions)
    CHECK(after.probability_of(p.id) == doctest::Approx(p.probability).epsilon(1e-6));
  for (const model::TokenPrediction& p : s.before()->predictions) {
    CHECK(after.probability_of(p.id) > 0);
    CHECK(s.before()->probability_of(p.id) == doctest::Approx(p.probability).epsilon(1e-6));
  }
  const nlohmann::json moved = s.dump(ui)["predictions_before_after"];
  REQUIRE(moved.size() == 10);
  CHECK(moved[0]["probability"].get<double>() == doctest::Approx(after.probability_of(s.before()->predictions[0].id)));
}

TEST_CASE("probabilities print with three significant digits, changes with two in percentage points") {
  using model::change_text;
  using model::probability_text;
  CHECK(probability_text(0.5) == "50.0%");
  CHECK(probability_text(0.123456) == "12.3%");
  CHECK(probability_text(0.000123) == "0.0123%");
  // A 50,257-token vocabulary: ten small probabilities, no two alike.
  CHECK(probability_text(0.00021) != probability_text(0.00019));
  CHECK(probability_text(0.00021) == "0.0210%");
  CHECK(probability_text(2.5e-8) == "2.50e-06%");
  CHECK(probability_text(0) == "0%");
  CHECK(change_text(0.0123) == "+1.2 pp");
  CHECK(change_text(-0.000456) == "-0.046 pp");
  CHECK(change_text(3e-8) == "+3.0e-06 pp");
  CHECK(change_text(0) == "0 pp");
}
