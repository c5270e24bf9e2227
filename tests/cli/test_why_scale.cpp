// `attn why-scale` prints one row per d_k: the variance of q·k, its ratio
// to d_k and the variance after dividing by √d_k. Each row is parsed and
// checked against the claim (ratio and scaled variance within ±15% of 1 at
// 4000 pairs) and against the core's own samples for the same seed.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "attn/explore/explore.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;

namespace {

struct Row {
  int d_k = 0;
  double var = 0, ratio = 0, scaled = 0, max_raw = 0, max_scaled = 0;
};

// Rows are the lines that start with a number; "a / b" ends each.
std::vector<Row> parse_rows(const std::string& out) {
  std::vector<Row> rows;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    Row r;
    std::string slash;
    if (in >> r.d_k >> r.var >> r.ratio >> r.scaled >> r.max_raw >> slash >> r.max_scaled) rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST_CASE("why-scale: the default table covers d_k = 1..256 and shows the claim") {
  const auto r = run_attn({"why-scale", "--samples", "4000", "--seed", "5"});
  REQUIRE(r.status == 0);
  const std::vector<Row> rows = parse_rows(r.out);
  REQUIRE(rows.size() == 5);
  const int widths[] = {1, 4, 16, 64, 256};
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    INFO("d_k = " << row.d_k << ": var " << row.var << ", ratio " << row.ratio << ", scaled " << row.scaled);
    CHECK(row.d_k == widths[i]);
    CHECK(std::abs(row.ratio - 1) <= 0.15);
    CHECK(std::abs(row.scaled - 1) <= 0.15);
    // The printed variance is the core's, to the 3 decimals printed.
    const attn::DotProductSamples s = attn::dot_product_samples(row.d_k, 4000, 5, false);
    CHECK(row.var == doctest::Approx(s.stats.variance).epsilon(1e-3));
  }
  CHECK(rows.back().max_raw > rows.back().max_scaled);  // wide unscaled rows are peakier
}

TEST_CASE("why-scale: --dk prints just that width, bad values exit 2 with one line") {
  const auto r = run_attn({"why-scale", "--dk", "64", "--samples", "500"});
  REQUIRE(r.status == 0);
  const std::vector<Row> rows = parse_rows(r.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].d_k == 64);
  const auto bad = run_attn({"why-scale", "--dk", "0"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--dk") != std::string::npos);
  CHECK(bad.err.find('\n') == bad.err.size() - 1);
}
