// A trace's shape told from the scenario, and the bound that proves a
// scenario cannot overflow, both held to compute_trace itself: the shape
// must list exactly the stages (ids, heads, rows, columns, order) a real
// trace has, for every option; and a scenario the bound clears must compute
// without an overflow, however close to overflowing its values are scaled.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "attn/compute/overflow_bound.hpp"
#include "attn/compute/trace.hpp"
#include "attn/compute/trace_shape.hpp"
#include "fixture_files.hpp"
#include "random_scenario.hpp"

namespace {

using attn::MaskKind;
using ref::CaseSpec;

// One case per option the pipeline's stages depend on, and their mixes.
std::vector<CaseSpec> cases() {
  std::vector<CaseSpec> out;
  auto add = [&](const std::string& name, auto change) {
    CaseSpec c;
    c.name = name;
    c.seed = static_cast<unsigned>(out.size() + 1);
    change(c);
    out.push_back(c);
  };
  add("basic, no projections", [](CaseSpec&) {});
  add("two heads with W_O", [](CaseSpec& c) { c.n_heads = 2, c.d_out = 5, c.d_v = 2; });
  add("three heads, no W_O", [](CaseSpec& c) { c.n_heads = 3, c.d_k = 2, c.d_v = 4; });
  add("cross-attention", [](CaseSpec& c) { c.cross = true, c.n_k = 6, c.d_ctx = 5, c.n_heads = 2, c.d_out = 3; });
  add("cross, no projections", [](CaseSpec& c) { c.cross = true, c.n_k = 7; });
  add("sinusoidal", [](CaseSpec& c) { c.positional = attn::Positional::Sinusoidal, c.n_heads = 2; });
  add("sinusoidal cross", [](CaseSpec& c) {
    c.positional = attn::Positional::Sinusoidal, c.cross = true, c.n_k = 5, c.n_heads = 1, c.d_out = 2;
  });
  add("alibi", [](CaseSpec& c) { c.positional = attn::Positional::Alibi, c.n_heads = 4, c.mask = MaskKind::Causal; });
  add("mask after softmax", [](CaseSpec& c) { c.mode = attn::MaskMode::AfterSoftmax, c.mask = MaskKind::Causal; });
  add("softmax over queries", [](CaseSpec& c) { c.axis = attn::SoftmaxAxis::Queries, c.n_heads = 2; });
  add("custom mask and padding", [](CaseSpec& c) { c.mask = MaskKind::Custom, c.padding = ref::PaddingKind::LastKey; });
  add("additive, default W U v", [](CaseSpec& c) { c.score = attn::ScoreFn::Additive; });
  add("additive with parameters", [](CaseSpec& c) { c.score = attn::ScoreFn::Additive, c.d_att = 3, c.n_heads = 2; });
  add("temperature", [](CaseSpec& c) { c.scale = attn::ScaleMode::Temperature, c.temperature = 0.25; });
  add("no scaling, alibi after softmax", [](CaseSpec& c) {
    c.scale = attn::ScaleMode::None, c.positional = attn::Positional::Alibi, c.mode = attn::MaskMode::AfterSoftmax,
    c.mask = MaskKind::Causal, c.n_heads = 2, c.d_out = 4;
  });
  return out;
}

std::vector<attn::Scenario> asset_scenarios() {
  std::vector<attn::Scenario> out;
  for (const std::string& path : ref::json_files_in(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios"))
    out.push_back(attn::io::load_scenario(path).scenario);
  return out;
}

void check_shape_matches(const attn::Scenario& s, const std::string& name) {
  CAPTURE(name);
  const attn::Trace t = attn::compute_trace(s);
  const attn::TraceShape shape = attn::trace_shape(s);
  CHECK(shape.dims == t.dims);
  REQUIRE(shape.stages.size() == t.stages.size());
  for (size_t i = 0; i < t.stages.size(); ++i) {
    const attn::Stage& real = t.stages[i];
    const attn::StageShape& told = shape.stages[i];
    CAPTURE(real.id);
    CAPTURE(real.head);
    CHECK(told.id == real.id);
    CHECK(told.head == real.head);
    CHECK(told.rows == real.value.rows());
    CHECK(told.cols == real.value.cols());
    CHECK(shape.find(real.id, real.head) == &told);
  }
}

// s with every input and weight multiplied by `factor`.
attn::Scenario scaled(attn::Scenario s, double factor) {
  s.x *= factor;
  if (s.context) *s.context *= factor;
  for (attn::HeadWeights& w : s.heads) w.w_q *= factor, w.w_k *= factor, w.w_v *= factor;
  if (s.w_o) *s.w_o *= factor;
  for (attn::AdditiveParams& a : s.additive) a.w *= factor, a.u *= factor;
  return s;
}

bool overflows(const attn::Scenario& s) {
  try {
    (void)attn::compute_trace(s);
    return false;
  } catch (const attn::ComputeError&) {
    return true;
  }
}

}  // namespace

TEST_CASE("trace_shape lists a real trace's stages, heads and sizes in order, for every option") {
  for (const CaseSpec& c : cases()) check_shape_matches(ref::make_scenario(c), ref::describe(c));
  const std::vector<std::string> paths = ref::json_files_in(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios");
  const std::vector<attn::Scenario> scenes = asset_scenarios();
  for (size_t i = 0; i < scenes.size(); ++i) check_shape_matches(scenes[i], paths[i]);
}

TEST_CASE("trace_shape finds no stage a trace lacks") {
  const attn::TraceShape shape = attn::trace_shape(ref::make_scenario({}));
  CHECK(shape.find(attn::StageKind::weights, 0) != nullptr);
  CHECK(shape.find(attn::StageKind::weights, 1) == nullptr);
  CHECK(shape.find(attn::StageKind::weights) == nullptr);  // per head: no head -1
  CHECK(shape.find(attn::StageKind::w_q, 0) == nullptr);   // no projections
  CHECK(shape.find(attn::StageKind::alibi, 0) == nullptr);
}

TEST_CASE("proved_finite clears every shipped scene, so a lesson check computes none of them") {
  const std::vector<std::string> paths = ref::json_files_in(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios");
  const std::vector<attn::Scenario> scenes = asset_scenarios();
  for (size_t i = 0; i < scenes.size(); ++i) {
    CAPTURE(paths[i]);
    CHECK(attn::proved_finite(scenes[i]));
  }
}

TEST_CASE("a scene proved finite never overflows, at every scale up to overflowing") {
  // Scaled by 10^k, each case passes from proved, through not proved, to a
  // real overflow. The bound may be cautious (not proved yet computable),
  // never wrong (proved yet overflowing).
  for (const CaseSpec& c : cases()) {
    CAPTURE(ref::describe(c));
    const attn::Scenario base = ref::make_scenario(c);
    bool saw_proved = false, saw_overflow = false;
    for (int k = 0; k <= 300; ++k) {
      const attn::Scenario s = scaled(base, std::pow(10.0, k));
      if (!attn::validate(s).empty()) break;  // the inputs themselves overflowed
      CAPTURE(k);
      const bool proved = attn::proved_finite(s);
      const bool overflowed = overflows(s);
      CHECK_FALSE((proved && overflowed));
      saw_proved = saw_proved || proved;
      saw_overflow = saw_overflow || overflowed;
    }
    CHECK(saw_proved);
    // Every case but the additive default (tanh of anything is at most 1,
    // and W = U = I keep q + k finite) overflows somewhere.
    if (!(c.score == attn::ScoreFn::Additive && c.d_att == 0)) CHECK(saw_overflow);
  }
}

TEST_CASE("a tiny temperature, or values near the largest double, are not proved finite") {
  CaseSpec c;
  c.scale = attn::ScaleMode::Temperature;
  c.temperature = 1e-310;
  CHECK_FALSE(attn::proved_finite(ref::make_scenario(c)));
  CHECK(overflows(ref::make_scenario(c)));
  attn::Scenario s = ref::make_scenario({});
  s.x(0, 0) = 1e308;
  CHECK_FALSE(attn::proved_finite(s));
}
