// The stage vocabulary (attn/compute/stage_kind.hpp) held to itself and to real
// traces: names are unique and read back to their kind, and every stage
// each shipped scenario computes has the table's shape and head rule, so a
// table entry that drifts from the pipeline fails here.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "attn/compute/stage_kind.hpp"
#include "attn/compute/trace.hpp"
#include "fixture_files.hpp"
#include "random_scenario.hpp"

namespace {

using attn::StageKind;

std::vector<std::string> shipped_scenarios() {
  return ref::json_files_in(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios");
}

bool plain(const attn::Scenario& s) {
  return !s.context && !s.heads.empty() && s.score == attn::ScoreFn::Dot && s.scale == attn::ScaleMode::SqrtDk &&
         s.mask_mode == attn::MaskMode::BeforeSoftmax && s.softmax_axis == attn::SoftmaxAxis::Keys &&
         s.positional == attn::Positional::None && s.w_o.has_value() && !s.rope.on && s.n_kv_heads == 0;
}

}  // namespace

TEST_CASE("stage vocabulary: every name reads back to its kind, and no two kinds share a name") {
  std::set<std::string> names, symbols;
  for (const attn::StageInfo& info : attn::kStages) {
    const std::string name(info.name);
    CAPTURE(name);
    CHECK(!name.empty());
    CHECK(!info.symbol.empty());
    CHECK(!info.title.empty());
    CHECK(!info.formula.empty());
    CHECK(attn::stage_kind_named(name) == info.kind);
    CHECK(attn::name_of(info.kind) == info.name);
    CHECK(&attn::info_of(info.kind) == &info);
    CHECK(names.insert(name).second);
    CHECK(symbols.insert(std::string(info.symbol)).second);
  }
}

TEST_CASE("stage vocabulary: a name that is no stage is refused, not guessed") {
  for (const char* name : {"", "Weights", "weights ", "score", "w_", "head output", "no_such_stage"}) {
    CAPTURE(name);
    CHECK_FALSE(attn::stage_kind_named(name).has_value());
  }
}

TEST_CASE("stage vocabulary: every stage of every shipped scenario has the table's shape and head rule") {
  std::vector<std::pair<std::string, attn::Scenario>> scenes;
  for (const std::string& path : shipped_scenarios()) scenes.emplace_back(path, attn::io::load_scenario(path).scenario);
  REQUIRE(!scenes.empty());
  // No shipped scene encodes a context's positions: one made up, with unequal widths.
  ref::CaseSpec cross;
  cross.cross = true, cross.positional = attn::Positional::Sinusoidal, cross.n_k = 5, cross.d_ctx = 6;
  cross.n_heads = 2, cross.d_k = 3, cross.d_v = 2, cross.d_out = 3;
  scenes.emplace_back("sinusoidal cross-attention", ref::make_scenario(cross));
  std::set<StageKind> seen;
  for (const auto& [name, s] : scenes) {
    CAPTURE(name);
    const attn::Trace t = attn::compute_trace(s);
    for (const attn::Stage& st : t.stages) {
      const attn::StageInfo& info = attn::info_of(st.id);
      CAPTURE(std::string(info.name));
      CAPTURE(st.head);
      const attn::ShapeRule shape = attn::shape_of(st.id, t.dims);
      CHECK(shape.rows == st.value.rows());
      CHECK(shape.cols == st.value.cols());
      CHECK(info.per_head == (st.head >= 0));
      // A stage's inputs come before it in the table's order, as in the trace's.
      for (const attn::StageRef& in : st.inputs) CHECK(static_cast<int>(in.id) < static_cast<int>(st.id));
      seen.insert(st.id);
    }
  }
  // Between them the scenes show every stage a trace holds (FlashAttention's
  // tiles and the KV cache's steps live beside a trace: tests/core/flash,
  // tests/core/decode), so each rule above was checked once at least.
  size_t trace_kinds = 0;
  for (const attn::StageInfo& info : attn::kStages) trace_kinds += attn::is_trace_stage(info.kind) ? 1 : 0;
  CHECK(seen.size() == trace_kinds);
  for (StageKind kind : seen) CHECK(attn::is_trace_stage(kind));
}

TEST_CASE("stage vocabulary: a plain scene's titles and formulas are the table's") {
  int plain_scenes = 0;
  for (const std::string& path : shipped_scenarios()) {
    const attn::Scenario s = attn::io::load_scenario(path).scenario;
    if (!plain(s)) continue;
    ++plain_scenes;
    CAPTURE(path);
    for (const attn::Stage& st : attn::compute_trace(s).stages) {
      const attn::StageInfo& info = attn::info_of(st.id);
      CAPTURE(std::string(info.name));
      CHECK(st.title == info.title);
      // The scaled logits name √d_k's value and the weights their axis after the table's text.
      CHECK(st.formula.rfind(std::string(info.formula), 0) == 0);
    }
  }
  CHECK(plain_scenes > 0);
}

TEST_CASE("stage vocabulary: a named stage resolves with the head it fits and no other") {
  ref::CaseSpec spec;
  spec.n_heads = 3;
  const attn::Trace t = attn::compute_trace(ref::make_scenario(spec));
  auto index = [&](StageKind k, int h) { return t.index_of({k, h}); };
  REQUIRE(index(StageKind::weights, 2) >= 0);
  CHECK(t.resolve_named("weights", 2) == index(StageKind::weights, 2));   // the head asked
  CHECK(t.resolve_named("weights", -1) == index(StageKind::weights, 0));  // no head: the fallback, 0
  CHECK(t.resolve_named("weights", -1, 1) == index(StageKind::weights, 1));
  CHECK(t.resolve_named("weights", 7, 2) == index(StageKind::weights, 2));  // no head 7: the fallback
  CHECK(t.resolve_named("x", 1) == index(StageKind::x, -1));              // a per-model stage ignores the head
  CHECK(t.resolve_named("no_such_stage", 0) == -1);
}
