// `attn model why`: a real model's score split by residual-stream source, as
// JSON that adds up to the score (1e-12 relative) and names GPT-2's sources
// (its position embedding, its norm's and projections' biases) and as text
// whose largest pair is the JSON's; BERT and a hidden key are refused.
// `attn model attribute`: the parts add up to the logit, the default token
// is the model's own top guess (the lens's last row), and the table has a
// row per layer. `attn model patch`: the JSON's map matches PyTorch's
// (tests/fixtures/why/hf_patching.json) to float32's 1e-3, with the tokens
// defaulting to the two runs' top guesses; unequal prompts are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::hf_model_dir;
using attn::cli::test::run_attn;

TEST_CASE("model why: GPT-2's score by source adds up, and the text names the largest pair") {
  const std::vector<std::string> args = {"model", "why", hf_model_dir("gpt2"), "--ids", "17,250,3,150,120",
                                         "--layer", "1", "--head", "2", "--row", "4", "--col", "1"};
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const auto r = run_attn(with_json);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("split") == "source");
  const auto q = j.at("query_sources").get<std::vector<std::string>>();
  const auto k = j.at("key_sources").get<std::vector<std::string>>();
  CHECK(q == std::vector<std::string>{"token embedding", "position embedding", "L0 H0", "L0 H1", "L0 H2", "L0 H3",
                                      "L0 attention bias", "L0 MLP", "norm bias", "query bias"});
  CHECK(k.back() == "key bias");
  double sum = 0;
  for (const auto& row : j.at("terms"))
    for (const auto& v : row) sum += v.get<double>();
  const double score = j.at("score");
  CHECK(std::abs(sum - score) <= 1e-12 * std::max(1.0, std::abs(score)));
  const auto text = run_attn(args);
  REQUIRE(text.status == 0);
  const nlohmann::json& top = j.at("largest")[0];
  CHECK(text.out.find("key: " + top.at("key_source").get<std::string>() + " × query: " +
                      top.at("query_source").get<std::string>()) != std::string::npos);
}

TEST_CASE("model why: refusals name the problem") {
  const auto bert = run_attn({"model", "why", hf_model_dir("bert"), "--text", "the cat", "--layer", "0", "--head", "0",
                              "--row", "1", "--col", "0"});
  CHECK(bert.status == 2);
  CHECK(bert.err.find("only pre-norm models split by source") != std::string::npos);
  const auto hidden = run_attn({"model", "why", hf_model_dir("gpt2"), "--ids", "1,2,3", "--layer", "0", "--head", "0",
                                "--row", "0", "--col", "2"});
  CHECK(hidden.status == 2);
  CHECK(hidden.err.find("query 0 does not see key 2") != std::string::npos);
}

TEST_CASE("model attribute: the parts add up to the logit of the model's own top guess") {
  const std::string ids = "17,250,3,150,120,64";
  const auto r = run_attn({"model", "attribute", hf_model_dir("gpt2"), "--ids", ids, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("format") == "attnviz-attribution");
  CHECK(j.at("position") == 5);
  double sum = 0;
  for (const auto& v : j.at("parts")) sum += v.get<double>();
  CHECK(std::abs(sum - j.at("logit").get<double>()) <= 1e-12 * std::max(1.0, std::abs(j.at("logit").get<double>())));
  CHECK(j.at("heads").size() == 2);
  CHECK(j.at("heads")[0].size() == 4);
  const auto lens = run_attn({"model", "lens", hf_model_dir("gpt2"), "--ids", ids, "--json", "--top", "1"});
  REQUIRE(lens.status == 0);
  const nlohmann::json l = nlohmann::json::parse(lens.out);
  CHECK(j.at("token") == l.at("rows").back().at("positions")[5][0].at("id"));
  const auto text = run_attn({"model", "attribute", hf_model_dir("gpt2"), "--ids", ids, "--position", "2", "--token", "7"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("(id 7) after position 2") != std::string::npos);
  CHECK(text.out.find("\n0 ") != std::string::npos);
  CHECK(text.out.find("\n1 ") != std::string::npos);
  const auto bert = run_attn({"model", "attribute", hf_model_dir("bert"), "--text", "the cat"});
  CHECK(bert.status == 2);
  CHECK(bert.err.find("BERT has no next-token head") != std::string::npos);
}

TEST_CASE("model patch: every head's patch matches PyTorch, the tokens being the two runs' top guesses") {
  std::ifstream in(std::string(ATTNVIZ_FIXTURES_DIR) + "/why/hf_patching.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json want = nlohmann::json::parse(text.str()).at("models").at("gpt2");
  const auto ids = [](const nlohmann::json& list) {
    std::string out;
    for (const auto& id : list) out += (out.empty() ? "" : ",") + std::to_string(id.get<int>());
    return out;
  };
  const auto r = run_attn({"model", "patch", hf_model_dir("gpt2"), "--clean-ids", ids(want.at("clean")),
                           "--corrupted-ids", ids(want.at("corrupted")), "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("format") == "attnviz-patching");
  CHECK(j.at("answer") == want.at("answer"));
  CHECK(j.at("wrong") == want.at("wrong"));
  REQUIRE(j.at("patched").size() == want.at("heads").size());
  double worst = 0;
  for (std::size_t l = 0; l < want.at("heads").size(); ++l)
    for (std::size_t h = 0; h < want.at("heads")[l].size(); ++h) {
      const double theirs = want.at("heads")[l][h];
      worst = std::max(worst, std::abs(j.at("patched")[l][h].get<double>() - theirs) / std::max(1.0, std::abs(theirs)));
    }
  INFO("worst relative gap ", worst);
  CHECK(worst <= 1e-3);
  const auto unequal = run_attn({"model", "patch", hf_model_dir("gpt2"), "--clean", "the cat sat", "--corrupted", "the dog sat"});
  CHECK(unequal.status == 2);
  CHECK(unequal.err.find("patching needs prompts of the same length") != std::string::npos);
}
