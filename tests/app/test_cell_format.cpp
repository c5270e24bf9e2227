// Compact cell numbers: they must fit a few characters without ever reading
// as a different value, and each fallback must be no wider than the last.
#include <cmath>

#include <doctest/doctest.h>

#include "viz/cell_format.hpp"

using viz::compact_candidates;
using viz::compact_number;

TEST_CASE("cell format: leading zeros dropped, trailing zeros never added") {
  CHECK(compact_number(-0.18, 2) == "-.18");
  CHECK(compact_number(0.067, 2) == ".067");
  CHECK(compact_number(0.067, 1) == ".07");
  CHECK(compact_number(0.5, 2) == ".5");
  CHECK(compact_number(1.2, 2) == "1.2");
  CHECK(compact_number(1.0, 3) == "1");
  CHECK(compact_number(12.0, 2) == "12");
  CHECK(compact_number(0, 2) == "0");
}

TEST_CASE("cell format: large and tiny numbers take the shorter of plain and exponent") {
  CHECK(compact_number(123.0, 2) == "123");
  CHECK(compact_number(30000.0, 1) == "3e4");
  CHECK(compact_number(31234.0, 2) == "31234");  // as short as 3.1e4, and exact
  CHECK(compact_number(-31234.0, 1) == "-3e4");
  CHECK(compact_number(0.00012, 2) == ".00012");  // a tie: plain reads easier
  CHECK(compact_number(0.000012, 2) == "1.2e-5");
  CHECK(compact_number(2e-7, 1) == "2e-7");
  CHECK(compact_number(1e20, 2) == "1e20");
}

TEST_CASE("cell format: non-finite values are named") {
  CHECK(compact_number(-INFINITY, 2) == "−∞");
  CHECK(compact_number(INFINITY, 2) == "∞");
  CHECK(compact_number(NAN, 2) == "NaN");
}

TEST_CASE("cell format: candidates go from precise to narrow without repeats") {
  const std::vector<std::string> c = compact_candidates(-0.1834, 3);
  REQUIRE(c.size() == 3);
  CHECK(c[0] == "-.183");
  CHECK(c[1] == "-.18");
  CHECK(c[2] == "-.2");
  for (size_t i = 1; i < c.size(); ++i) CHECK(c[i].size() <= c[i - 1].size());
  CHECK(compact_candidates(1.0, 3) == std::vector<std::string>{"1"});
  CHECK(compact_candidates(0.067, 2) == std::vector<std::string>{".067", ".07"});
}
