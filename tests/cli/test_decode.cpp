// `attn decode` run as a user runs it: its JSON rows are held to the full
// trace the core computes here from the same file (not to numbers copied
// from a run), its text shows one step and one head when asked, and a scene
// the KV cache cannot decode exits 2 with one line saying why.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/decode/decode.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/compute/trace.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

const std::string kDecodeScene = std::string(ATTN_CLI_DATA_DIR) + "/decode_gqa_rope.json";

// The JSON row of stage `name` (head `head`) in one printed step.
const json& stage_of(const json& step, const std::string& name, int head, const char* field = "values") {
  for (const json& s : step["stages"])
    if (s["stage"] == name && s["head"] == head) return s[field];
  FAIL("step " << step["t"] << " has no " << name << " for head " << head);
  static const json none;
  return none;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("decode --json: every step's output row and new cache rows are the full trace's row t") {
  const auto r = run_attn({"decode", kDecodeScene, "--json"});
  REQUIRE(r.status == 0);
  const json out = json::parse(r.out);
  CHECK(out["format"] == "attnviz-decode");
  const attn::Trace full = attn::compute_trace(attn::io::load_scenario(kDecodeScene).scenario);
  REQUIRE(out["steps"].size() == 6);
  for (const json& step : out["steps"]) {
    const int t = step["t"];
    CAPTURE(t);
    CHECK(step["reused_rows"] == t);
    const json& y = stage_of(step, "step_output", -1);
    for (int c = 0; c < 2; ++c)
      CHECK(std::abs(y[c].get<double>() - full.find(attn::StageKind::output)->value(t, c)) <= 1e-12);
    // Two key/value heads, kept at heads 0 and 2; keys rotated, as the trace's k_rope.
    for (int leader : {0, 2}) {
      const json& k = stage_of(step, "k_cache", leader, "new_row");
      for (int c = 0; c < 2; ++c)
        CHECK(std::abs(k[c].get<double>() - full.find(attn::StageKind::k_rope, leader)->value(t, c)) <= 1e-12);
      CHECK(stage_of(step, "k_cache", leader, "rows") == t + 1);
    }
  }
  // Window 3 with sink 0: at step 4 key 1 is hidden, its logit written as null (JSON has no −∞).
  CHECK(stage_of(out["steps"][4], "step_logits", 1)[1].is_null());
  CHECK(stage_of(out["steps"][4], "step_weights", 1)[1] == 0.0);
  const json& summary = out["summary"];
  CHECK(summary["check"]["max_abs_diff_output"].get<double>() <= 1e-12);
  CHECK(summary["check"]["max_abs_diff_head_output"].get<double>() <= 1e-12);
  CHECK(summary["cached_total"].get<long long>() < summary["uncached_total"].get<long long>());
  // Two key/value heads of d_k 2 and d_v 3, six tokens, 8 bytes each.
  CHECK(summary["cache_bytes_f64"] == 2 * (2 + 3) * 6 * 8);
}

TEST_CASE("decode text: --step and --head show one step and one head with the cache it reads") {
  const auto r = run_attn({"decode", kDecodeScene, "--step", "2", "--head", "3"});
  REQUIRE(r.status == 0);
  CAPTURE(r.out);
  CHECK(count(r.out, "\nstep ") + (r.out.rfind("step ", 0) == 0) == 1);
  CHECK(r.out.find("step 2 (token \"sat\"): computed row 2 of each cache, rows 0–1 reused from the cache") !=
        std::string::npos);
  CHECK(r.out.find("k_cache (head 2), 3 rows") != std::string::npos);  // head 3 reads head 2's cache
  CHECK(r.out.find("(head 1)") == std::string::npos);
  CHECK(r.out.find("step_q (head 3)") != std::string::npos);
  CHECK(r.out.find("check against the full causal trace over 6 steps") != std::string::npos);
}

TEST_CASE("decode: a scene the KV cache cannot decode, or a step it lacks, exits 2 with one line") {
  const auto cross = run_attn({"decode", std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/cross_attention.json"});
  CHECK(cross.status == 2);
  CHECK(count(cross.err, "\n") == 1);
  CHECK(cross.err.find("cross-attention") != std::string::npos);
  const auto step = run_attn({"decode", kDecodeScene, "--steps", "3", "--step", "3"});
  CHECK(step.status == 2);
  CHECK(step.err == "attn: --step: 3 is out of range (the decode has 3 steps, 0 to 2)\n");
}

TEST_CASE("decode --explain: a score cell of one step, with its number and where its key came from") {
  const auto r = run_attn({"decode", kDecodeScene, "--step", "3", "--explain", "step_scores", "--head", "1", "--col", "2"});
  REQUIRE(r.status == 0);
  CAPTURE(r.out);
  // The printed value is the full trace's score of query 3 and key 2 (head 1), to the 6 digits printed.
  const std::string head = "step_scores (head 1) [0,2] = ";
  REQUIRE(r.out.rfind(head, 0) == 0);
  const double printed = std::stod(r.out.substr(head.size()));
  const attn::Trace full = attn::compute_trace(attn::io::load_scenario(kDecodeScene).scenario);
  const double score = full.find(attn::StageKind::scores, 1)->value(3, 2);
  CHECK(std::abs(printed - score) <= 1e-5 * std::abs(score));
  CHECK(r.out.find("k_2 was reused from the cache (computed at step 2)") != std::string::npos);
  CHECK(r.out.find("head 1 reads the cache of head 0") != std::string::npos);
  // Head 3 shares head 2's cache: its k_cache is head 2's, and row 3 was appended at step 3.
  const auto k = run_attn({"decode", kDecodeScene, "--step", "3", "--explain", "k_cache", "--head", "3", "--row", "3"});
  REQUIRE(k.status == 0);
  CHECK(k.out.rfind("k_cache (head 2) [3,0]", 0) == 0);
  CHECK(k.out.find("appended this step") != std::string::npos);
  const auto bad = run_attn({"decode", kDecodeScene, "--step", "3", "--explain", "scores", "--head", "0"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--explain: \"scores\" is no decode stage (valid: step_q,") != std::string::npos);
}

TEST_CASE("decode: every shipped scene is decoded to the full trace's rows, or refused with the core's reason") {
  std::vector<std::string> scenes;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios"))
    if (entry.path().extension() == ".json") scenes.push_back(entry.path().string());
  std::sort(scenes.begin(), scenes.end());
  int decoded = 0;
  for (const std::string& path : scenes) {
    CAPTURE(path);
    const attn::Scenario s = attn::io::load_scenario(path).scenario;
    std::string refusal;
    try {
      attn::check_decodable(s, static_cast<int>(s.x.rows()));
    } catch (const std::invalid_argument& e) {
      refusal = e.what();
    }
    // One step printed keeps the output small; the check covers every step.
    const auto r = run_attn({"decode", path, "--json", "--step", "0"});
    if (!refusal.empty()) {
      CHECK(r.status == 2);
      CHECK(r.err == "attn: " + path + ": " + refusal + "\n");
      continue;
    }
    REQUIRE(r.status == 0);
    const json check = json::parse(r.out)["summary"]["check"];
    CHECK(check["steps"] == s.x.rows());
    CHECK(check["max_abs_diff_head_output"].get<double>() <= 1e-12);
    CHECK(check["max_abs_diff_output"].get<double>() <= 1e-12);
    ++decoded;
  }
  CHECK(decoded >= 8);  // the causal article scenes and the modern ones
}
