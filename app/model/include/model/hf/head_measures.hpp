// What one head of a real model does on one text, in four numbers and a
// sentence: how much weight goes to the previous token, the first token and
// the token itself, and how evenly it spreads. The overview colours and
// sorts by these; the rules that name a role are plain thresholds, tested
// on hand-made matrices (tests/app/compute/test_head_measures.cpp).
#pragma once

#include <string>

#include "attn/hf/forward/forward.hpp"
#include "model/hf/model_ui.hpp"

namespace model {

struct HeadMeasures {
  double previous = 0;  // mean of w[i][i-1] over queries i >= 1
  double first = 0;     // mean of w[i][0] over queries i >= 1 (query 0 sees only itself when causal)
  double self = 0;      // mean of w[i][i] over the same queries
  double entropy = 0;   // mean row entropy, in nats
  double evenness = 0;  // mean of each row's entropy over the most it could be (log of its visible keys), 0..1
};

// `w` is one head's (n, n) weights, masked entries exactly 0.
HeadMeasures measure_head(const attn::hf::AttentionMap<float>& w);

// "mostly attends to the previous token" (previous > 0.5, the largest of the
// three), "... the first token", "... itself", "spreads its attention evenly"
// (evenness >= 0.9), else "" (no simple role).
std::string head_role(const HeadMeasures& m);

double measure_value(const HeadMeasures& m, HeadMeasure which);

}  // namespace model
