// The shared pieces of product explanations (explain_sums.hpp).
#include "explain/explain_sums.hpp"

#include <algorithm>
#include <cmath>
#include "attn/compute/stage_values.hpp"
#include "attn/text/format_number.hpp"

namespace attn::detail {

std::string sum_equation(const std::vector<Term>& terms, double result) {
  std::string eq;
  const size_t shown = std::min<size_t>(terms.size(), 8);
  for (size_t i = 0; i < shown; ++i) {
    // "a − b" rather than "a + -b": read aloud the way a teacher writes it.
    const double v = terms[i].value;
    if (i == 0) eq += format_number(v);
    else eq += (v < 0 ? " − " : " + ") + format_number(std::abs(v));
  }
  if (terms.size() > shown) eq += " + … (" + std::to_string(terms.size() - shown) + " more)";
  return eq + " = " + format_number(result);
}

// Used for every matrix product (projections, scores, weights · V,
// concat · W_O), in the trace and in a decode step.
void explain_sum_of_products(Explanation& e, int n, const std::function<double(int)>& a,
                             const std::function<std::string(int)>& a_label,
                             const std::function<double(int)>& b,
                             const std::function<std::string(int)>& b_label) {
  ExplainStep products{"products", {}, "", 0};
  double sum = 0;
  for (int t = 0; t < n; ++t) {
    const double p = a(t) * b(t);
    products.terms.push_back({a_label(t), a(t), "×", b_label(t), b(t), p});
    sum += p;
  }
  products.result = sum;
  ExplainStep total{"sum", products.terms, sum_equation(products.terms, sum), sum};
  products.equation = std::to_string(n) + " products";
  e.steps.push_back(std::move(products));
  e.steps.push_back(std::move(total));
}

void explain_plus_bias(Explanation& e, const std::string& bias_label, double bias) {
  const double sum = e.steps.empty() ? 0.0 : e.steps.back().result, total = sum + bias;
  ExplainStep step{"plus the bias", {{"sum", sum, "+", bias_label, bias, total}}, "", total};
  step.equation = format_number(sum) + (bias < 0 ? " − " : " + ") + format_number(std::abs(bias)) + " = " +
                  format_number(total);
  e.steps.push_back(std::move(step));
}

double explain_soft_cap(Explanation& e, double before, double cap) {
  const double after = soft_capped(before, cap);
  e.steps.push_back({"soft cap", {}, format_number(cap) + " · tanh(" + format_number(before) + " ÷ " + format_number(cap) +
                                         ") = " + format_number(after), after});
  e.note = "the cap keeps every score between −" + format_number(cap) + " and " + format_number(cap) +
           ": small scores pass almost unchanged, large ones are squeezed";
  return after;
}

}  // namespace attn::detail
