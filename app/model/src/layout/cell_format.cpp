// Compact cell numbers: printf's %g, then the characters a cell cannot spare
// are dropped (leading zero, exponent sign and padding), and the plain and
// exponent forms compete on length. The rules are stated in the header.
#include "model/layout/cell_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace model {
namespace {

// "0.25" -> ".25", "-0.25" -> "-.25".
std::string drop_leading_zero(std::string s) {
  const size_t at = s[0] == '-' ? 1 : 0;
  if (s.size() > at + 1 && s[at] == '0' && s[at + 1] == '.') s.erase(at, 1);
  return s;
}

// "3e+04" -> "3e4", "1.2e-05" -> "1.2e-5".
std::string tidy_exponent(std::string s) {
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mantissa = s.substr(0, e), exp = s.substr(e + 1);
  const bool negative = !exp.empty() && exp[0] == '-';
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.erase(0, 1);
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  return drop_leading_zero(mantissa) + "e" + (negative ? "-" : "") + exp;
}

std::string printf_g(double v, int sig, char conv) {
  char buf[64];
  if (conv == 'e') std::snprintf(buf, sizeof buf, "%.*e", sig - 1, v);
  else std::snprintf(buf, sizeof buf, "%.*g", sig, v);
  return buf;
}

// %.*e keeps trailing zeros ("3.0e+04"); strip them from the mantissa.
std::string strip_mantissa_zeros(std::string s) {
  const size_t e = s.find('e');
  std::string m = s.substr(0, e), rest = e == std::string::npos ? "" : s.substr(e);
  if (m.find('.') != std::string::npos) {
    while (m.back() == '0') m.pop_back();
    if (m.back() == '.') m.pop_back();
  }
  return m + rest;
}

}  // namespace

std::string compact_number(double v, int sig) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
  if (v == 0) return "0";
  sig = std::clamp(sig, 1, 17);
  const std::string exp_form = tidy_exponent(strip_mantissa_zeros(printf_g(v, sig, 'e')));
  std::string plain = printf_g(v, sig, 'g');
  if (plain.find('e') != std::string::npos) {
    // %g chose an exponent for a large number: the rounded integer may still
    // be as short ("12345" beats nothing, "123" beats "1.2e2").
    if (std::abs(v) >= 1 && std::abs(v) < 1e15) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.0f", v);
      plain = buf;
    } else {
      return exp_form;
    }
  } else {
    plain = drop_leading_zero(plain);
  }
  return exp_form.size() < plain.size() ? exp_form : plain;
}

double near_zero_bound(const std::vector<double>& grid_values, int sig) {
  std::vector<double> magnitudes;
  magnitudes.reserve(grid_values.size());
  for (double v : grid_values)
    if (std::isfinite(v) && v != 0) magnitudes.push_back(std::abs(v));
  if (magnitudes.empty()) return 0;
  const auto middle = magnitudes.begin() + static_cast<std::ptrdiff_t>(magnitudes.size() / 2);
  std::nth_element(magnitudes.begin(), middle, magnitudes.end());
  // Underflows to 0 (nothing is near zero) when the typical value is itself tiny.
  return 0.5 * std::pow(10.0, std::floor(std::log10(*middle)) - std::clamp(sig, 1, 17) + 1);
}

namespace {

constexpr const char* kNearZero = "≈0";

// "≈0" only where it saves room: never instead of a one-character number.
bool reads_near_zero(double v, double bound, const std::string& narrowest) {
  return v != 0 && std::abs(v) < bound && narrowest.size() > 2;
}

}  // namespace

std::vector<std::string> compact_candidates(double v, int max_sig, double near_zero) {
  std::vector<std::string> out;
  for (int sig = std::max(1, max_sig); sig >= 1; --sig) {
    std::string s = compact_number(v, sig);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  if (reads_near_zero(v, near_zero, out.back())) out.push_back(kNearZero);
  return out;
}

std::string narrowest_candidate(double v, double near_zero) {
  std::string s = compact_number(v, 1);
  return reads_near_zero(v, near_zero, s) ? kNearZero : s;
}

}  // namespace model
