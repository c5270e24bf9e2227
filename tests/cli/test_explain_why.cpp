// `attn explain --why`: the JSON a script reads adds up (the dimensions to
// the score, the rotary pairs and the rest to the score, the source pairs
// to the score, all within 1e-12 relative), agrees with the library run
// here on the same file, and the text a person reads shows the same
// numbers. Wrong combinations of options are refused with their names.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/attn.hpp"
#include "attn/io/model_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/text/format_number.hpp"
#include "attn/train/score_sources.hpp"
#include "attn/why/score_split.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

const std::string kRopeScene = std::string(ATTNVIZ_FIXTURES_DIR) + "/modern_rope_partial.json";

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

std::string why_model_path() {
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  return std::string(ATTN_CLI_TEST_TMP) + "/why_model.json";
}

// A fresh (untrained) two-layer induction model: the split's arithmetic
// does not depend on training, and 0 steps take no time.
std::string why_model() {
  const std::string path = why_model_path();
  std::filesystem::remove(path);
  const auto r = run_attn({"train", "--task", "induction", "--steps", "0", "--d-model", "16", "--heads", "2",
                           "--length", "5", "--vocab", "8", "-o", path});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  return path;
}

}  // namespace

TEST_CASE("explain --why: a RoPE scene's score, by dimension and by rotary pair, adds up in JSON and text") {
  const auto r = run_attn({"explain", kRopeScene, "--why", "--row", "4", "--col", "1", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("format") == "attnviz-why");
  const double score = j.at("score");
  double dims = 0;
  for (const json& d : j.at("by_dimension")) dims += d.at("term").get<double>();
  CHECK(close(dims, score));
  const json& rope = j.at("by_rope");
  CHECK(rope.at("distance") == 3);
  double pairs = rope.at("unrotated").get<double>();
  for (const json& p : rope.at("pairs")) {
    pairs += p.at("term").get<double>();
    CHECK(close(p.at("term").get<double>() - p.at("content").get<double>(), p.at("position").get<double>()));
  }
  CHECK(close(pairs, score));
  CHECK(close(rope.at("content").get<double>() + rope.at("position").get<double>(), score));
  // Half the dimensions of this scene turn: the rest is a part of its own.
  CHECK(rope.at("pairs").size() * 4 == j.at("by_dimension").size());

  // The same numbers as the library computes on the same file.
  const auto file = attn::io::load_scenario(kRopeScene);
  const attn::ScoreSplit s = attn::split_score(attn::compute_trace(file.scenario), file.scenario, 0, 4, 1);
  CHECK(score == s.score);
  const auto text = run_attn({"explain", kRopeScene, "--why", "--row", "4", "--col", "1"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("S = q · k = " + attn::format_number(s.score)) != std::string::npos);
  CHECK(text.out.find("Δ = 3 positions") != std::string::npos);
  CHECK(text.out.find("dimensions RoPE leaves alone: " + attn::format_number(s.by_rope->unrotated)) != std::string::npos);
}

TEST_CASE("explain --why: a trained model's score by source, from the model file and --input") {
  const std::string model = why_model();
  const auto r = run_attn({"explain", model, "--why", "--input", "A B C A B", "--layer", "1", "--head", "1", "--row",
                           "4", "--col", "2", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("split") == "source");
  CHECK(j.at("query_sources") ==
        json({"token embedding", "position", "L0 H0", "L0 H1"}));
  double sum = 0;
  for (const json& row : j.at("terms"))
    for (const json& v : row) sum += v.get<double>();
  CHECK(close(sum, j.at("score").get<double>()));
  // The library on the same model and tokens (padded to the model's length).
  const attn::io::ModelFile f = attn::io::load_model(model);
  std::vector<int> tokens = attn::train::parse_tokens(f.config.task, "A B C A B");
  tokens.resize(static_cast<std::size_t>(f.model.config.seq_len), f.config.task.vocab);
  const attn::SourceSplit s = attn::train::split_score_by_source(f.model, tokens, 1, 1, 4, 2);
  CHECK(j.at("score").get<double>() == s.score);
  const auto text = run_attn({"explain", model, "--why", "--input", "A B C A B", "--layer", "1", "--head", "1", "--row",
                              "4", "--col", "2"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find(s.describe(s.largest(1).front())) != std::string::npos);
}

TEST_CASE("explain --why: refusals name the option") {
  const std::string model = why_model();
  const auto json_alone = run_attn({"explain", kRopeScene, "--stage", "scores", "--row", "1", "--col", "0", "--json"});
  CHECK(json_alone.status == 2);
  CHECK(json_alone.err.find("--json: only with --why") != std::string::npos);
  const auto not_grid = run_attn({"explain", kRopeScene, "--why", "--stage", "q", "--row", "1", "--col", "0"});
  CHECK(not_grid.status == 2);
  CHECK(not_grid.err.find("--why splits a score: --stage must be a queries × keys stage") != std::string::npos);
  const auto outside = run_attn({"explain", kRopeScene, "--why", "--row", "9", "--col", "0"});
  CHECK(outside.status == 2);
  CHECK(outside.err.find("cell [9,0] is outside the 5×5 scores") != std::string::npos);
  const auto future = run_attn({"explain", model, "--why", "--input", "A B C", "--layer", "1", "--row", "1", "--col", "2"});
  CHECK(future.status == 2);
  CHECK(future.err.find("key 2 comes after query 1") != std::string::npos);
  const auto past_input = run_attn({"explain", model, "--why", "--input", "A B C", "--row", "3", "--col", "0"});
  CHECK(past_input.status == 2);
  CHECK(past_input.err.find("outside the 3 tokens of --input") != std::string::npos);
  const auto bad_token = run_attn({"explain", model, "--why", "--input", "A Q", "--row", "1", "--col", "0"});
  CHECK(bad_token.status == 2);
  CHECK(bad_token.err.find("--input:") != std::string::npos);
  const auto no_stage = run_attn({"explain", kRopeScene, "--row", "1", "--col", "0"});
  CHECK(no_stage.status == 2);
  CHECK(no_stage.err.find("--stage") != std::string::npos);
}
