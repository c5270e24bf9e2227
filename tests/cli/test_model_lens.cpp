// `attn model lens`: the JSON a script reads holds every row and position's
// guesses, agreeing with PyTorch's float64 lens (tests/fixtures/why) to the
// float32 pass's tolerance (kFloatWeightsAgreement), names each guess with
// the tokenizer, and the table has a line per token; BERT is refused.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "attn/hf/forward/forward.hpp"
#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::hf_model_dir;
using attn::cli::test::run_attn;

TEST_CASE("model lens: the JSON matches PyTorch's lens in every cell, and the text has a line per token") {
  std::ifstream in(std::string(ATTNVIZ_FIXTURES_DIR) + "/why/lens_gpt2.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json want = nlohmann::json::parse(text.str());
  std::string ids;
  for (const auto& id : want.at("ids")) ids += (ids.empty() ? "" : ",") + std::to_string(id.get<int>());
  const auto r = run_attn({"model", "lens", hf_model_dir("gpt2"), "--ids", ids, "--top", "5", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json got = nlohmann::json::parse(r.out);
  CHECK(got.at("format") == "attnviz-lens");
  REQUIRE(got.at("rows").size() == want.at("rows").size());
  double worst = 0;
  for (std::size_t row = 0; row < want.at("rows").size(); ++row)
    for (std::size_t t = 0; t < want.at("ids").size(); ++t)
      for (std::size_t k = 0; k < 5; ++k) {
        const auto& ours = got.at("rows")[row].at("positions")[t][k];
        const auto& theirs = want.at("rows")[row][t][k];
        const double gap = std::abs(ours.at("probability").get<double>() - theirs[1].get<double>());
        worst = std::max(worst, gap);
        if (gap > attn::hf::kFloatWeightsAgreement) continue;  // a near tie may swap two ids
        CHECK_MESSAGE(ours.at("id") == theirs[0], "row ", row, " position ", t, " rank ", k);
        // A guess is named as the tokenizer names that id among the input's tokens.
        for (std::size_t i = 0; i < want.at("ids").size(); ++i)
          if (ours.at("id") == want.at("ids")[i]) CHECK(ours.at("token") == got.at("tokens")[i]);
      }
  INFO("worst probability gap ", worst);
  CHECK(worst <= attn::hf::kFloatWeightsAgreement);

  const auto table = run_attn({"model", "lens", hf_model_dir("gpt2"), "--ids", ids});
  REQUIRE(table.status == 0);
  std::istringstream lines(table.out);
  std::string line;
  int positions = 0;
  while (std::getline(lines, line))
    if (line.find(": embeddings \"") != std::string::npos && line.find("| after layer 1 \"") != std::string::npos)
      ++positions;
  CHECK(positions == static_cast<int>(want.at("ids").size()));
}

TEST_CASE("model lens: a model without a next-token head is refused by name") {
  const auto r = run_attn({"model", "lens", hf_model_dir("bert"), "--text", "the cat"});
  CHECK(r.status == 2);
  CHECK(r.err.find("BERT has no next-token head, so it has no logit lens") != std::string::npos);
}
