// Compact cell numbers: they must fit a few characters without ever reading
// as a different value, and each fallback must be no wider than the last.
// The sweep reads every string back with its own parser (not strtod, which
// overflows on "2e308") and checks the header's rules over the double range.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>

#include <doctest/doctest.h>

#include "model/layout/cell_format.hpp"

using model::compact_candidates;
using model::compact_number;

TEST_CASE("cell format: leading zeros dropped, trailing zeros never added") {
  CHECK(compact_number(-0.18, 2) == "-.18");
  CHECK(compact_number(0.067, 2) == ".067");
  CHECK(compact_number(0.067, 1) == ".07");
  CHECK(compact_number(0.5, 2) == ".5");
  CHECK(compact_number(1.2, 2) == "1.2");
  CHECK(compact_number(1.0, 3) == "1");
  CHECK(compact_number(12.0, 2) == "12");
  CHECK(compact_number(0, 2) == "0");
  CHECK(compact_number(-0.0, 2) == "0");
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
  // The values of issue 6 that used to leave their cells blank.
  CHECK(compact_number(-0.006, 2) == "-.006");
  CHECK(compact_number(-1e30, 2) == "-1e30");
  CHECK(compact_number(1.8e-13, 1) == "2e-13");
  CHECK(compact_number(-DBL_TRUE_MIN, 2) == "-4.9e-324");
  CHECK(compact_number(-DBL_MAX, 1) == "-2e308");
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

TEST_CASE("cell format: ≈0 only for values that round to 0 beside a typical neighbour") {
  // Median magnitude .25 shows as ".25": its last digit is .01, so |v| < .005 rounds to 0.
  const std::vector<double> weights{0.5, 0.25, 0.2, 1.8e-13, 0, 0};
  CHECK(model::near_zero_bound(weights, 2) == doctest::Approx(0.005).epsilon(1e-12));
  CHECK(model::near_zero_bound(weights, 3) == doctest::Approx(0.0005).epsilon(1e-12));
  // One huge logit does not make the ordinary values "≈0": the median ignores it.
  CHECK(model::near_zero_bound({-1e30, 0.5, 0.25, 0.4, 1.8e-13}, 2) == doctest::Approx(0.005).epsilon(1e-12));
  // A grid of tiny values keeps them: they are its typical values.
  CHECK(model::near_zero_bound({1e-13, 2e-13, 3e-13}, 2) == doctest::Approx(1e-14 * 0.5).epsilon(1e-9));
  CHECK(model::near_zero_bound({0, 0, -INFINITY, NAN}, 2) == 0);
  CHECK(model::near_zero_bound({DBL_TRUE_MIN, DBL_TRUE_MIN}, 2) == 0);  // underflows: nothing is near zero

  CHECK(compact_candidates(1.8e-13, 2, 0.005) == std::vector<std::string>{"1.8e-13", "2e-13", "≈0"});
  CHECK(compact_candidates(-1.8e-13, 2, 0.005) == std::vector<std::string>{"-1.8e-13", "-2e-13", "≈0"});
  CHECK(compact_candidates(-0.006, 2, 0.005) == std::vector<std::string>{"-.006"});  // above the bound
  CHECK(compact_candidates(0.004, 2, 0.005) == std::vector<std::string>{".004", "≈0"});
  CHECK(compact_candidates(3.0, 2, 50) == std::vector<std::string>{"3"});  // "≈0" is no narrower than "3"
  CHECK(compact_candidates(0.0, 2, 0.005) == std::vector<std::string>{"0"});  // exact zeros stay "0"
  CHECK(model::narrowest_candidate(1.8e-13, 0.005) == "≈0");
  CHECK(model::narrowest_candidate(1.8e-13) == "2e-13");
}

namespace {

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// "-1.25e-7" -> digits 125, exponent -9 (value = ±digits · 10^exponent); false if malformed.
bool parse_compact(const std::string& s, bool* negative, long double* digits, int* exponent) {
  size_t i = 0;
  *negative = !s.empty() && s[0] == '-';
  if (*negative) ++i;
  *digits = 0;
  *exponent = 0;
  int seen = 0, decimals = 0;
  bool point = false;
  for (; i < s.size() && s[i] != 'e'; ++i) {
    if (s[i] == '.' && !point) {
      point = true;
    } else if (s[i] >= '0' && s[i] <= '9') {
      *digits = *digits * 10 + (s[i] - '0');
      ++seen;
      if (point) ++decimals;
    } else {
      return false;
    }
  }
  if (seen == 0) return false;
  if (i < s.size()) {
    std::istringstream in(s.substr(i + 1));
    if (!(in >> *exponent) || !in.eof()) return false;
  }
  *exponent -= decimals;
  return true;
}

struct Worst {
  double value = 0;
  int sig = 0;
  std::string text;
  long double units = 0;  // error in units of the last written digit
  long double relative = 0;  // error over 0.5·10^(1−sig)·|v|
};

// Checks one finite value at one precision; returns false (and says why) on a broken rule.
bool check_one(double v, int sig, Worst* worst, std::string* why) {
  const std::string s = compact_number(v, sig);
  std::ostringstream out;
  out.precision(17);
  if (s.empty()) out << "empty";
  else if (s.find_first_not_of("0123456789.-e") != std::string::npos) out << "not a plain number";
  else if (code_points(s) > static_cast<size_t>(sig) + 7) out << "longer than sig + 7";
  else if (sig == 1 && code_points(s) > 7) out << "narrowest longer than 7";
  bool negative = false;
  long double digits = 0;
  int exponent = 0;
  if (out.str().empty() && !parse_compact(s, &negative, &digits, &exponent)) out << "does not parse";
  if (out.str().empty()) {
    if (v == 0) {
      if (s != "0") out << "zero is not \"0\"";
    } else {
      if (negative != (v < 0)) out << "wrong sign";
      // v in units of the last written digit, in long double (range to 1e4932).
      const long double scaled = std::fabs(static_cast<long double>(v)) * std::pow(10.0L, -exponent);
      const long double units = std::fabs(scaled - digits);
      const long double relative = units / scaled / (0.5L * std::pow(10.0L, 1 - sig));
      const long double slack = 64 * LDBL_EPSILON * (digits + 1);  // pow and product rounding
      if (units > 0.5L + slack) out << "off by " << static_cast<double>(units) << " units of its last digit";
      else if (relative > 1 + 1e-12L) out << "relative error " << static_cast<double>(relative) << " of the bound";
      if (units > worst->units) *worst = {v, sig, s, units, relative};
    }
  }
  if (out.str().empty()) return true;
  std::ostringstream msg;
  msg.precision(17);
  msg << "compact_number(" << v << ", " << sig << ") = \"" << s << "\": " << out.str();
  *why = msg.str();
  return false;
}

std::vector<double> sweep_values() {
  std::vector<double> values{0.0, -0.0, DBL_TRUE_MIN, DBL_MIN, std::nextafter(DBL_MIN, 0.0), DBL_MAX,
                             std::nextafter(DBL_MAX, 0.0), 1e15 - 0.5, 999999999999999.4, 1e15, 0.5, 0.05,
                             9.5, 95, 0.00095, 99999.5, 1e-5, 1e-4, 0.001};
  const double mantissas[] = {1, 1.25, 1.5, 1.8, 2.5, 3.14159265358979, 4.999, 5, 7.77, 9.49, 9.5, 9.96, 9.9999999};
  for (int e = -324; e <= 308; ++e)
    for (double m : mantissas) {
      const double v = static_cast<double>(m * std::pow(10.0L, e));
      if (v != 0 && std::isfinite(v)) values.push_back(v);
    }
  for (int k = 1; k <= 64; k *= 2) values.push_back(DBL_TRUE_MIN * k);  // subnormals
  std::mt19937_64 rng(6);  // random bit patterns cover every exponent and mantissa
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) values.push_back(std::fabs(v));
  }
  const size_t n = values.size();
  for (size_t i = 0; i < n; ++i) values.push_back(-values[i]);
  return values;
}

}  // namespace

