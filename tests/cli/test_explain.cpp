// `attn explain` prints the real arithmetic. The expected numbers are
// recomputed here from tests/cli/data/small.json (small integers, so every
// product prints exactly) rather than copied from a previous run.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_attn.hpp"

using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

const std::string kSmall = std::string(ATTN_CLI_DATA_DIR) + "/small.json";

json small_file() {
  std::ifstream in(kSmall);
  return json::parse(in);
}

// row r of (a · b), with a and b given as JSON rows.
std::vector<long> row_times(const json& a, std::size_t r, const json& b) {
  std::vector<long> out(b[0].size(), 0);
  for (std::size_t c = 0; c < out.size(); ++c)
    for (std::size_t t = 0; t < b.size(); ++t) out[c] += a[r][t].get<long>() * b[t][c].get<long>();
  return out;
}

}  // namespace

TEST_CASE("explain a score: q_i . k_j with every product and the sum") {
  const json doc = small_file();
  const json& head = doc["heads"][0];
  const std::vector<long> q1 = row_times(doc["x"], 1, head["w_q"]);
  const std::vector<long> k0 = row_times(doc["x"], 0, head["w_k"]);
  long total = 0;
  for (std::size_t t = 0; t < q1.size(); ++t) total += q1[t] * k0[t];

  const auto r = run_attn({"explain", kSmall, "--stage", "scores", "--head", "0", "--row", "1", "--col", "0"});
  REQUIRE(r.status == 0);
  CHECK(r.err == "");
  INFO(r.out);
  CHECK(r.out.rfind("scores (head 0) [1,0] = " + std::to_string(total) + "\n", 0) == 0);
  for (std::size_t t = 0; t < q1.size(); ++t) {
    const std::string product =
        std::to_string(q1[t]) + " × " + std::to_string(k0[t]) + " = " + std::to_string(q1[t] * k0[t]);
    CHECK(r.out.find(product) != std::string::npos);
  }
}

TEST_CASE("explain a projection: x_i . W_Q column j") {
  const json doc = small_file();
  const json& w_q = doc["heads"][1]["w_q"];
  const std::vector<long> q2 = row_times(doc["x"], 2, w_q);
  const auto r = run_attn({"explain", kSmall, "--stage", "q", "--head", "1", "--row", "2", "--col", "1"});
  REQUIRE(r.status == 0);
  INFO(r.out);
  CHECK(r.out.rfind("q (head 1) [2,1] = " + std::to_string(q2[1]) + "\n", 0) == 0);
  for (std::size_t t = 0; t < w_q.size(); ++t) {
    const long x = doc["x"][2][t].get<long>();
    const long w = w_q[t][1].get<long>();
    CHECK(r.out.find(std::to_string(x) + " × " + std::to_string(w) + " = " + std::to_string(x * w)) !=
          std::string::npos);
  }
}

TEST_CASE("explain a causally masked cell says it is blocked") {
  const auto r = run_attn({"explain", kSmall, "--stage", "masked", "--head", "0", "--row", "0", "--col", "2"});
  REQUIRE(r.status == 0);
  INFO(r.out);
  CHECK(r.out.rfind("masked (head 0) [0,2] = −∞", 0) == 0);
  CHECK(r.out.find("causal") != std::string::npos);
}

TEST_CASE("with one head, --head may be left out") {
  // The shared stage "x" never takes --head; a one-head scenario defaults to 0.
  const auto r = run_attn({"explain", kSmall, "--stage", "x", "--row", "2", "--col", "0"});
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("x [2,0] = 2\n", 0) == 0);
}
