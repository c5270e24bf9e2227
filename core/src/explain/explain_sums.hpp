// Internal: the pieces every explanation of a matrix product uses, shared by
// the trace's explanations and the KV cache's (explain.cpp,
// explain_decode.cpp), so a sum reads the same wherever it is shown.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "attn/explain/explain.hpp"

namespace attn::detail {

// "a + b − c + … (n more) = result", the terms as a teacher reads them aloud.
std::string sum_equation(const std::vector<Term>& terms, double result);

// Σ_t a(t) × b(t): the "products" and "sum" steps of any matrix product.
void explain_sum_of_products(Explanation& e, int n, const std::function<double(int)>& a,
                             const std::function<std::string(int)>& a_label, const std::function<double(int)>& b,
                             const std::function<std::string(int)>& b_label);

// "+ b_O[c]": the bias step after a product's sum (a checkpoint's W_O bias).
void explain_plus_bias(Explanation& e, const std::string& bias_label, double bias);

// "c · tanh(v ÷ c)": the soft-cap step after a score's division (Gemma 2's
// cap, Scenario::softcap), with the note that says what it does. Returns the
// capped value.
double explain_soft_cap(Explanation& e, double before, double cap);

}  // namespace attn::detail