TEST_CASE("cell format: every double has a short form that reads back as itself") {
  const std::vector<double> values = sweep_values();
  REQUIRE(values.size() > 30000);
  Worst worst;
  int failures = 0;
  std::string first;
  for (double v : values)
    for (int sig : {1, 2, 3, 4, 17}) {
      std::string why;
      if (!check_one(v, sig, &worst, &why) && failures++ == 0) first = why;
    }
  INFO("first failure: " << first);
  INFO("worst read-back: compact_number(" << worst.value << ", " << worst.sig << ") = \"" << worst.text << "\", off by "
                                          << static_cast<double>(worst.units) << " units of its last digit");
  CHECK(failures == 0);
  CHECK(worst.units <= 0.5L + 1e-6L);
}

TEST_CASE("cell format: candidates over the double range shrink to a bounded narrowest form") {
  const std::vector<double> values = sweep_values();
  int failures = 0;
  std::string first;
  for (double v : values) {
    const double near_zero = 1e-3;  // some values read "≈0", most not
    const std::vector<std::string> c = compact_candidates(v, 3, near_zero);
    std::string why;
    if (c.empty()) why = "no candidate";
    else if (c.front() != compact_number(v, 3)) why = "first is not the most precise";
    else if (c.back() != model::narrowest_candidate(v, near_zero)) why = "last is not narrowest_candidate";
    else if (code_points(c.back()) > 7) why = "narrowest longer than 7";
    for (size_t i = 1; i < c.size() && why.empty(); ++i)
      if (code_points(c[i]) > code_points(c[i - 1])) why = "wider than the one before";
      else if (c[i] == c[i - 1]) why = "repeated";
    if (c.back() == "≈0" && !(v != 0 && std::fabs(v) < near_zero)) why = "≈0 for a value above the bound";
    if (!why.empty() && failures++ == 0) {
      std::ostringstream msg;
      msg.precision(17);
      msg << v << ": " << why << " (" << c.size() << " candidates, last \"" << (c.empty() ? "" : c.back()) << "\")";
      first = msg.str();
    }
  }
  INFO("first failure: " << first);
  CHECK(failures == 0);
  CHECK(compact_candidates(-INFINITY, 3, 1e-3) == std::vector<std::string>{"−∞"});  // masked logits
  CHECK(code_points(compact_candidates(-INFINITY, 3).back()) == 2);
}
