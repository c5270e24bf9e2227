// `attn flash` as a user runs it: its JSON output is held against the plain
// trace computed here (the stacked tiles equal head_output, the tile count
// and the standard attention traffic follow from n and d by hand), and an
// explained cell prints the value the JSON gives for it.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "attn/text/format_number.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/compute/trace.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;
using nlohmann::json;

namespace {

const std::string kScene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/flash_tiles.json";

}  // namespace

TEST_CASE("attn flash --json: the stacked tiles are the plain head output, with the tiles and counts the blocks imply") {
  const auto r = run_attn({"flash", kScene, "--block-rows", "3", "--block-cols", "4", "--json"});
  REQUIRE(r.status == 0);
  CHECK(r.err == "");
  const json doc = json::parse(r.out);
  const attn::Trace trace = attn::compute_trace(attn::io::load_scenario(kScene).scenario);
  const int n_q = trace.dims.n_q, n_k = trace.dims.n_k, d_k = trace.dims.d_k, d_v = trace.dims.d_v;
  CHECK(doc["query_blocks"] == (n_q + 2) / 3);
  CHECK(doc["key_blocks"] == (n_k + 3) / 4);
  CHECK(doc["tiles"].size() == static_cast<size_t>(((n_q + 2) / 3) * ((n_k + 3) / 4)));
  const attn::Mat plain = trace.find(attn::StageKind::head_output, 0)->value.dense();
  const json& out = doc["flash_output"];
  REQUIRE(out.size() == static_cast<size_t>(n_q));
  for (int i = 0; i < n_q; ++i)
    for (int c = 0; c < d_v; ++c) {
      INFO("output [" << i << "][" << c << "]: flash " << out[i][c] << ", plain " << plain(i, c));
      CHECK(std::abs(out[i][c].get<double>() - plain(i, c)) <= 1e-12);  // the core's tolerance (tests/core/flash)
    }
  // Algorithm 0: Q, K read; S written, read; P written, read with V; O written.
  const json& standard = doc["hbm"]["standard"];
  CHECK(standard["reads"] == n_q * d_k + n_k * d_k + 2 * n_q * n_k + n_k * d_v);
  CHECK(standard["writes"] == 2 * n_q * n_k + n_q * d_v);
}

TEST_CASE("attn flash --explain prints the cell's arithmetic and the value the JSON holds") {
  const auto j = run_attn({"flash", kScene, "--tile", "2,1", "--json"});
  REQUIRE(j.status == 0);
  const json doc = json::parse(j.out);
  REQUIRE(doc["tiles"].size() == 1);
  const double sum = doc["tiles"][0]["flash_sum"][1][0].get<double>();
  const auto e = run_attn({"flash", kScene, "--tile", "2,1", "--explain", "flash_sum", "1", "0"});
  REQUIRE(e.status == 0);
  INFO(e.out);
  CHECK(e.out.rfind("flash_sum (head 0) [1,0] = " + attn::format_number(sum, 6) + "\n", 0) == 0);
  CHECK(e.out.find("α × ℓ_old") != std::string::npos);
  CHECK(e.out.find("row sum of P") != std::string::npos);
}
