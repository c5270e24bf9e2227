// Numbers outside what an option allows exit 2 with one line naming the
// option: `attn decode --step -1` and `--steps -5` used to read -1 as "not
// given" and exit 0, and `attn model tokens --ids 99999` printed an id the
// model has no embedding for and exited 0.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::hf_model_dir;
using attn::cli::test::run_attn;

namespace {

const std::string kKvCacheScene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/kv_cache.json";

void refused(const std::vector<std::string>& args, const std::vector<std::string>& words) {
  const auto r = run_attn(args);
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const std::string& w : words) CHECK(r.err.find(w) != std::string::npos);
}

}  // namespace

TEST_CASE("attn decode refuses negative numbers, naming the option") {
  for (const char* option : {"--step", "--steps", "--head", "--row", "--col"}) {
    CAPTURE(option);
    refused({"decode", kKvCacheScene, option, "-1"}, {std::string(option) + ": ", "\"-1\""});
  }
  refused({"decode", kKvCacheScene, "--steps", "-5"}, {"--steps: ", "\"-5\""});
}

TEST_CASE("every attn model subcommand refuses an id outside the model's vocabulary") {
  for (const char* which : {"tokens", "attention", "scene"}) {
    CAPTURE(which);
    std::vector<std::string> args{"model", which, hf_model_dir("gpt2"), "--ids", "5,99999"};
    if (std::string(which) != "tokens") args.insert(args.end(), {"-o", std::string(ATTN_CLI_TEST_TMP) + "/unused.json"});
    if (std::string(which) == "scene") args.insert(args.end(), {"--layer", "0"});
    refused(args, {"--ids: ", "id 99999", "vocabulary of 320"});
  }
}

TEST_CASE("attn model scene refuses a negative or too large --layer or --head, naming it") {
  const std::string out = std::string(ATTN_CLI_TEST_TMP) + "/unused.json";
  refused({"model", "scene", hf_model_dir("gpt2"), "--ids", "5", "--layer", "-1", "-o", out}, {"--layer: ", "\"-1\""});
  refused({"model", "scene", hf_model_dir("gpt2"), "--ids", "5", "--layer", "2", "-o", out}, {"--layer: ", "the model has 2 layers"});
  refused({"model", "scene", hf_model_dir("gpt2"), "--ids", "5", "--layer", "0", "--head", "-1", "-o", out}, {"--head: ", "\"-1\""});
  refused({"model", "scene", hf_model_dir("gpt2"), "--ids", "5", "--layer", "0", "--head", "4", "-o", out}, {"--head: 4"});
}
