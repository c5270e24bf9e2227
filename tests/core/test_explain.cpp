// explain() must show arithmetic that really produces the cell: every term's
// own operation checks out, and the terms re-add (or divide) to the value of
// scores, weights and head_output cells. Tolerance 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/attn.hpp"
#include "random_scenario.hpp"

using attn::Explanation;
using attn::ExplainStep;
using ref::CaseSpec;

namespace {

constexpr double kExplainTol = 1e-12;

bool close(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= kExplainTol * std::max(1.0, std::abs(b));
}

// Each term's own arithmetic: lhs op rhs = value.
void check_terms(const Explanation& e) {
  for (const ExplainStep& step : e.steps)
    for (const attn::Term& t : step.terms) {
      INFO(step.title << ": " << t.lhs_label << " " << t.op << " " << t.rhs_label);
      if (t.op == "×") CHECK(close(t.lhs * t.rhs, t.value));
      if (t.op == "+") CHECK(close(t.lhs + t.rhs, t.value));
      if (t.op == "÷") CHECK(close(t.lhs / t.rhs, t.value));
      if (t.op == "exp") CHECK(close(std::exp(t.lhs), t.value));
      if (t.op == "tanh") CHECK(close(std::tanh(t.lhs), t.value));
    }
}

double term_sum(const ExplainStep& s) {
  double sum = 0;
  for (const attn::Term& t : s.terms) sum += t.value;
  return sum;
}

const ExplainStep* step_named(const Explanation& e, const std::string& part) {
  for (const ExplainStep& s : e.steps)
    if (s.title.find(part) != std::string::npos) return &s;
  return nullptr;
}

// Scores and outputs: the last step's terms are the products that add up.
void check_sum_cell(const Explanation& e) {
  REQUIRE_FALSE(e.steps.empty());
  const ExplainStep& last = e.steps.back();
  CHECK(close(term_sum(last), e.value));
  CHECK(close(last.result, e.value));
}

void check_weight_cell(const Explanation& e, bool after) {
  REQUIRE_FALSE(e.steps.empty());
  if (after || e.value == 0.0) {
    CHECK(close(e.steps.back().result, e.value));
    return;
  }
  const ExplainStep* ex = step_named(e, "exp");
  const ExplainStep* sum = step_named(e, " sum");
  const ExplainStep* quot = step_named(e, "quotient");
  REQUIRE(ex != nullptr);
  REQUIRE(sum != nullptr);
  REQUIRE(quot != nullptr);
  CHECK(close(term_sum(*sum), sum->result));
  CHECK(close(ex->result / sum->result, e.value));
  CHECK(close(quot->result, e.value));
}

void check_scenario(const CaseSpec& c) {
  const attn::Scenario s = ref::make_scenario(c);
  const attn::Trace t = attn::compute_trace(s);
  const bool after = s.mask_mode == attn::MaskMode::AfterSoftmax;
  int checked = 0;
  for (const attn::Stage& st : t.stages) {
    const bool sum_cell = st.id == attn::StageKind::scores || st.id == attn::StageKind::head_output;
    if (!sum_cell && st.id != attn::StageKind::weights) continue;
    for (int i = 0; i < st.value.rows(); ++i)
      for (int j = 0; j < st.value.cols(); ++j) {
        const Explanation e = attn::explain(t, s, st.ref(), i, j);
        INFO(ref::describe(c) << " stage " << st.id << " head " << st.head << " cell " << i << "," << j);
        CHECK(e.value == st.value(i, j));
        check_terms(e);
        if (sum_cell) check_sum_cell(e);
        else check_weight_cell(e, after);
        ++checked;
      }
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("explain: terms re-add to scores, weights and head outputs") {
  CaseSpec c;
  c.name = "two heads, causal";
  c.n_q = 4, c.n_heads = 2, c.d_out = 2, c.mask = attn::MaskKind::Causal, c.seed = 3;
  check_scenario(c);
  c.name = "basic, custom with fully masked row";
  c.n_heads = 0, c.d_out = 0, c.mask = attn::MaskKind::Custom, c.full_row = true;
  check_scenario(c);
  c.name = "after softmax";
  c.mode = attn::MaskMode::AfterSoftmax;
  check_scenario(c);
  c.name = "additive with params, queries axis";
  c.mode = attn::MaskMode::BeforeSoftmax, c.mask = attn::MaskKind::Causal, c.full_row = false;
  c.score = attn::ScoreFn::Additive, c.d_att = 3, c.n_heads = 2, c.axis = attn::SoftmaxAxis::Queries;
  check_scenario(c);
  c.name = "cross, alibi, temperature";
  c.score = attn::ScoreFn::Dot, c.cross = true, c.n_k = 5, c.d_ctx = 3, c.axis = attn::SoftmaxAxis::Keys;
  c.positional = attn::Positional::Alibi, c.scale = attn::ScaleMode::Temperature, c.temperature = 0.5;
  check_scenario(c);
}

TEST_CASE("explain: out-of-range cells and unknown stages throw") {
  CaseSpec c;
  const attn::Scenario s = ref::make_scenario(c);
  const attn::Trace t = attn::compute_trace(s);
  CHECK_THROWS_AS(attn::explain(t, s, {attn::StageKind::weights, 0}, 99, 0), std::out_of_range);
  CHECK_THROWS_AS(attn::explain(t, s, {attn::StageKind::weights, 0}, 0, -1), std::out_of_range);
  // A name that is no stage cannot be asked for any more; a stage this scene lacks can.
  CHECK_THROWS_AS(attn::explain(t, s, {attn::StageKind::alibi, 0}, 0, 0), std::out_of_range);
}
